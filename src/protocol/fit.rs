//! One fit, isolated from the others of a run: the runner and the tuning both fit through it.

use std::panic::AssertUnwindSafe;

use crate::engine::{self, Fitted, Method, Split};
use crate::error::{Error, Result};
use crate::support::memory;

/// Fits one method through [`engine::fit`] (one-vs-rest for a binary kind, `native` false,
/// on a split of more classes), isolated: a fit whose memory estimate exceeds `limit`, and
/// a panic inside a fit (e.g. a refused allocation), become errors for its row only.
pub(super) fn fit(method: &dyn Method, native: bool, split: &Split, limit: f64) -> Result<Fitted> {
    within(method, split, limit)?;
    isolated(|| engine::fit(method, native, split), "fit")
}

/// [`Method::prepare`] under the same guards as [`fit`].
pub(super) fn prepare(method: &dyn Method, split: &Split, limit: f64) -> Result<()> {
    within(method, split, limit)?;
    isolated(|| method.prepare(split), "preparation")
}

/// An error when the method's memory estimate on the split exceeds `limit`.
fn within(method: &dyn Method, split: &Split, limit: f64) -> Result<()> {
    let p = split.problem;
    let (n, dim) = (p.n_labeled() + p.n_unlabeled(), p.dim());
    let need = method.memory(n, dim);
    if need > limit {
        return Err(Error::Data(format!(
            "needs about {} for {n} points × {dim} features, above the memory limit of {} (set SSLAB_MEMORY_LIMIT to change it)",
            memory::human(need),
            memory::human(limit)
        )));
    }
    Ok(())
}

/// `run()`, a panic inside it (`what`: "fit", …) turned into an error.
fn isolated<T>(run: impl FnOnce() -> Result<T>, what: &str) -> Result<T> {
    std::panic::catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("unknown panic");
        Err(Error::Data(format!("the {what} panicked: {why}")))
    })
}
