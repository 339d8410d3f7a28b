//! One fit, isolated from the others of a run: the runner and the tuning both fit through it.

use std::panic::AssertUnwindSafe;

use crate::engine::{self, Fitted, Method, Split};
use crate::error::{Error, Result};
use crate::support::memory;

/// Fits one method through [`engine::fit`] (one-vs-rest for a binary kind, `native` false,
/// on a split of more classes), isolated: a fit whose memory estimate exceeds `limit`, and
/// a panic inside a fit (e.g. a refused allocation), become errors for its row only.
pub(super) fn fit(method: &dyn Method, native: bool, split: &Split, limit: f64) -> Result<Fitted> {
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
    std::panic::catch_unwind(AssertUnwindSafe(|| engine::fit(method, native, split)))
        .unwrap_or_else(|panic| {
            let why = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            Err(Error::Data(format!("the fit panicked: {why}")))
        })
}
