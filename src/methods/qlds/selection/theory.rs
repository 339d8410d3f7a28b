//! The `th` policy: the theoretical error (isotropic Theorem 1 on the estimated setting)
//! at every grid point, evaluated at λ_th = (1+ε)·edge of the policy's matrix.

use super::grid::{ErrorGrid, Grid, admits};
use crate::error::Result;
use crate::methods::qlds::theory::{
    Estimator, Scale, common_lambda, common_setting, estimate_setting, predict, predict_common,
    theory_lambda,
};
use crate::methods::qlds::{LambdaPolicy, Moments};

/// Theoretical errors over the grid (None where the theory is invalid, or where the
/// empirical system the point would be fitted with is skipped by [`admits`]; the latter
/// only matters with α_u > 1 or a fixed λ, and is checked only then).
pub fn theory_errors(
    prep: &Moments,
    grid: &Grid,
    policy: LambdaPolicy,
    scale: Scale,
) -> Result<ErrorGrid> {
    let est = estimate_setting(prep, scale)?;
    let lambda = theory_lambda(&est.setting, policy, est.variance)?;
    admitted_errors(prep, grid, policy, |al, au| {
        predict(&est.setting, al, au, lambda).ok().map(|p| p.error)
    })
}

/// Theoretical errors over the grid with the common-covariance theorem on a usable estimate
/// (C from all rows minus the labeled between-class part), as [`theory_errors`] otherwise.
pub fn general_theory_errors(
    prep: &Moments,
    grid: &Grid,
    policy: LambdaPolicy,
) -> Result<ErrorGrid> {
    let setting = common_setting(prep, None, Estimator::AllMinusBetween)?;
    let lambda = common_lambda(&setting, policy)?;
    admitted_errors(prep, grid, policy, |al, au| {
        predict_common(&setting, al, au, lambda).ok().map(|p| p.error)
    })
}

/// `error(α_l, α_u)` over the grid, None at points whose empirical system [`admits`] skips
/// (checked only where it can skip: α_u > 1 or a fixed λ).
pub(super) fn admitted_errors(
    prep: &Moments,
    grid: &Grid,
    policy: LambdaPolicy,
    error: impl Fn(f64, f64) -> Option<f64>,
) -> Result<ErrorGrid> {
    let check = grid.alphas_u.iter().any(|&a| a > 1.0) || matches!(policy, LambdaPolicy::Fixed(_));
    let (empirical, top_u) = if check {
        (prep.lambda(policy)?, prep.top_eig_unlabeled()?)
    } else {
        (f64::INFINITY, 0.0)
    };
    ErrorGrid::build(grid, |al, au| {
        Ok(admits(empirical, au, top_u).then(|| error(al, au)).flatten())
    })
}
