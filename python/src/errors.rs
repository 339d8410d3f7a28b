//! The crate's errors as Python exceptions: parameter and data errors are `ValueError`s
//! (scikit-learn's convention), the rest `RuntimeError`s; a panic never crosses into Python.

use std::panic::{AssertUnwindSafe, catch_unwind};

use pyo3::PyErr;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use sslab::Error;

/// A Python exception for `e`. A method table's error keeps its message, which starts with
/// the parameter's name (`lambda: must be > 0`); a config file's, its message.
pub fn to_py(e: Error) -> PyErr {
    match e {
        Error::Table(message) | Error::Config { message, .. } => PyValueError::new_err(message),
        Error::Param { param, message } => PyValueError::new_err(format!("{param}: {message}")),
        Error::Data(m) => PyValueError::new_err(m),
        other => PyRuntimeError::new_err(other.to_string()),
    }
}

/// Runs `f`, turning a panic into a `RuntimeError` naming `what`.
pub fn no_panic<T>(what: &str, f: impl FnOnce() -> Result<T, PyErr>) -> Result<T, PyErr> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let why = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Err(PyRuntimeError::new_err(format!("{what} panicked: {why}")))
    })
}
