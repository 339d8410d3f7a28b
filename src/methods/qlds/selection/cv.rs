//! Cross-validation and oracle errors over the grid through the eigenbasis of C_u
//! (one eigen-decomposition per split; every fold and grid point is an m×m solve).

use ndarray::{Array1, Array2};

use super::basis::{EigenBasis, Fold, rows};
use super::folds;
use super::grid::{ErrorGrid, Grid};
use crate::error::Result;

/// Adds to `mistakes[il * n_u + iu]` the misclassified test rows (labels `y_test`) of the
/// fold, for every grid point.
fn add_mistakes(basis: &EigenBasis, fold: &Fold, y_test: &[f64], values: &[f64], lambda: f64, mistakes: &mut [usize]) -> Result<()> {
    for (iu, &au) in values.iter().enumerate() {
        let dinv = basis.inverse_diagonal(lambda, au)?;
        let s = fold.scores(&dinv, values)?;
        for il in 0..values.len() {
            let wrong = (0..fold.test_rows()).filter(|&i| (s[(i, il)] >= 0.0) != (y_test[i] > 0.0)).count();
            mistakes[il * values.len() + iu] += wrong;
        }
    }
    Ok(())
}

/// Error fractions per grid point; index 0 is (0, 0), which has none.
fn to_grid(grid: &Grid, mistakes: &[usize], total: usize) -> ErrorGrid {
    let values = grid.values();
    let errors = mistakes.iter().enumerate().map(|(i, m)| (i != 0).then(|| *m as f64 / total as f64)).collect();
    ErrorGrid { alphas_l: values.clone(), alphas_u: values, errors }
}

/// Stratified K-fold cross-validation error (labeled points only; the unlabeled set is in
/// every fold's training through C_u) at every grid point.
pub fn cv_errors(basis: &EigenBasis, y_l: &Array1<f64>, grid: &Grid, lambda: f64, folds: usize) -> Result<ErrorGrid> {
    let y = y_l.to_vec();
    let (k, assign) = folds::stratified(&y, folds)?;
    let values = grid.values();
    let mut mistakes = vec![0; values.len() * values.len()];
    for f in 0..k {
        let (train, test) = folds::split(&assign, f);
        let pick = |idx: &[usize]| idx.iter().map(|&i| y[i]).collect::<Vec<_>>();
        let fold = Fold::new(rows(basis.labeled.as_ref(), &train), pick(&train), rows(basis.labeled.as_ref(), &test));
        add_mistakes(basis, &fold, &pick(&test), &values, lambda, &mut mistakes)?;
    }
    Ok(to_grid(grid, &mistakes, y.len()))
}

/// Error on the unlabeled truth at every grid point (the oracle; never a usable method).
/// `x_u` holds the centred unlabeled rows.
pub fn oracle_errors(basis: &EigenBasis, y_l: &Array1<f64>, x_u: &Array2<f64>, y_u: &Array1<f64>, grid: &Grid, lambda: f64) -> Result<ErrorGrid> {
    let values = grid.values();
    let mut mistakes = vec![0; values.len() * values.len()];
    let yu = y_u.to_vec();
    let fold = Fold::new(basis.labeled.clone(), y_l.to_vec(), basis.project(x_u));
    add_mistakes(basis, &fold, &yu, &values, lambda, &mut mistakes)?;
    Ok(to_grid(grid, &mistakes, yu.len()))
}
