//! A fit's model as Python sees it: a dict of arrays (linear: `weights` d × K, `center` d or
//! None, `scale`, `bias` K; kernel expansion: `support`, `coef`, `bias`, `width`, `rule`,
//! `rule_params`; neighbours: `rows`, `scores`, `k`, `weighting`; the `.npz` arrays of
//! docs/output.md; one-vs-rest: the list of its class models' dicts), and scoring new rows
//! with it through the crate's `Model::score`, the arithmetic of the fit's own test scores.

use ndarray::Array1;
use numpy::{IntoPyArray, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sslab::data::Features;
use std::sync::Arc;

use sslab::engine::{
    KernelExpansion, KnnWeights, Linear, Model, Neighbours, PointRule, Rows, Scores,
};

use crate::csr::{CsrArrays, csr_rows};
use crate::errors::to_py;

/// A model as a dict of numpy arrays: `kind` `"linear"` (a one-vs-rest model of linear ones
/// as its K columns in one, the same scores), `"kernel"` or `"neighbours"` (a copy of the
/// fit rows, which the estimator keeps instead of X), or `"one_vs_rest"` with `classes`, the
/// list of the K class models' dicts (any other one-vs-rest model).
pub fn to_dict<'py>(py: Python<'py>, model: Model) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let m = match model {
        Model::Linear(m) => m,
        Model::OneVsRest(m) => match m.linear() {
            Some(m) => m,
            None => {
                let classes = m.models.into_iter().map(|c| to_dict(py, c));
                d.set_item("kind", "one_vs_rest")?;
                d.set_item("classes", classes.collect::<PyResult<Vec<_>>>()?)?;
                return Ok(d);
            }
        },
        Model::Neighbours(m) => return arrays(py, d, "neighbours", m.arrays()),
        Model::Kernel(m) => return arrays(py, d, "kernel", m.arrays()),
    };
    d.set_item("kind", "linear")?;
    d.set_item("weights", m.weights.into_pyarray(py))?;
    d.set_item("center", m.center.map(|c| c.into_pyarray(py)))?;
    d.set_item("scale", m.scale)?;
    d.set_item("bias", m.bias.into_pyarray(py))?;
    Ok(d)
}

/// `d` with `kind` and the `.npz` arrays of a model.
fn arrays<'py>(
    py: Python<'py>,
    d: Bound<'py, PyDict>,
    kind: &str,
    arrays: Vec<(&'static str, Vec<usize>, Vec<f64>)>,
) -> PyResult<Bound<'py, PyDict>> {
    d.set_item("kind", kind)?;
    for (name, shape, values) in arrays {
        let a = ndarray::ArrayD::from_shape_vec(shape, values).expect("shape of values");
        d.set_item(name, a.into_pyarray(py))?;
    }
    Ok(d)
}

/// Scores as a numpy array: (n,) binary, (n, K) per class.
pub fn to_numpy(py: Python<'_>, s: Scores) -> Py<PyAny> {
    match s {
        Scores::Binary(a) => a.into_pyarray(py).into_any().unbind(),
        Scores::PerClass(a) => a.into_pyarray(py).into_any().unbind(),
    }
}

/// Scores of the rows of `dense` (float64) or of the CSR matrix `csr` `(indptr, indices,
/// data)`, `n_cols` columns either way, by the model of `weights`, `center`, `scale`, `bias`.
#[pyfunction]
#[pyo3(signature = (weights, center, scale, bias, n_cols, dense=None, csr=None))]
#[allow(clippy::too_many_arguments)]
pub fn score(
    py: Python<'_>,
    weights: PyReadonlyArray2<'_, f64>,
    center: Option<PyReadonlyArray1<'_, f64>>,
    scale: f64,
    bias: PyReadonlyArray1<'_, f64>,
    n_cols: usize,
    dense: Option<PyReadonlyArray2<'_, f64>>,
    csr: Option<CsrArrays<'_>>,
) -> PyResult<Py<PyAny>> {
    let model = Model::Linear(Linear {
        weights: weights.as_array().to_owned(),
        center: center.map(|c| c.as_array().to_owned()),
        scale,
        bias: Array1::from(bias.as_array().to_vec()),
    });
    score_rows(py, &model, n_cols, dense, csr)
}

/// Scores of the rows of `dense` or `csr` (as [`score`]) by the kernel expansion of
/// `support` (n × d), `coef` (n × K), `bias` (K), `width` and the decision rule `rule`
/// with `rule_params` (the `.npz` arrays).
#[pyfunction]
#[pyo3(signature = (support, coef, bias, width, rule, rule_params, n_cols, dense=None, csr=None))]
#[allow(clippy::too_many_arguments)]
pub fn score_kernel(
    py: Python<'_>,
    support: PyReadonlyArray2<'_, f64>,
    coef: PyReadonlyArray2<'_, f64>,
    bias: PyReadonlyArray1<'_, f64>,
    width: f64,
    rule: f64,
    rule_params: PyReadonlyArray1<'_, f64>,
    n_cols: usize,
    dense: Option<PyReadonlyArray2<'_, f64>>,
    csr: Option<CsrArrays<'_>>,
) -> PyResult<Py<PyAny>> {
    let params = Array1::from(rule_params.as_array().to_vec());
    let rule = PointRule::from_code(rule, params)
        .ok_or_else(|| PyValueError::new_err(format!("score_kernel: rule code {rule}")))?;
    let model = KernelExpansion::new(
        Arc::new(support.as_array().to_owned()),
        coef.as_array().to_owned(),
        Array1::from(bias.as_array().to_vec()),
        width,
        rule,
    )
    .map_err(to_py)?;
    score_rows(py, &Model::Kernel(model), n_cols, dense, csr)
}

/// Scores of the rows of `dense` or `csr` (as [`score`]) by the neighbours model of the fit
/// rows `rows` (n × d) with `scores` (n × K), `k` and the weight formula `weighting` (its
/// index in `KnnWeights::ALL`).
#[pyfunction]
#[pyo3(signature = (rows, scores, k, weighting, n_cols, dense=None, csr=None))]
#[allow(clippy::too_many_arguments)]
pub fn score_neighbours(
    py: Python<'_>,
    rows: PyReadonlyArray2<'_, f64>,
    scores: PyReadonlyArray2<'_, f64>,
    k: usize,
    weighting: usize,
    n_cols: usize,
    dense: Option<PyReadonlyArray2<'_, f64>>,
    csr: Option<CsrArrays<'_>>,
) -> PyResult<Py<PyAny>> {
    let weights = *KnnWeights::ALL
        .get(weighting)
        .ok_or_else(|| PyValueError::new_err(format!("score_neighbours: weighting {weighting}")))?;
    let rows = Arc::new(rows.as_array().to_owned());
    let model = Neighbours::new(rows, scores.as_array().to_owned(), k, weights).map_err(to_py)?;
    score_rows(py, &Model::Neighbours(model), n_cols, dense, csr)
}

/// Scores of dense or CSR rows by `model`, the GIL released.
fn score_rows(
    py: Python<'_>,
    model: &Model,
    n_cols: usize,
    dense: Option<PyReadonlyArray2<'_, f64>>,
    csr: Option<CsrArrays<'_>>,
) -> PyResult<Py<PyAny>> {
    let s = match (dense, csr) {
        // Read in place (C-contiguous rows: the fit's arithmetic).
        (Some(x), None) => {
            let x = x.as_array();
            py.detach(|| model.score(Rows::Dense(x)))
        }
        (None, Some(m)) => {
            let views = (m.0.as_array(), m.1.as_array(), m.2.as_array());
            let x = csr_rows(&views, n_cols, None).map_err(to_py)?;
            py.detach(|| model.score(&Features::Sparse(x)))
        }
        _ => return Err(PyValueError::new_err("score: give either dense or csr rows")),
    };
    Ok(to_numpy(py, s.map_err(to_py)?))
}
