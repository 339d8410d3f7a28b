//! Estimated wall time of a run before running it: per fit, a time of its method kind plus
//! the method's cost estimate (`Method::fit_cost`, flops up to a constant, once per class for
//! a binary kind fitted one-vs-rest) times a rate of its kind, both fitted once to the
//! committed runs ([`KINDS`], docs/estimates.md); summed over the fits and tuning fits.

use crate::config::Experiment;
use crate::error::Result;

/// Seconds of one thread per unit of `Method::fit_cost` for a kind outside [`KINDS`]: the
/// median over six committed runs of Σ fit_seconds / Σ cost (docs/workflow.md).
pub const SECONDS_PER_COST: f64 = 5.85e-11;

/// Per method kind: seconds per fit, and seconds per unit of `Method::fit_cost`; fitted by
/// `scripts/calibrate_estimates.py` to the fit_seconds of the committed results
/// (docs/estimates.md says which and how).
pub const KINDS: &[(&str, f64, f64)] = &[
    ("cheeger_rls", 1.257e+00, 5.375e-11),
    ("cheeger_svm", 1.430e+00, 4.617e-11),
    ("command", 2.891e+00, 2.037e-06),
    ("da", 1.114e+01, 3.812e-10),
    ("gb_ssl", 0.000e+00, 1.167e-11),
    ("gradient", 2.351e-02, 4.788e-12),
    ("label_spreading", 1.028e+00, 0.000e+00),
    ("lap_rls", 6.277e-02, 5.852e-12),
    ("lap_svm", 0.000e+00, 1.812e-13),
    ("laplace", 5.425e+00, 0.000e+00),
    ("linear_rls", 1.001e-02, 9.238e-12),
    ("linear_svm", 1.656e-02, 1.550e-11),
    ("ls_svm", 3.861e-04, 7.149e-11),
    ("poisson", 3.011e-01, 4.414e-11),
    ("qlds", 0.000e+00, 7.452e-11),
    ("self_training", 0.000e+00, 2.926e-11),
    ("spectral", 0.000e+00, 1.231e-10),
    ("tsvm", 6.604e+00, 9.855e-11),
    ("tv_rls", 1.244e+00, 1.138e-11),
    ("tv_svm", 8.940e-01, 2.685e-11),
];

/// One method entry's part of a run: its fits, their summed cost and estimated seconds.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MethodEstimate {
    pub fits: usize,
    pub cost: f64,
    pub seconds: f64,
}

/// The estimated seconds (one thread) of a run's fits and of its tuning fits, and of its
/// largest task.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Number of (dataset, split, method) fits.
    pub fits: usize,
    /// Summed seconds of the fits.
    pub seconds: f64,
    /// Summed seconds of the tuning fits (every grid point on every tuning split).
    pub tuning: f64,
    /// Seconds of the largest (dataset, split) task: no thread count makes a run shorter.
    pub largest: f64,
    /// Each method entry's fits (config order), tuning fits aside.
    pub methods: Vec<MethodEstimate>,
}

impl Estimate {
    /// The estimated wall time on `threads` threads, in seconds.
    pub fn seconds(&self, threads: usize) -> f64 {
        ((self.seconds + self.tuning) / threads.max(1) as f64).max(self.largest)
    }
}

/// Seconds per fit and per unit of cost of `kind`.
fn rates(kind: &str) -> (f64, f64) {
    KINDS.iter().find(|k| k.0 == kind).map_or((0.0, SECONDS_PER_COST), |k| (k.1, k.2))
}

/// The cost of method `m` on one split of dataset `d`: its `Method::fit_cost` on the split's
/// shape, once per class when a binary kind fits more classes one-vs-rest.
pub fn fit_cost(exp: &Experiment, d: usize, m: usize) -> Result<f64> {
    let spec = &exp.datasets[d];
    let ((n, dim), l, k) = (spec.shape()?, spec.n_labeled()?, spec.n_classes()?);
    let entry = &exp.methods[m];
    let sub_problems = if k > 2 && !entry.multiclass { k } else { 1 };
    Ok(sub_problems as f64 * entry.method.fit_cost(l, n, dim))
}

/// The estimated seconds (one thread) of method `m` on one split of dataset `d`.
pub fn fit_seconds(exp: &Experiment, d: usize, m: usize) -> Result<f64> {
    let (per_fit, per_cost) = rates(&exp.methods[m].kind);
    Ok(per_fit + per_cost * fit_cost(exp, d, m)?)
}

/// The estimated seconds of one task of dataset `d`: its methods' fits on one split.
pub fn task_seconds(exp: &Experiment, d: usize) -> Result<f64> {
    (0..exp.methods.len()).map(|m| fit_seconds(exp, d, m)).sum()
}

/// The estimated seconds of method `m`'s tuning fits on dataset `d` (none untuned).
fn tuning_seconds(exp: &Experiment, d: usize, m: usize) -> Result<f64> {
    let entry = &exp.methods[m];
    let Some(t) = &entry.tuning else { return Ok(0.0) };
    let spec = &exp.datasets[d];
    let ((n, dim), l) = (spec.shape()?, spec.n_labeled()?);
    let (per_fit, per_cost) = rates(&entry.kind);
    let points: f64 =
        t.grid.iter().map(|p| per_fit + per_cost * p.method.fit_cost(l, n, dim)).sum();
    Ok(t.splits as f64 * points)
}

/// The estimate of a whole run of `exp`.
pub fn estimate(exp: &Experiment) -> Result<Estimate> {
    let per_dataset =
        (0..exp.datasets.len()).map(|d| task_seconds(exp, d)).collect::<Result<Vec<f64>>>()?;
    let mut methods = vec![MethodEstimate::default(); exp.methods.len()];
    let mut tuning = 0.0;
    for d in 0..exp.datasets.len() {
        for (m, e) in methods.iter_mut().enumerate() {
            e.fits += exp.splits;
            e.cost += exp.splits as f64 * fit_cost(exp, d, m)?;
            e.seconds += exp.splits as f64 * fit_seconds(exp, d, m)?;
            tuning += tuning_seconds(exp, d, m)?;
        }
    }
    Ok(Estimate {
        fits: exp.datasets.len() * exp.splits * exp.methods.len(),
        seconds: exp.splits as f64 * per_dataset.iter().sum::<f64>(),
        tuning,
        largest: per_dataset.iter().copied().fold(0.0, f64::max),
        methods,
    })
}
