//! Estimated wall time of a run before running it: the methods' cost estimates
//! (`Method::fit_cost`, flops up to a constant) summed over the fits and tuning fits, turned
//! into seconds by one constant measured on committed runs (see [`SECONDS_PER_COST`]).

use super::shard::{all_tasks, cost};
use crate::config::Experiment;
use crate::error::Result;

/// Seconds of one thread per unit of `Method::fit_cost`: the median over six committed runs
/// (qlds_table1, quickstart, svmlin_pcmac, svmlin_text, tv-usps-4v9, tv-usps-4v9-tuned) of
/// Σ fit_seconds in results.csv / Σ cost; other runs check it (docs/workflow.md).
pub const SECONDS_PER_COST: f64 = 5.85e-11;

/// The summed cost of a run's fits and of its tuning fits, and of its largest task.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Number of (dataset, split, method) fits.
    pub fits: usize,
    /// Summed cost of the fits.
    pub cost: f64,
    /// Summed cost of the tuning fits (every grid point on every tuning split).
    pub tuning: f64,
    /// Cost of the largest (dataset, split) task: no thread count makes a run shorter.
    pub largest: f64,
}

impl Estimate {
    /// The estimated wall time on `threads` threads, in seconds.
    pub fn seconds(&self, threads: usize) -> f64 {
        let spread = (self.cost + self.tuning) / threads.max(1) as f64;
        SECONDS_PER_COST * spread.max(self.largest)
    }
}

/// The cost estimate of a whole run of `exp`.
pub fn estimate(exp: &Experiment) -> Result<Estimate> {
    let tasks = all_tasks(exp);
    let per_dataset =
        (0..exp.datasets.len()).map(|d| cost(exp, d)).collect::<Result<Vec<f64>>>()?;
    let tuning = exp
        .datasets
        .iter()
        .map(|d| {
            let ((n, dim), l) = (d.shape()?, d.n_labeled()?);
            Ok(exp
                .methods
                .iter()
                .filter_map(|m| m.tuning.as_ref())
                .map(|t| {
                    t.splits as f64
                        * t.grid.iter().map(|p| p.method.fit_cost(l, n, dim)).sum::<f64>()
                })
                .fold(0.0, |a, b| a + b))
        })
        .sum::<Result<f64>>()?;
    Ok(Estimate {
        fits: tasks.len() * exp.methods.len(),
        cost: tasks.iter().map(|&(d, _)| per_dataset[d]).sum(),
        tuning,
        largest: per_dataset.iter().copied().fold(0.0, f64::max),
    })
}
