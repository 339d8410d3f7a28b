//! Estimated wall time of a run before running it: per fit, a time of its method kind plus
//! rates of its kind times the fit's [`Cost`] terms (the method's `Method::fit_cost`, once
//! per class for a binary kind fitted one-vs-rest, and terms from the split's points,
//! classes and features), the rates fitted once to the committed runs ([`KINDS`],
//! docs/estimates.md); summed over the fits and tuning fits.

use crate::config::Experiment;
use crate::error::Result;

/// Seconds of one thread per unit of `Method::fit_cost` for a kind outside [`KINDS`]: the
/// median over six committed runs of Σ fit_seconds / Σ cost (docs/workflow.md).
pub const SECONDS_PER_COST: f64 = 5.85e-11;

/// Per method kind: seconds per fit, then per unit of each [`Cost`] term (`rows`, `flops`,
/// `classes`, `pairs`); fitted by `benches/calibrate_estimates.py` to the fit_seconds of the
/// committed results (docs/estimates.md says which and how).
pub const KINDS: &[(&str, [f64; 5])] = &[
    ("cheeger_rls", [1.034e-05, 8.810e-04, 3.102e-16, 4.457e-12, 5.509e-10]),
    ("cheeger_svm", [1.685e+00, 0.000e+00, 0.000e+00, 7.331e-12, 4.810e-10]),
    ("command", [3.531e+00, 1.144e-11, 6.968e-07, 0.000e+00, 4.022e-14]),
    ("da", [0.000e+00, 5.075e-03, 2.639e-13, 0.000e+00, 5.521e-11]),
    ("gb_ssl", [0.000e+00, 0.000e+00, 1.143e-11, 0.000e+00, 1.788e-14]),
    ("gradient", [7.970e-05, 8.710e-05, 2.815e-13, 0.000e+00, 0.000e+00]),
    ("graph_cheeger_rls", [1.827e-03, 6.876e-05, 2.042e-07, 0.000e+00, 4.861e-09]),
    ("graph_lap_rls", [0.000e+00, 6.866e-06, 0.000e+00, 0.000e+00, 0.000e+00]),
    ("graph_tv_rls", [0.000e+00, 1.954e-03, 0.000e+00, 1.194e-09, 0.000e+00]),
    ("label_propagation", [0.000e+00, 1.210e-04, 0.000e+00, 8.137e-12, 0.000e+00]),
    ("label_spreading", [0.000e+00, 5.267e-06, 0.000e+00, 0.000e+00, 0.000e+00]),
    ("lap_rls", [6.176e-02, 0.000e+00, 2.106e-12, 6.920e-12, 0.000e+00]),
    ("lap_svm", [3.536e-04, 0.000e+00, 0.000e+00, 3.326e-12, 0.000e+00]),
    ("laplace", [0.000e+00, 2.800e-05, 0.000e+00, 0.000e+00, 0.000e+00]),
    ("linear_rls", [0.000e+00, 3.893e-06, 0.000e+00, 1.665e-10, 1.438e-14]),
    ("linear_svm", [8.472e-03, 4.995e-06, 0.000e+00, 9.881e-11, 6.677e-15]),
    ("ls_svm", [1.178e-03, 0.000e+00, 3.050e-11, 9.510e-12, 3.601e-13]),
    ("poisson", [2.827e-02, 7.172e-06, 0.000e+00, 0.000e+00, 0.000e+00]),
    ("qlds", [0.000e+00, 0.000e+00, 4.631e-11, 5.973e-11, 2.974e-13]),
    ("self_training", [0.000e+00, 0.000e+00, 1.289e-11, 4.075e-12, 1.369e-12]),
    ("spectral", [0.000e+00, 4.442e-07, 6.427e-11, 0.000e+00, 8.446e-14]),
    ("tsvm", [0.000e+00, 4.978e-03, 0.000e+00, 1.546e-09, 0.000e+00]),
    ("tv_rls", [1.308e+00, 1.068e-05, 0.000e+00, 9.270e-12, 0.000e+00]),
    ("tv_svm", [1.036e+00, 2.022e-09, 1.175e-11, 6.224e-12, 6.842e-17]),
];

/// The cost terms of one fit, from the split's shape and the method's parameters.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Cost {
    /// The split's points: per-point work outside the solver (drawing the split, scoring
    /// every point, the methods' per-point set-up).
    pub rows: f64,
    /// `Method::fit_cost` (flops up to a constant), once per class for a binary kind fitted
    /// one-vs-rest.
    pub flops: f64,
    /// `flops` × (classes − 2) on a split of more than two classes: a native multi-class fit
    /// whose `fit_cost` counts one binary problem, one-vs-rest problems whose imbalance
    /// grows with the classes (TSVM's switching rounds).
    pub classes: f64,
    /// n² · dim: one pass over the pairs of points (a kernel or a brute-force kNN graph).
    pub pairs: f64,
}

impl Cost {
    /// The terms of `flops` on a split of `n` points, `dim` features and `k` classes.
    fn of(flops: f64, n: usize, dim: usize, k: usize) -> Cost {
        let (n, dim) = (n as f64, dim as f64);
        Cost { rows: n, flops, classes: flops * k.saturating_sub(2) as f64, pairs: n * n * dim }
    }

    /// `self` × `times`.
    fn scaled(self, times: f64) -> Cost {
        Cost {
            rows: self.rows * times,
            flops: self.flops * times,
            classes: self.classes * times,
            pairs: self.pairs * times,
        }
    }

    fn add(&mut self, other: Cost) {
        self.rows += other.rows;
        self.flops += other.flops;
        self.classes += other.classes;
        self.pairs += other.pairs;
    }

    /// Estimated seconds of fits of these summed terms, `fits` of them, at `rates`.
    fn seconds(&self, fits: f64, rates: [f64; 5]) -> f64 {
        let [per_fit, rows, flops, classes, pairs] = rates;
        per_fit * fits
            + rows * self.rows
            + flops * self.flops
            + classes * self.classes
            + pairs * self.pairs
    }
}

/// One method entry's part of a run: its fits, their summed cost terms and estimated seconds.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MethodEstimate {
    pub fits: usize,
    pub cost: Cost,
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

/// Seconds per fit and per unit of each cost term of `kind` (a kind not listed: the flops
/// at [`SECONDS_PER_COST`] only).
fn rates(kind: &str) -> [f64; 5] {
    KINDS.iter().find(|k| k.0 == kind).map_or([0.0, 0.0, SECONDS_PER_COST, 0.0, 0.0], |k| k.1)
}

/// The cost terms of method `m` on one split of dataset `d`: its `Method::fit_cost` on the
/// split's shape, once per class when a binary kind fits more classes one-vs-rest.
pub fn fit_cost(exp: &Experiment, d: usize, m: usize) -> Result<Cost> {
    let spec = &exp.datasets[d];
    let ((n, dim), l, k) = (spec.shape()?, spec.n_labeled()?, spec.n_classes()?);
    let entry = &exp.methods[m];
    let sub_problems = if k > 2 && !entry.multiclass { k } else { 1 };
    Ok(Cost::of(sub_problems as f64 * entry.method.fit_cost(l, n, dim), n, dim, k))
}

/// The estimated seconds (one thread) of method `m` on one split of dataset `d`.
pub fn fit_seconds(exp: &Experiment, d: usize, m: usize) -> Result<f64> {
    Ok(fit_cost(exp, d, m)?.seconds(1.0, rates(&exp.methods[m].kind)))
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
    let ((n, dim), l, k) = (spec.shape()?, spec.n_labeled()?, spec.n_classes()?);
    let rates = rates(&entry.kind);
    let points: f64 = t
        .grid
        .iter()
        .map(|p| Cost::of(p.method.fit_cost(l, n, dim), n, dim, k).seconds(1.0, rates))
        .sum();
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
            e.cost.add(fit_cost(exp, d, m)?.scaled(exp.splits as f64));
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
