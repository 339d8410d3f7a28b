//! The oracle protocol of the paper's Table 4: every point of a grid over (α_l, α_u, λ) is
//! trained by Adam and the one of lowest error on the unlabeled truth is kept.

use ndarray::{Array1, ArrayView1, s};

use super::adam::{Adam, Run, Workspace};
use super::objective::{Inputs, Objective, bounded};
use super::{Labeled, Unlabeled};
use crate::data::error_rate;
use crate::error::{Error, Result};

/// A grid over α_l, α_u and λ, λ given as multiples of λ_max(C_u) so that the points where
/// the quadratic margin is unbounded below (α_u ≥ λ/λ_max(C_u)) are the same on every split.
#[derive(Debug, Clone, PartialEq)]
pub struct OracleGrid {
    pub alpha_l: Vec<f64>,
    pub alpha_u: Vec<f64>,
    /// λ / λ_max(C_u).
    pub lambda_scale: Vec<f64>,
}

/// The grid point of lowest unlabeled error and its scores.
#[derive(Debug, Clone)]
pub struct Best {
    pub alpha_l: f64,
    pub alpha_u: f64,
    pub lambda: f64,
    pub error: f64,
    /// f(x) = ωᵀx/√n of the unlabeled rows.
    pub scores: Array1<f64>,
    /// ω (on centred features).
    pub omega: Array1<f64>,
}

impl OracleGrid {
    /// Number of grid points.
    pub fn points(&self) -> usize {
        self.alpha_l.len() * self.alpha_u.len() * self.lambda_scale.len()
    }

    /// Number of points where the objective is unbounded below (invalid, never trained).
    pub fn invalid(&self, unlabeled: Unlabeled) -> usize {
        let per_l = self
            .alpha_u
            .iter()
            .map(|&au| {
                self.lambda_scale.iter().filter(|&&k| !bounded(unlabeled, au, k, 1.0)).count()
            })
            .sum::<usize>();
        per_l * self.alpha_l.len()
    }

    /// Trains every valid point and returns the best on `y_u`. For each α_u the (α_l, λ)
    /// pairs run by increasing α_l/λ (growing margins), each run warm-started from the
    /// previous solution (ω = 0 first: warm starts across α_u led the non-convex smooth
    /// absolute margin into worse minima). Ties go to the first point in that order. The α_u
    /// chains run in lockstep ([`Training::run_all`]), each exactly as it would alone.
    pub fn oracle(
        &self,
        data: Inputs,
        top_u: f64,
        loss: (Labeled, Unlabeled),
        train: &Training,
        y_u: ArrayView1<f64>,
    ) -> Result<Best> {
        let mut chain: Vec<(f64, f64)> = self
            .alpha_l
            .iter()
            .flat_map(|&l| self.lambda_scale.iter().map(move |&k| (l, k)))
            .collect();
        chain.sort_by(|a, b| (a.0 / a.1).total_cmp(&(b.0 / b.1)).then(a.0.total_cmp(&b.0)));
        let d = data.x_l.ncols();
        let mut omegas = vec![Array1::zeros(d); self.alpha_u.len()];
        let mut works = vec![Workspace::new(d); self.alpha_u.len()];
        // trained[u][j]: ω after the j-th chain point at the u-th α_u (None: invalid).
        let mut trained = vec![Vec::with_capacity(chain.len()); self.alpha_u.len()];
        for &(alpha_l, k) in &chain {
            let lambda = k * top_u;
            let mut runs = Vec::new();
            for ((&alpha_u, omega), work) in self.alpha_u.iter().zip(&mut omegas).zip(&mut works) {
                if bounded(loss.1, alpha_u, lambda, top_u) {
                    let f = Objective {
                        data,
                        labeled: loss.0,
                        unlabeled: loss.1,
                        alpha_l,
                        alpha_u,
                        lambda,
                    };
                    runs.push((f, omega, work));
                }
            }
            train.run_all(&mut runs);
            for (u, omega) in omegas.iter().enumerate() {
                let valid = bounded(loss.1, self.alpha_u[u], lambda, top_u);
                trained[u].push(valid.then(|| (alpha_l, lambda, omega.clone())));
            }
        }
        let mut best: Option<Best> = None;
        for (&alpha_u, points) in self.alpha_u.iter().zip(trained) {
            for (alpha_l, lambda, omega) in points.into_iter().flatten() {
                let scores = data.x_u.dot(&omega) * data.scale;
                if !scores.iter().all(|s| s.is_finite()) {
                    return Err(Error::Data(format!(
                        "Adam diverged at α_l = {alpha_l}, α_u = {alpha_u}, λ = {lambda}"
                    )));
                }
                let error = error_rate(scores.view(), y_u);
                if best.as_ref().is_none_or(|b| error < b.error) {
                    best = Some(Best { alpha_l, alpha_u, lambda, error, scores, omega });
                }
            }
        }
        best.ok_or_else(|| {
            Error::Data(
                "every grid point is invalid (the quadratic margin outweighs λ everywhere)".into(),
            )
        })
    }
}

/// How each grid point is trained: Adam, with the smooth absolute margin on mini-batches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Training {
    pub adam: Adam,
    /// Unlabeled rows per step of the smooth absolute margin (≥ n_u: full batch).
    pub batch: usize,
}

impl Training {
    /// Default mini-batch of the smooth absolute margin (that of Table 4).
    pub const BATCH: usize = 64;

    /// One Adam run of each `f` from its ω, in lockstep: iteration t of every run that has
    /// not stopped reads the same rows ([`Objective::grads_on`]). Each run is exactly what it
    /// would be alone. The labeled loss and the quadratic margin (through C_u) are
    /// full-batch; the smooth absolute margin takes consecutive blocks of `batch` unlabeled
    /// rows in turn (the split's rows are in random order), scaled by n_u/|block|. All `f`
    /// share their data and unlabeled term. The quadratic margins' products C_uω of one
    /// step read C_u once for all runs ([`add_sym_products`](crate::linalg::add_sym_products)).
    pub fn run_all(&self, runs: &mut [(Objective, &mut Array1<f64>, &mut Workspace)]) -> Vec<Run> {
        let Some(first) = runs.first() else { return Vec::new() };
        let n_u = first.0.data.x_u.nrows();
        if first.0.unlabeled == Unlabeled::SmoothAbsMargin && self.batch >= n_u {
            // Full-batch row passes: run one after another, as before the lockstep.
            return runs.iter_mut().flat_map(|r| self.lockstep(std::slice::from_mut(r))).collect();
        }
        self.lockstep(runs)
    }

    /// [`Training::run_all`] with every run in lockstep.
    fn lockstep(&self, runs: &mut [(Objective, &mut Array1<f64>, &mut Workspace)]) -> Vec<Run> {
        let mut ended: Vec<Option<Run>> = vec![None; runs.len()];
        let Some(first) = runs.first() else { return Vec::new() };
        let x_u = first.0.data.x_u;
        let n_u = x_u.nrows();
        let full = first.0.unlabeled == Unlabeled::QuadraticMargin || self.batch >= n_u;
        let adam = &self.adam;
        runs.iter_mut().for_each(|(_, _, work)| adam.reset(work));
        let mut start = 0;
        for t in 1..=adam.max_iterations {
            let end = if full { n_u } else { (start + self.batch).min(n_u) };
            let (rows, weight) = match full {
                true => (x_u, 1.0),
                false => (x_u.slice(s![start..end, ..]), n_u as f64 / (end - start) as f64),
            };
            let (mut fs, mut ws, mut gs) = (Vec::new(), Vec::new(), Vec::new());
            for ((f, omega, work), _) in runs.iter_mut().zip(&ended).filter(|r| r.1.is_none()) {
                fs.push(&*f);
                ws.push(omega.as_slice().expect("an Array1 is contiguous"));
                gs.push(work.grad.as_slice_mut().expect("an Array1 is contiguous"));
            }
            Objective::grads_on(&fs, &ws, &mut gs, rows, weight);
            for ((_, omega, work), done) in runs.iter_mut().zip(&mut ended) {
                if done.is_none() {
                    *done = adam.update(t, omega, work);
                }
            }
            if ended.iter().all(Option::is_some) {
                break;
            }
            start = if end == n_u { 0 } else { end };
        }
        let cap = Run { iterations: adam.max_iterations, converged: false };
        ended.into_iter().map(|r| r.unwrap_or(cap)).collect()
    }
}
