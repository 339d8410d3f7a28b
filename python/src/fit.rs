//! Checking and fitting one method on arrays: the parameters go through the family's
//! `check` as a key → value table (`Entry::table`, errors naming the key), the fit through
//! `engine::fit` (one-vs-rest for a binary kind on more classes) on a split of the caller's
//! rows (labeled first, no data source), as the CLI's runner fits a split.

use std::sync::{Arc, Mutex};

use ndarray::{Array1, Array2, ArrayView1, ArrayView2};
use numpy::{PyReadonlyArray1, PyReadonlyArray2};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use rayon::ThreadPool;
use sslab::data::{Features, Problem};
use sslab::engine::{Checked, Entry, Fitted, Method, Scores, Split, Store};
use sslab::methods::FAMILIES;
use sslab::methods::sparse_graph::{Graph, SparseGraphFamily};
use toml::Value;

use crate::csr::{CsrArrays, csr_rows};
use crate::errors::{no_panic, to_py};

/// Every config kind with whether it handles more than two classes.
#[pyfunction]
pub fn kinds() -> Vec<(&'static str, bool)> {
    FAMILIES
        .iter()
        .flat_map(|f| f.kinds().iter().map(|k| (*k, f.multiclass_kinds().contains(k))))
        .collect()
}

/// Whether `kind` handles more than two classes itself (the others fit one-vs-rest).
fn native(kind: &str) -> bool {
    kinds().iter().any(|(k, multiclass)| *k == kind && *multiclass)
}

/// Checks `params` (a dict of TOML-able values) for `kind` with the family's own checks and
/// returns the method's default name (`QLDS(th)`, `TSVM(S=10000)`, ...).
#[pyfunction]
pub fn check(kind: &str, params: &Bound<'_, PyDict>) -> PyResult<String> {
    checked(kind, params).map(|c| c.name)
}

/// The checked method of `kind` with `params`, with its default name.
fn checked(kind: &str, params: &Bound<'_, PyDict>) -> PyResult<Checked> {
    let family = FAMILIES
        .iter()
        .find(|f| f.kinds().contains(&kind))
        .ok_or_else(|| PyValueError::new_err(format!("unknown kind `{kind}`")))?;
    family.check(&table(kind, params)?).map_err(to_py)
}

/// `params` as the table of a method of `kind`, its errors naming the key.
fn table(kind: &str, params: &Bound<'_, PyDict>) -> PyResult<Entry<'static>> {
    let mut values = Vec::new();
    for (k, v) in params.iter() {
        let key: String = k.extract()?;
        let value = toml_value(&v).map_err(|why| PyValueError::new_err(format!("{key}: {why}")))?;
        values.push((key, value));
    }
    Entry::table(kind, values).map_err(to_py)
}

/// A Python parameter value as TOML: bool, int, float, str, or a list/tuple of these.
fn toml_value(v: &Bound<'_, PyAny>) -> Result<Value, String> {
    if v.is_instance_of::<PyBool>() {
        return Ok(Value::Boolean(v.extract().map_err(|e: PyErr| e.to_string())?));
    }
    if v.is_instance_of::<PyInt>() {
        return v.extract::<i64>().map(Value::Integer).map_err(|e| e.to_string());
    }
    if v.is_instance_of::<PyString>() {
        return v.extract::<String>().map(Value::String).map_err(|e| e.to_string());
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        let items: Vec<Bound<'_, PyAny>> = v.extract().map_err(|e: PyErr| e.to_string())?;
        return items.iter().map(toml_value).collect::<Result<_, _>>().map(Value::Array);
    }
    if v.is_instance_of::<PyFloat>() || v.hasattr("__float__").unwrap_or(false) {
        return v.extract::<f64>().map(Value::Float).map_err(|e| e.to_string());
    }
    Err(format!("unsupported value of type {}", v.get_type()))
}

/// Scores of the unlabeled rows, of the test rows when given, the wall time of the
/// library's fit (`Method::fit` with scoring: the span of the CLI's `fit_seconds`), and the
/// fitted model as a dict of arrays (None: a method without one).
type FitScores = (Py<PyAny>, Option<Py<PyAny>>, f64, Option<Py<PyDict>>);

create_exception!(
    _sslab,
    NonFiniteInput,
    PyValueError,
    "X holds NaN or infinity (found while gathering its rows; the estimator raises \
     scikit-learn's own message)."
);

/// Fits `kind` with `params` on the float64 rows `x` (C-contiguous: read in place): the rows
/// `labeled` with class ids `classes_l` (< `n_classes`) are labeled, the others unlabeled;
/// scores the unlabeled rows (in order) and the rows of `test`. One pass gathers the rows
/// into the labeled and unlabeled blocks and checks that they are finite (`NonFiniteInput`
/// otherwise). The GIL is released from that pass to the end of the fit, which runs on a
/// pool of `n_jobs` threads (None: one per core).
#[pyfunction]
#[pyo3(signature = (kind, params, x, labeled, classes_l, n_classes, test=None, n_jobs=None))]
#[allow(clippy::too_many_arguments)]
pub fn fit_dense(
    py: Python<'_>,
    kind: &str,
    params: &Bound<'_, PyDict>,
    x: PyReadonlyArray2<'_, f64>,
    labeled: PyReadonlyArray1<'_, i64>,
    classes_l: PyReadonlyArray1<'_, i64>,
    n_classes: usize,
    test: Option<PyReadonlyArray2<'_, f64>>,
    n_jobs: Option<usize>,
) -> PyResult<FitScores> {
    let method = checked(kind, params)?.method;
    let (x, test) = (x.as_array(), test.as_ref().map(|t| t.as_array()));
    let rows = Rows::new(x.nrows(), labeled.as_array(), classes_l.as_array(), n_classes)?;
    let fitted = py.detach(|| {
        let (x_l, x_u) = (gather(x, &rows.labeled), gather(x, &rows.unlabeled));
        let (Some(x_l), Some(x_u)) = (x_l, x_u) else {
            return Err(NonFiniteInput::new_err("X contains NaN or infinity"));
        };
        let test = test.map(|t| Features::Dense(t.to_owned()));
        let (x_l, x_u) = (Features::Dense(x_l), Features::Dense(x_u));
        fit_released(&*method, native(kind), &rows, x_l, x_u, test.as_ref(), n_jobs)
    })?;
    scores(py, fitted)
}

/// The rows `rows` of `x` as one C-ordered block, or None when a value is not finite: one
/// pass over the rows, scikit-learn's finiteness scan fused with the copy.
fn gather(x: ArrayView2<'_, f64>, rows: &[usize]) -> Option<Array2<f64>> {
    let d = x.ncols();
    let mut out = Vec::with_capacity(rows.len() * d);
    let mut bad = false;
    for &i in rows {
        let row = x.row(i);
        match row.as_slice() {
            Some(r) => out.extend_from_slice(r),
            None => out.extend(row.iter()),
        }
        // Branch-free over the row (vectorised), checked once per row.
        bad |= out[out.len() - d..].iter().fold(false, |b, v| b | !v.is_finite());
    }
    if bad {
        return None;
    }
    Some(Array2::from_shape_vec((rows.len(), d), out).expect("rows × d values"))
}

/// [`fit_dense`] on a CSR matrix (`indptr` int64, `indices` int32 sorted within rows,
/// `data` float64, `n_cols` columns), never densified; `test` another CSR matrix as
/// `(indptr, indices, data)` with the same columns.
#[pyfunction]
#[pyo3(signature = (kind, params, csr, n_cols, labeled, classes_l, n_classes, test=None, n_jobs=None))]
#[allow(clippy::too_many_arguments)]
pub fn fit_sparse(
    py: Python<'_>,
    kind: &str,
    params: &Bound<'_, PyDict>,
    csr: CsrArrays<'_>,
    n_cols: usize,
    labeled: PyReadonlyArray1<'_, i64>,
    classes_l: PyReadonlyArray1<'_, i64>,
    n_classes: usize,
    test: Option<CsrArrays<'_>>,
    n_jobs: Option<usize>,
) -> PyResult<FitScores> {
    let method = checked(kind, params)?.method;
    let n_rows = csr.0.as_array().len().saturating_sub(1);
    let rows = Rows::new(n_rows, labeled.as_array(), classes_l.as_array(), n_classes)?;
    let csr = (csr.0.as_array(), csr.1.as_array(), csr.2.as_array());
    let test = test.as_ref().map(|t| (t.0.as_array(), t.1.as_array(), t.2.as_array()));
    let fitted = py.detach(|| {
        let (x_l, x_u) = (
            csr_rows(&csr, n_cols, Some(&rows.labeled)).map_err(to_py)?,
            csr_rows(&csr, n_cols, Some(&rows.unlabeled)).map_err(to_py)?,
        );
        let test = test.map(|t| csr_rows(&t, n_cols, None)).transpose().map_err(to_py)?;
        let (x_l, x_u) = (Features::Sparse(x_l), Features::Sparse(x_u));
        fit_released(
            &*method,
            native(kind),
            &rows,
            x_l,
            x_u,
            test.map(Features::Sparse).as_ref(),
            n_jobs,
        )
    })?;
    scores(py, fitted)
}

/// [`fit_dense`] of a graph-only method (Laplace, Poisson, ...) on the precomputed
/// adjacency `graph` (a square CSR matrix `(indptr, indices, data)`, one node per row; held
/// with f32 weights and u32 indices) instead of the kNN graph of rows, as the CLI's
/// `graph = "w.npz"`: `symmetrise` is `max` unless set, and kNN keys are errors.
#[pyfunction]
#[pyo3(signature = (kind, params, graph, labeled, classes_l, n_classes, n_jobs=None))]
#[allow(clippy::too_many_arguments)]
pub fn fit_graph(
    py: Python<'_>,
    kind: &str,
    params: &Bound<'_, PyDict>,
    graph: CsrArrays<'_>,
    labeled: PyReadonlyArray1<'_, i64>,
    classes_l: PyReadonlyArray1<'_, i64>,
    n_classes: usize,
    n_jobs: Option<usize>,
) -> PyResult<FitScores> {
    let entry = table(kind, params)?;
    let (indptr, indices, data) = (graph.0.as_array(), graph.1.as_array(), graph.2.as_array());
    let n = indptr.len().saturating_sub(1);
    let rows = Rows::new(n, labeled.as_array(), classes_l.as_array(), n_classes)?;
    let fitted = py.detach(|| {
        let build = |rule| {
            let bad = |what: &str| sslab::Error::Data(format!("graph: a negative {what}"));
            let indptr: Vec<usize> = indptr
                .iter()
                .map(|&p| usize::try_from(p).map_err(|_| bad("indptr entry")))
                .collect::<sslab::Result<_>>()?;
            let indices: Vec<u32> = indices
                .iter()
                .map(|&j| u32::try_from(j).map_err(|_| bad("column index")))
                .collect::<sslab::Result<_>>()?;
            let weights: Vec<f32> = data.iter().map(|&w| w as f32).collect();
            Graph::from_csr(&indptr, &indices, &weights, rule)
        };
        let method = SparseGraphFamily.check_given(&entry, &build).map_err(to_py)?.method;
        // No features: the graph is the data.
        let none = |rows: &[usize]| Features::Dense(Array2::zeros((rows.len(), 0)));
        let (x_l, x_u) = (none(&rows.labeled), none(&rows.unlabeled));
        fit_released(&*method, native(kind), &rows, x_l, x_u, None, n_jobs)
    })?;
    scores(py, fitted)
}

/// The caller's split of its rows: labeled rows (in the caller's order) with class ids, the
/// others unlabeled.
struct Rows {
    labeled: Vec<usize>,
    unlabeled: Vec<usize>,
    classes_l: Vec<usize>,
    n_classes: usize,
}

impl Rows {
    fn new(
        n: usize,
        labeled: ArrayView1<'_, i64>,
        classes: ArrayView1<'_, i64>,
        n_classes: usize,
    ) -> PyResult<Self> {
        let bad = |m: String| Err(PyValueError::new_err(m));
        if labeled.len() != classes.len() {
            return bad(format!("{} labeled rows but {} classes", labeled.len(), classes.len()));
        }
        let mut is_labeled = vec![false; n];
        for &i in &labeled {
            match usize::try_from(i) {
                Ok(i) if i < n && !is_labeled[i] => is_labeled[i] = true,
                _ => return bad(format!("labeled row {i} is out of range or repeated")),
            }
        }
        let classes_l: Vec<usize> = classes.iter().map(|&c| c.max(0) as usize).collect();
        if n_classes < 2 || classes.iter().any(|&c| c < 0 || c as usize >= n_classes) {
            return bad(format!("class ids must lie in 0..{n_classes} with ≥ 2 classes"));
        }
        Ok(Rows {
            labeled: labeled.iter().map(|&i| i as usize).collect(),
            unlabeled: (0..n).filter(|&i| !is_labeled[i]).collect(),
            classes_l,
            n_classes,
        })
    }

    /// The problem: labels ±1 (class 0 is +1, the others −1), the unlabeled truth unknown.
    fn problem(&self, x_l: Features, x_u: Features) -> Problem {
        let n_u = self.unlabeled.len();
        Problem {
            x_l,
            y_l: self.classes_l.iter().map(|&c| if c == 0 { 1.0 } else { -1.0 }).collect(),
            x_u,
            y_u: Array1::from_elem(n_u, f64::NAN),
            classes_l: self.classes_l.clone(),
            classes_u: vec![0; n_u],
            n_classes: self.n_classes,
        }
    }
}

/// Fits `method` on the caller's `rows` with the features of its labeled rows `x_l` and
/// unlabeled rows `x_u` (called with the GIL released), timing the fit as the CLI's runner
/// does; a panic becomes a `RuntimeError`.
fn fit_released(
    method: &dyn Method,
    native: bool,
    rows: &Rows,
    x_l: Features,
    x_u: Features,
    test: Option<&Features>,
    n_jobs: Option<usize>,
) -> PyResult<(Fitted, f64)> {
    let problem = rows.problem(x_l, x_u);
    let order: Vec<usize> = rows.labeled.iter().chain(&rows.unlabeled).copied().collect();
    // The fit's own caches: a fit from arrays shares nothing with another.
    let stores = [Store::default(), Store::default()];
    let split = Split {
        problem: &problem,
        source: None,
        rows: Some(&order),
        dataset_store: &stores[0],
        split_store: &stores[1],
        test,
        // Only `command` methods (not offered from Python) read the split's seed and index.
        seed: 0,
        index: 0,
    };
    no_panic("the fit", || {
        pool(n_jobs.unwrap_or(0))?
            .install(|| {
                let start = std::time::Instant::now();
                sslab::engine::fit(method, native, &split)
                    .map(|f| (f, start.elapsed().as_secs_f64()))
            })
            .map_err(to_py)
    })
}

/// The process's one rayon pool, of `threads` threads (0: one per core): kept while fits ask
/// for that size, as the CLI keeps its one pool (a fit does not pay for starting threads),
/// and replaced when another size is asked, the old pool's threads ending with its last fit
/// (so a sweep over `n_jobs` values keeps one pool alive, not one per value). Kept per
/// process id, since a forked child has none of its parent's threads.
fn pool(threads: usize) -> PyResult<Arc<ThreadPool>> {
    /// The pool and the (process id, size) it was built for.
    type Kept = ((u32, usize), Arc<ThreadPool>);
    static POOL: Mutex<Option<Kept>> = Mutex::new(None);
    let key = (std::process::id(), threads);
    let mut kept = POOL.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((k, p)) = kept.as_ref()
        && *k == key
    {
        return Ok(p.clone());
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| PyValueError::new_err(format!("n_jobs: {e}")))?,
    );
    *kept = Some((key, p.clone()));
    Ok(p)
}

/// The fit's scores as numpy arrays, with the fit's seconds and its model.
fn scores(py: Python<'_>, (fitted, seconds): (Fitted, f64)) -> PyResult<FitScores> {
    let out = |s: Scores| crate::model::to_numpy(py, s);
    let model = match fitted.model {
        Some(m) => Some(crate::model::to_dict(py, m)?.unbind()),
        None => None,
    };
    Ok((out(fitted.scores), fitted.test.map(out), seconds, model))
}
