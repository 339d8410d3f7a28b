//! The `th` policy: the theoretical error (isotropic Theorem 1 on the estimated setting)
//! at every grid point, evaluated at λ_th = (1+ε)·edge of the policy's matrix.

use super::grid::{ErrorGrid, Grid};
use crate::error::Result;
use crate::methods::qlds::{LambdaPolicy, Prepared};
use crate::methods::qlds::theory::{Scale, estimate_setting, predict, theory_lambda};

/// Theoretical errors over the grid (None where the theory is invalid).
pub fn theory_errors(prep: &Prepared, grid: &Grid, policy: LambdaPolicy, scale: Scale) -> Result<ErrorGrid> {
    let est = estimate_setting(prep, scale)?;
    let lambda = theory_lambda(&est.setting, policy, est.variance)?;
    ErrorGrid::build(grid, |al, au| Ok(predict(&est.setting, al, au, lambda).ok().map(|p| p.error)))
}
