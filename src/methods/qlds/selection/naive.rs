//! The naive cross-validation and oracle paths: one d×d Cholesky per grid point and fold.
//! The test oracle for [`cv`](super::cv) and the benchmark's baseline; same centring, n
//! and λ as the fast path.

use faer::Mat;
use ndarray::{Array1, ArrayView2, Axis};

use super::folds;
use super::grid::{ErrorGrid, Grid, admits};
use crate::error::Result;
use crate::linalg::{gram, spd_solve, view};
use crate::methods::qlds::Moments;

/// Scores on `test` of QLDS(α_l, α_u, λ) trained on the labeled rows `train`, one column
/// per label vector of `ys` (each over every labeled row).
#[allow(clippy::too_many_arguments)]
fn scores(
    prep: &Moments,
    train: &[usize],
    test: ArrayView2<f64>,
    ys: &[Array1<f64>],
    al: f64,
    au: f64,
    lambda: f64,
) -> Result<Mat<f64>> {
    let n = prep.n() as f64;
    let x = prep.x_l.select(Axis(0), train);
    let c = gram(&x.view(), 1.0 / n);
    let d = prep.dim();
    let a = Mat::from_fn(d, d, |i, j| {
        al * c[(i, j)] - au * prep.c_u[(i, j)] + if i == j { lambda } else { 0.0 }
    });
    let b: Vec<Array1<f64>> =
        ys.iter().map(|y| x.t().dot(&y.select(Axis(0), train)) / n.sqrt()).collect();
    let mut omega = Mat::from_fn(d, ys.len(), |i, k| b[k][i]);
    spd_solve(a.as_ref(), &mut omega, "naive QLDS system")?;
    Ok(view(&test) * &omega)
}

/// Mistakes on `test` (labels `y_test`) of QLDS(α_l, α_u, λ) trained on the labeled rows `train`.
fn mistakes(
    prep: &Moments,
    train: &[usize],
    test: ArrayView2<f64>,
    y_test: &[f64],
    al: f64,
    au: f64,
    lambda: f64,
) -> Result<usize> {
    let s = scores(prep, train, test, std::slice::from_ref(&prep.y_l), al, au, lambda)?;
    Ok((0..test.nrows()).filter(|&i| (s[(i, 0)] >= 0.0) != (y_test[i] > 0.0)).count())
}

/// Cross-validation errors with the same folds as the fast path.
pub fn cv_errors(prep: &Moments, grid: &Grid, lambda: f64, folds: usize) -> Result<ErrorGrid> {
    let y = prep.y_l.to_vec();
    let (k, assign) = folds::stratified(&y, folds)?;
    let top_u = prep.top_eig_unlabeled()?;
    ErrorGrid::build(grid, |al, au| {
        if !admits(lambda, au, top_u) {
            return Ok(None);
        }
        let mut wrong = 0;
        for f in 0..k {
            let (train, test) = folds::split(&assign, f);
            let y_test: Vec<f64> = test.iter().map(|&i| y[i]).collect();
            wrong += mistakes(
                prep,
                &train,
                prep.x_l.select(Axis(0), &test).view(),
                &y_test,
                al,
                au,
                lambda,
            )?;
        }
        Ok(Some(wrong as f64 / y.len() as f64))
    })
}

/// Oracle errors on the unlabeled truth.
pub fn oracle_errors(
    prep: &Moments,
    y_u: &Array1<f64>,
    grid: &Grid,
    lambda: f64,
) -> Result<ErrorGrid> {
    let all: Vec<usize> = (0..prep.y_l.len()).collect();
    let yu = y_u.to_vec();
    let top_u = prep.top_eig_unlabeled()?;
    ErrorGrid::build(grid, |al, au| {
        if !admits(lambda, au, top_u) {
            return Ok(None);
        }
        let wrong = mistakes(prep, &all, prep.x_u.view(), &yu, al, au, lambda)?;
        Ok(Some(wrong as f64 / yu.len() as f64))
    })
}

/// Multi-class cross-validation errors of one-vs-rest QLDS (one ±1 column per class) with
/// the same folds as the fast path: the class of largest score (the first on ties).
pub fn one_vs_rest_cv_errors(
    prep: &Moments,
    classes: &[usize],
    n_classes: usize,
    grid: &Grid,
    lambda: f64,
    folds: usize,
) -> Result<ErrorGrid> {
    let (k, assign) = folds::by_class(classes, n_classes, folds)?;
    let ys: Vec<Array1<f64>> = (0..n_classes)
        .map(|c| classes.iter().map(|&k| if k == c { 1.0 } else { -1.0 }).collect())
        .collect();
    let top_u = prep.top_eig_unlabeled()?;
    ErrorGrid::build(grid, |al, au| {
        if !admits(lambda, au, top_u) {
            return Ok(None);
        }
        let mut wrong = 0;
        for f in 0..k {
            let (train, test) = folds::split(&assign, f);
            let x_test = prep.x_l.select(Axis(0), &test);
            let s = scores(prep, &train, x_test.view(), &ys, al, au, lambda)?;
            for (i, &row) in test.iter().enumerate() {
                let best = (0..n_classes).fold(0, |b, c| if s[(i, c)] > s[(i, b)] { c } else { b });
                wrong += usize::from(best != classes[row]);
            }
        }
        Ok(Some(wrong as f64 / classes.len() as f64))
    })
}
