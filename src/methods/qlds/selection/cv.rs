//! Cross-validation and oracle errors over the grid through the eigenbasis of C_u
//! (one eigen-decomposition per split; every fold and grid point is an m×m solve).

use ndarray::{Array1, Array2};

use super::basis::{EigenBasis, Fold, rows};
use super::folds;
use super::grid::{ErrorGrid, Grid, admits};
use crate::error::Result;

/// Adds to `mistakes[il * n_u + iu]` the misclassified test rows (labels `y_test`) of the
/// fold, for every grid point; points the grid skips ([`admits`]) become None.
fn add_mistakes(
    basis: &EigenBasis,
    fold: &Fold,
    y_test: &[f64],
    grid: &Grid,
    lambda: f64,
    mistakes: &mut [Option<usize>],
) -> Result<()> {
    let nu = grid.alphas_u.len();
    for (iu, &au) in grid.alphas_u.iter().enumerate() {
        if !admits(lambda, au, basis.top()) {
            (0..grid.alphas_l.len()).for_each(|il| mistakes[il * nu + iu] = None);
            continue;
        }
        let dinv = basis.inverse_diagonal(lambda, au)?;
        let s = fold.scores(&dinv, &grid.alphas_l)?;
        crate::linalg::clear_upper_simd();
        for il in 0..grid.alphas_l.len() {
            let wrong =
                (0..fold.test_rows()).filter(|&i| (s[(i, il)] >= 0.0) != (y_test[i] > 0.0)).count();
            if let Some(m) = &mut mistakes[il * nu + iu] {
                *m += wrong;
            }
        }
    }
    Ok(())
}

/// Error fractions per grid point; (0, 0) has none.
fn to_grid(grid: &Grid, mistakes: &[Option<usize>], total: usize) -> ErrorGrid {
    let nu = grid.alphas_u.len();
    let origin = |i: usize| grid.alphas_l[i / nu] == 0.0 && grid.alphas_u[i % nu] == 0.0;
    let errors = mistakes
        .iter()
        .enumerate()
        .map(|(i, m)| m.filter(|_| !origin(i)).map(|m| m as f64 / total as f64))
        .collect();
    ErrorGrid { alphas_l: grid.alphas_l.clone(), alphas_u: grid.alphas_u.clone(), errors }
}

/// Stratified K-fold cross-validation error (labeled points only; the unlabeled set is in
/// every fold's training through C_u) at every grid point.
pub fn cv_errors(
    basis: &EigenBasis,
    y_l: &Array1<f64>,
    grid: &Grid,
    lambda: f64,
    folds: usize,
) -> Result<ErrorGrid> {
    let y = y_l.to_vec();
    let (k, assign) = folds::stratified(&y, folds)?;
    let mut mistakes = vec![Some(0); grid.len()];
    for f in 0..k {
        let (train, test) = folds::split(&assign, f);
        let pick = |idx: &[usize]| idx.iter().map(|&i| y[i]).collect::<Vec<_>>();
        let fold = Fold::new(
            rows(basis.labeled.as_ref(), &train),
            pick(&train),
            rows(basis.labeled.as_ref(), &test),
        );
        add_mistakes(basis, &fold, &pick(&test), grid, lambda, &mut mistakes)?;
    }
    Ok(to_grid(grid, &mistakes, y.len()))
}

/// Error on the unlabeled truth at every grid point (the oracle; never a usable method).
/// `x_u` holds the centred unlabeled rows.
pub fn oracle_errors(
    basis: &EigenBasis,
    y_l: &Array1<f64>,
    x_u: &Array2<f64>,
    y_u: &Array1<f64>,
    grid: &Grid,
    lambda: f64,
) -> Result<ErrorGrid> {
    let mut mistakes = vec![Some(0); grid.len()];
    let yu = y_u.to_vec();
    let fold = Fold::new(basis.labeled.clone(), y_l.to_vec(), basis.project(x_u));
    add_mistakes(basis, &fold, &yu, grid, lambda, &mut mistakes)?;
    Ok(to_grid(grid, &mistakes, yu.len()))
}
