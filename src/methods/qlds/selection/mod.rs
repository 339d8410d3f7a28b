//! Choosing (α_l, α_u) of QLDS over a grid (spec §4): by the theory (`th`), by stratified
//! K-fold cross-validation on the labeled set (`cv`), or by the unlabeled truth (`or`,
//! a lower bound, not a usable method). The chosen point is then fitted once.

mod basis;
mod cv;
mod folds;
mod grid;
mod lambda;
mod multiclass;
pub mod naive;
mod studies;
mod theory;

pub use basis::EigenBasis;
pub use cv::{cv_errors, multiclass_cv_errors, multiclass_oracle_errors, oracle_errors};
pub use grid::{ErrorGrid, Grid, admits};
pub use lambda::{SelectLambda, SelectedLambda};
pub use multiclass::{multiclass_theory_errors, select_multiclass};
pub use studies::{
    PhasePoint, ProportionPoint, SpotCheck, gain_table, phase_diagram, proportion_study,
    spot_check, theory_grid,
};
pub use theory::{general_theory_errors, theory_errors};

use std::sync::Arc;

use ndarray::Array1;

use super::theory::Scale;
use crate::data::Problem;
use crate::error::{Error, Result};
use crate::methods::qlds::{FittedQlds, LambdaPolicy, Moments, QldsParams};

/// How the grid point is chosen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Policy {
    /// Minimum theoretical error; `scale` is the rescaling applied before the theory.
    Theory { scale: Scale },
    /// Minimum theoretical error of the common-covariance theorem (config `theory =
    /// "general"`; docs/theory-real-data.md).
    GeneralTheory,
    /// Stratified K-fold cross-validation (K = `folds`, fewer when a class is smaller).
    CrossValidation { folds: usize },
    /// Minimum error on the unlabeled truth.
    Oracle,
}

impl Policy {
    /// Default number of cross-validation folds.
    pub const FOLDS: usize = 10;

    /// The config spelling (`th`, `cv`, `or`).
    pub fn name(&self) -> &'static str {
        match self {
            Policy::Theory { .. } | Policy::GeneralTheory => "th",
            Policy::CrossValidation { .. } => "cv",
            Policy::Oracle => "or",
        }
    }
}

/// QLDS with (α_l, α_u) selected over a grid.
#[derive(Debug, Clone, PartialEq)]
pub struct SelectQlds {
    pub policy: Policy,
    pub grid: Grid,
    pub lambda: LambdaPolicy,
}

/// The selected point, the λ used and the scores of the unlabeled rows.
#[derive(Debug, Clone)]
pub struct Selected {
    pub alpha_l: f64,
    pub alpha_u: f64,
    pub lambda: f64,
    pub scores: Array1<f64>,
    /// The classifier at the chosen point.
    pub model: FittedQlds,
}

impl SelectQlds {
    /// Checks the folds (≥ 2) and the λ policy; the grid is checked when built
    /// ([`Grid::uniform`], [`Grid::new`]).
    pub fn new(policy: Policy, grid: Grid, lambda: LambdaPolicy) -> Result<Self> {
        if let Policy::CrossValidation { folds } = policy
            && folds < 2
        {
            return Err(Error::param("folds", format!("must be ≥ 2, got {folds}")));
        }
        QldsParams { alpha_l: 1.0, alpha_u: 1.0, lambda }.check()?;
        Ok(SelectQlds { policy, grid, lambda })
    }

    /// The errors the policy assigns to the grid points on this problem; `basis` gives the
    /// eigenbasis of C_u (cv and or only).
    pub fn errors(
        &self,
        prep: &Moments,
        y_u: &Array1<f64>,
        lambda: f64,
        basis: impl FnOnce() -> Result<Arc<EigenBasis>>,
    ) -> Result<ErrorGrid> {
        match self.policy {
            Policy::Theory { scale } => theory_errors(prep, &self.grid, self.lambda, scale),
            Policy::GeneralTheory => general_theory_errors(prep, &self.grid, self.lambda),
            Policy::CrossValidation { folds } => {
                cv_errors(&*basis()?, &prep.y_l, &self.grid, lambda, folds)
            }
            Policy::Oracle => {
                oracle_errors(&*basis()?, &prep.y_l, &prep.x_u, y_u, &self.grid, lambda)
            }
        }
    }

    /// Selects on the problem, then fits the chosen point once with the empirical λ (the
    /// theory reads no centred unlabeled rows, so its moments keep none).
    pub fn run(&self, problem: &Problem) -> Result<Selected> {
        let prep = match self.policy {
            Policy::Theory { .. } | Policy::GeneralTheory => Moments::for_fit(problem)?,
            Policy::CrossValidation { .. } | Policy::Oracle => Moments::new(problem)?,
        };
        self.run_prepared(&prep, problem, || EigenBasis::new(&prep).map(Arc::new))
    }

    /// [`run`](Self::run) from the problem's moments and (on demand) eigenbasis.
    pub fn run_prepared(
        &self,
        prep: &Moments,
        problem: &Problem,
        basis: impl FnOnce() -> Result<Arc<EigenBasis>>,
    ) -> Result<Selected> {
        let lambda = prep.lambda(self.lambda)?;
        let (alpha_l, alpha_u, _) = self
            .errors(prep, &problem.y_u, lambda, basis)?
            .best()
            .ok_or_else(|| Error::Data(format!("{}: no grid point is valid (λ inside the predicted spectrum, or λ ≤ α_u·λ_max(C_u) at every point)", self.policy.name())))?;
        let fitted = QldsParams { alpha_l, alpha_u, lambda: LambdaPolicy::Fixed(lambda) }
            .check()?
            .fit_prepared(prep)?;
        Ok(Selected {
            alpha_l,
            alpha_u,
            lambda,
            scores: fitted.scores(problem.x_u.to_dense().view()),
            model: fitted,
        })
    }
}

#[cfg(test)]
mod tests;
