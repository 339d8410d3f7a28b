//! `sslab.run` and `sslab.theory`: the CLI's `run` and `theory` commands as functions.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use sslab::config;
use sslab::methods::qlds::theory::{Setting, predict, theory_lambda};
use sslab::methods::qlds::{LambdaPolicy, QldsParams};
use sslab::protocol::{self, RunOptions};

use crate::errors::{no_panic, to_py};

/// Runs the TOML experiment `config` into `out/<name>/` (its persisted splits, `rows.log`,
/// `results.csv` and, when the config saves scores, `scores.csv`) on `threads` threads and returns the path of `results.csv`.
#[pyfunction]
#[pyo3(signature = (config, out, threads=None))]
pub fn run(
    py: Python<'_>,
    config: PathBuf,
    out: PathBuf,
    threads: Option<usize>,
) -> PyResult<String> {
    py.detach(|| {
        no_panic("the run", || {
            let exp = config::load(&config).map_err(to_py)?;
            let dir = out.join(&exp.name);
            std::fs::create_dir_all(&dir).map_err(|e| to_py(sslab::Error::io(&dir, e)))?;
            let options = RunOptions { threads, progress: false, resume: false, shard: None };
            let rows = protocol::run(&exp, &options, &dir).map_err(to_py)?;
            let path = dir.join("results.csv");
            protocol::write_results(&path, &rows).map_err(to_py)?;
            protocol::write_scores(&exp, &rows, &[dir.join("rows.log")], &dir).map_err(to_py)?;
            Ok(path.display().to_string())
        })
    })
}

/// The isotropic theory of QLDS (Theorem 1) as the `theory` command computes it: `dim`,
/// per-class counts, ‖μ‖ (μ₁ = −μ₂), (α_l, α_u) and the λ policy. Returns `lambda`,
/// `valid` and, when valid, `m_1`, `m_2`, `sigma`, `error`, `delta`; else `reason`.
#[pyfunction]
#[pyo3(signature = (dim, labeled, unlabeled, mean_norm, alpha_l, alpha_u, lambda_="max_eig_all", epsilon=LambdaPolicy::EPSILON))]
#[allow(clippy::too_many_arguments)]
pub fn theory<'py>(
    py: Python<'py>,
    dim: usize,
    labeled: [usize; 2],
    unlabeled: [usize; 2],
    mean_norm: f64,
    alpha_l: f64,
    alpha_u: f64,
    lambda_: &str,
    epsilon: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let setting = Setting::symmetric(dim, labeled, unlabeled, mean_norm).map_err(to_py)?;
    let policy = LambdaPolicy::parse(lambda_, epsilon).ok_or_else(|| {
        to_py(sslab::Error::param(
            "lambda",
            format!("expected max_eig_all, max_eig_unlabeled or a number, got `{lambda_}`"),
        ))
    })?;
    QldsParams { alpha_l, alpha_u, lambda: policy }.check().map_err(to_py)?;
    let lambda = theory_lambda(&setting, policy, 1.0).map_err(to_py)?;
    let d = PyDict::new(py);
    d.set_item("lambda", lambda)?;
    match predict(&setting, alpha_l, alpha_u, lambda) {
        Ok(p) => {
            d.set_item("valid", true)?;
            d.set_item("m_1", p.m[0])?;
            d.set_item("m_2", p.m[1])?;
            d.set_item("sigma", p.sigma)?;
            d.set_item("error", p.error)?;
            d.set_item("delta", p.delta)?;
        }
        Err(why) => {
            d.set_item("valid", false)?;
            d.set_item("reason", why.to_string())?;
        }
    }
    Ok(d)
}
