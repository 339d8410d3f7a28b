//! `sslab._sslab`, the compiled half of the Python package: checks a method's parameters
//! through its family (the crate's own messages), fits it on arrays with the GIL released,
//! runs TOML experiments and evaluates the QLDS theory. The scikit-learn estimators in
//! `python/sslab/` are thin Python classes over these functions.

mod csr;
mod errors;
mod experiment;
mod fit;
mod model;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _sslab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Dense algebra on one thread, as the CLI's runner sets it: parallelism is rayon's.
    faer::set_global_parallelism(faer::Par::Seq);
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(fit::check, m)?)?;
    m.add_function(wrap_pyfunction!(fit::fit_dense, m)?)?;
    m.add_function(wrap_pyfunction!(fit::fit_sparse, m)?)?;
    m.add_function(wrap_pyfunction!(fit::fit_graph, m)?)?;
    m.add_function(wrap_pyfunction!(model::score, m)?)?;
    m.add_function(wrap_pyfunction!(model::score_kernel, m)?)?;
    m.add_function(wrap_pyfunction!(model::score_neighbours, m)?)?;
    m.add("NonFiniteInput", m.py().get_type::<fit::NonFiniteInput>())?;
    m.add_function(wrap_pyfunction!(fit::kinds, m)?)?;
    m.add_function(wrap_pyfunction!(experiment::run, m)?)?;
    m.add_function(wrap_pyfunction!(experiment::theory, m)?)?;
    Ok(())
}
