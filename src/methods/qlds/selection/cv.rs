//! Cross-validation and oracle errors over the grid through the eigenbasis of C_u
//! (one eigen-decomposition per split; every fold and grid point is an m×m solve).

use faer::Mat;
use ndarray::{Array1, Array2};

use super::basis::{EigenBasis, Fold, rows};
use super::folds;
use super::grid::{ErrorGrid, Grid, admits};
use crate::error::Result;

/// Adds to `mistakes[il * n_u + iu]` the misclassified test rows of the folds (one fold of
/// the same rows per score column: one binary fold, or one per class), `wrong` counting
/// them from the folds' scores at α_l index `il`, for every grid point; points the grid
/// skips ([`admits`]) become None.
fn add_mistakes(
    basis: &EigenBasis,
    folds: &[Fold],
    grid: &Grid,
    lambda: f64,
    mistakes: &mut [Option<usize>],
    wrong: impl Fn(&[Mat<f64>], usize) -> usize,
) -> Result<()> {
    let nu = grid.alphas_u.len();
    for (iu, &au) in grid.alphas_u.iter().enumerate() {
        if !admits(lambda, au, basis.top()) {
            (0..grid.alphas_l.len()).for_each(|il| mistakes[il * nu + iu] = None);
            continue;
        }
        let dinv = basis.inverse_diagonal(lambda, au)?;
        let s =
            folds.iter().map(|f| f.scores(&dinv, &grid.alphas_l)).collect::<Result<Vec<_>>>()?;
        crate::linalg::clear_upper_simd();
        for il in 0..grid.alphas_l.len() {
            if let Some(m) = &mut mistakes[il * nu + iu] {
                *m += wrong(&s, il);
            }
        }
    }
    Ok(())
}

/// Binary mistakes: the sign of the one fold's scores against the ±1 labels `y_test`.
fn sign_mistakes(y_test: &[f64]) -> impl Fn(&[Mat<f64>], usize) -> usize + '_ {
    |s, il| (0..y_test.len()).filter(|&i| (s[0][(i, il)] >= 0.0) != (y_test[i] > 0.0)).count()
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
        add_mistakes(basis, &[fold], grid, lambda, &mut mistakes, sign_mistakes(&pick(&test)))?;
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
    add_mistakes(basis, &[fold], grid, lambda, &mut mistakes, sign_mistakes(&yu))?;
    Ok(to_grid(grid, &mistakes, yu.len()))
}

/// The class columns of a multi-class QLDS: column c on the labels `label(class, c)` of
/// the training rows (one-vs-rest: ±1; native: the centred one-hot row).
pub type Labels<'a> = &'a dyn Fn(usize, usize) -> f64;

/// Adds the held-out rows `x_test` (classes `truth`) whose class of largest score (the
/// first on ties) is not theirs, one score column per class fitted on `x_train` (classes
/// `train`), at every grid point.
#[allow(clippy::too_many_arguments)]
fn add_argmax_mistakes(
    basis: &EigenBasis,
    (x_train, train): (Mat<f64>, &[usize]),
    (x_test, truth): (Mat<f64>, &[usize]),
    n_classes: usize,
    label: Labels,
    grid: &Grid,
    lambda: f64,
    mistakes: &mut [Option<usize>],
) -> Result<()> {
    let columns: Vec<Fold> = (0..n_classes)
        .map(|c| {
            let y = train.iter().map(|&k| label(k, c)).collect();
            Fold::new(x_train.clone(), y, x_test.clone())
        })
        .collect();
    let wrong = |s: &[Mat<f64>], il: usize| {
        let best = |i: usize| {
            (0..s.len()).fold(0, |b, c| if s[c][(i, il)] > s[b][(i, il)] { c } else { b })
        };
        (0..truth.len()).filter(|&i| best(i) != truth[i]).count()
    };
    add_mistakes(basis, &columns, grid, lambda, mistakes, wrong)
}

/// Stratified K-fold cross-validation error (over the labeled classes `classes`) of a
/// multi-class QLDS at every grid point, its columns fitted on `label`.
pub fn multiclass_cv_errors(
    basis: &EigenBasis,
    classes: &[usize],
    n_classes: usize,
    label: Labels,
    grid: &Grid,
    lambda: f64,
    folds: usize,
) -> Result<ErrorGrid> {
    let (k, assign) = folds::by_class(classes, n_classes, folds)?;
    let mut mistakes = vec![Some(0); grid.len()];
    for f in 0..k {
        let (train, test) = folds::split(&assign, f);
        let pick = |idx: &[usize]| idx.iter().map(|&i| classes[i]).collect::<Vec<_>>();
        let x = basis.labeled.as_ref();
        let (train_classes, truth) = (pick(&train), pick(&test));
        let (train, test) = ((rows(x, &train), &train_classes[..]), (rows(x, &test), &truth[..]));
        add_argmax_mistakes(basis, train, test, n_classes, label, grid, lambda, &mut mistakes)?;
    }
    Ok(to_grid(grid, &mistakes, classes.len()))
}

/// Multi-class error on the unlabeled truth `classes_u` at every grid point (the oracle);
/// `x_u` holds the centred unlabeled rows.
#[allow(clippy::too_many_arguments)]
pub fn multiclass_oracle_errors(
    basis: &EigenBasis,
    classes_l: &[usize],
    x_u: &Array2<f64>,
    classes_u: &[usize],
    n_classes: usize,
    label: Labels,
    grid: &Grid,
    lambda: f64,
) -> Result<ErrorGrid> {
    let mut mistakes = vec![Some(0); grid.len()];
    let train = (basis.labeled.clone(), classes_l);
    let test = (basis.project(x_u), classes_u);
    add_argmax_mistakes(basis, train, test, n_classes, label, grid, lambda, &mut mistakes)?;
    Ok(to_grid(grid, &mistakes, classes_u.len()))
}
