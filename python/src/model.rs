//! A fit's model as Python sees it: a dict of arrays (linear: `weights` d × K, `center` d or
//! None, `scale`, `bias` K; the `.npz` of docs/output.md; the graph-only kinds' neighbours
//! model: its fit rows and their scores), and scoring new rows with a linear one through
//! the crate's `Model::score`, the arithmetic of the fit's own scores.

use ndarray::Array1;
use numpy::{IntoPyArray, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use sslab::data::Features;
use sslab::engine::{Linear, Model, Rows, Scores};

use crate::csr::{CsrArrays, csr_rows};
use crate::errors::to_py;

/// A linear model as a dict of numpy arrays, its `kind` `"linear"` (a one-vs-rest model of
/// linear ones as its K columns in one, the same scores); None for another form (the
/// graph-only kinds' neighbours model is not handed to Python: it would copy the rows).
pub fn to_dict<'py>(py: Python<'py>, model: Model) -> PyResult<Option<Bound<'py, PyDict>>> {
    let d = PyDict::new(py);
    let m = match model {
        Model::Linear(m) => m,
        Model::OneVsRest(m) => match m.linear() {
            Some(m) => m,
            None => return Ok(None),
        },
        Model::Neighbours(_) => return Ok(None),
    };
    d.set_item("kind", "linear")?;
    d.set_item("weights", m.weights.into_pyarray(py))?;
    d.set_item("center", m.center.map(|c| c.into_pyarray(py)))?;
    d.set_item("scale", m.scale)?;
    d.set_item("bias", m.bias.into_pyarray(py))?;
    Ok(Some(d))
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
