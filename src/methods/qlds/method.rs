//! The QLDS family's methods on a split. Every method of a split shares its moments
//! (centring, C_l, C_u, top eigenvalues) and the eigen-decomposition of C_u through the
//! split's store, so a table of nine QLDS-family methods computes them once.

use std::sync::Arc;

use super::selection::{EigenBasis, Policy, SelectLambda, SelectQlds};
use super::theory::score_gaussians;
use super::{FittedQlds, LambdaPolicy, Moments, Qlds, Spectral};
use crate::engine::{Fitted, Method, Split};
use crate::error::{Error, Result};
use crate::linalg::{SymEigen, sym_eigen};

/// The split's centred data and second moments, shared by the methods of the split.
pub fn moments(split: &Split) -> Result<Arc<Moments>> {
    split.split_store.get("qlds moments", || Moments::new(split.problem))
}

/// The eigen-decomposition of the split's C_u.
fn eigen_u(split: &Split, prep: &Moments) -> Result<Arc<SymEigen>> {
    split
        .split_store
        .get("qlds eigen C_u", || sym_eigen(prep.c_u.as_ref(), "eigen-decomposition of C_u"))
}

/// The eigenbasis of the split's C_u with its labeled rows projected.
pub(super) fn basis(split: &Split, prep: &Moments) -> Result<Arc<EigenBasis>> {
    split.split_store.get("qlds eigenbasis", || {
        Ok(EigenBasis::from_eigen(prep, (*eigen_u(split, prep)?).clone()))
    })
}

/// The cost of the moments and a d×d factorisation: n·d² + d³.
pub fn dense_cost(n: usize, dim: usize) -> f64 {
    let (n, d) = (n as f64, dim as f64);
    n * d * d + d * d * d
}

/// The cost of a selection over `points` grid points by `folds`-fold cross-validation
/// (`folds` = 1: the oracle, scoring every unlabeled row): [`dense_cost`], then per fold and
/// grid point a solve of size s = min(training labeled rows, d), 30·s² + s³/20 (its
/// s² work dominates at these sizes; fitted to qlds_table1's QLDS(cv) times), and the
/// scores of the held-out rows.
fn selection_cost(labeled: usize, n: usize, dim: usize, folds: usize, points: usize) -> f64 {
    let (l, d, f) = (labeled as f64, dim as f64, folds.max(1) as f64);
    let (train, test) = match folds {
        0 | 1 => (l, n.saturating_sub(labeled) as f64),
        _ => (l * (f - 1.0) / f, l / f),
    };
    let s = train.min(d);
    dense_cost(n, dim) + f * points as f64 * (30.0 * s * s + s * s * s / 20.0 + test * d)
}

/// The split's moments: three dense n×d copies and six d×d matrices, in bytes.
pub fn dense_memory(n: usize, dim: usize) -> f64 {
    let (n, d) = (n as f64, dim as f64);
    8.0 * (3.0 * n * d + 6.0 * d * d)
}

/// The split scored by the fitted model, with (α_l, α_u), the λ policy's name and the λ used.
fn fitted(
    split: &Split,
    model: &FittedQlds,
    alpha: (f64, f64),
    policy: &str,
    lambda: f64,
) -> Result<Fitted> {
    Ok(Fitted::from_model(model.model(), split)?
        .with("alpha_l", alpha.0)
        .with("alpha_u", alpha.1)
        .labelled("lambda_policy", policy)
        .with("lambda", lambda))
}

/// The theoretical score distributions at the fitted (α_l, α_u).
fn theory(split: &Split, fit: &Fitted, policy: LambdaPolicy) -> Result<Option<[(f64, f64); 2]>> {
    let number = |name: &str| {
        fit.number(name)
            .ok_or_else(|| Error::Data(format!("the fit reports no `{name}` for the theory")))
    };
    let (al, au, lambda) = (number("alpha_l")?, number("alpha_u")?, number("lambda")?);
    score_gaussians(split.source, split.problem, &*moments(split)?, policy, al, au, lambda)
        .map(Some)
}

impl Method for Qlds {
    fn cost(&self, n: usize, dim: usize) -> f64 {
        dense_cost(n, dim)
    }

    fn memory(&self, n: usize, dim: usize) -> f64 {
        dense_memory(n, dim)
    }

    fn fit(&self, split: &Split) -> Result<Fitted> {
        let f = self.fit_prepared(&*moments(split)?)?;
        let p = self.params();
        fitted(split, &f, (p.alpha_l, p.alpha_u), p.lambda.name(), f.lambda)
    }

    fn theory(&self, split: &Split, fit: &Fitted) -> Result<Option<[(f64, f64); 2]>> {
        theory(split, fit, self.params().lambda)
    }
}

impl Method for Spectral {
    fn cost(&self, n: usize, dim: usize) -> f64 {
        dense_cost(n, dim)
    }

    fn memory(&self, n: usize, dim: usize) -> f64 {
        dense_memory(n, dim)
    }

    fn params(&self) -> String {
        self.describe()
    }

    fn fit(&self, split: &Split) -> Result<Fitted> {
        let prep = moments(split)?;
        let f = if *self == Spectral::default() {
            self.fit_eigen(&prep, &*eigen_u(split, &prep)?)
        } else {
            self.fit_prepared(&prep)?
        };
        let policy = if self.unlabeled_only { "top_eig_unlabeled" } else { "top_eig_all" };
        Ok(Fitted::from_model(f.model(), split)?
            .labelled("lambda_policy", policy)
            .with("lambda", f.top_eigenvalue))
    }
}

impl Method for SelectQlds {
    fn cost(&self, n: usize, dim: usize) -> f64 {
        dense_cost(n, dim)
    }

    fn fit_cost(&self, labeled: usize, n: usize, dim: usize) -> f64 {
        match self.policy {
            Policy::CrossValidation { folds } => {
                selection_cost(labeled, n, dim, folds, self.grid.len())
            }
            Policy::Oracle => selection_cost(labeled, n, dim, 1, self.grid.len()),
            // A spectrum-edge search per grid point, linear in d: 10⁵·d (fitted to the
            // per-dataset times of qlds_table2_theory, d = 60 … 400).
            Policy::GeneralTheory => dense_cost(n, dim) + self.grid.len() as f64 * 1e5 * dim as f64,
            Policy::Theory { .. } => dense_cost(n, dim),
        }
    }

    fn memory(&self, n: usize, dim: usize) -> f64 {
        dense_memory(n, dim)
    }

    fn params(&self) -> String {
        match self.policy {
            Policy::CrossValidation { folds } => {
                format!("select=cv folds={folds} {}", self.grid.describe())
            }
            Policy::GeneralTheory => format!("select=th theory=general {}", self.grid.describe()),
            p => format!("select={} {}", p.name(), self.grid.describe()),
        }
    }

    fn fit(&self, split: &Split) -> Result<Fitted> {
        let prep = moments(split)?;
        let s = self.run_prepared(&prep, split.problem, || basis(split, &prep))?;
        fitted(split, &s.model, (s.alpha_l, s.alpha_u), self.lambda.name(), s.lambda)
    }

    fn theory(&self, split: &Split, fit: &Fitted) -> Result<Option<[(f64, f64); 2]>> {
        theory(split, fit, self.lambda)
    }

    fn fit_multiclass(&self, split: &Split) -> Option<Result<Fitted>> {
        self.fit_one_vs_rest(split)
    }
}

impl Method for SelectLambda {
    fn cost(&self, n: usize, dim: usize) -> f64 {
        dense_cost(n, dim)
    }

    fn fit_cost(&self, labeled: usize, n: usize, dim: usize) -> f64 {
        // The λ grid: 21 powers of ten around the top eigenvalue and the policy's λ.
        selection_cost(labeled, n, dim, self.folds, 22)
    }

    fn memory(&self, n: usize, dim: usize) -> f64 {
        dense_memory(n, dim)
    }

    fn fit(&self, split: &Split) -> Result<Fitted> {
        let prep = moments(split)?;
        let s = self.run_prepared(&prep, &*basis(split, &prep)?)?;
        fitted(split, &s.model, (self.alpha_l, self.alpha_u), "cv", s.lambda)
    }
}
