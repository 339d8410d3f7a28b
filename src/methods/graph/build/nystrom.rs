//! The low-rank (Nyström) RBF kernel K ≈ K_Nm K_mm⁻¹ K_mN = Z Zᵀ from m landmark points,
//! evenly spaced in the row order (rows ⌊j N / m⌋, j = 0..m; m = N takes every row, and
//! Z Zᵀ = K). K_mm = U Λ Uᵀ, Z = K_Nm U Λ^{-1/2} over the eigenvalues above 10⁻¹² of the
//! largest (the pseudo-inverse; dropped directions only shrink Z Zᵀ, which stays ⪯ K).
//! The width is the median distance between landmarks (every pair when m = N, as dense).
//! A new point x has the factor row k_m(x)ᵀ W (k_m(x) its kernel values at the landmarks,
//! W = U Λ^{-1/2}), so f = Z w extends to f(x) = Σ_j (W w)_j K(l_j, x) ([`Landmarks`]).

use std::sync::Arc;

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat};
use ndarray::{Array1, Array2, ArrayView2, Axis};

use super::distances::{exponentiate, median_width, row_norms};
use crate::error::{Error, Result};
use crate::linalg::{sym_eigen, view};

/// Rows of Z computed per block (a block × m distance matrix at a time).
const BLOCK: usize = 2048;
/// Eigenvalues of K_mm at or below this fraction of the largest are dropped.
const RELATIVE_CUTOFF: f64 = 1e-12;

/// The landmark rows: ⌊j n / m⌋ for j = 0..m (m ≤ n).
pub fn landmarks(n: usize, m: usize) -> Vec<usize> {
    (0..m).map(|j| j * n / m).collect()
}

/// The landmark points l_j (m × d) and the map W (m × r) of a Nyström factor Z = K_Nm W.
#[derive(Debug, Clone)]
pub struct Landmarks {
    pub rows: Arc<Array2<f64>>,
    pub map: Mat<f64>,
}

impl Landmarks {
    /// The coefficients W w over the landmarks of f = Z w.
    pub fn coef(&self, w: &[f64]) -> Vec<f64> {
        (0..self.map.nrows()).map(|j| (0..w.len()).map(|c| self.map[(j, c)] * w[c]).sum()).collect()
    }
}

/// Z (N × r) of the rows of `x` with min(`rank`, N) landmarks, the width `scale` × the
/// median landmark distance, and the landmarks.
pub(super) fn factor(
    x: ArrayView2<f64>,
    scale: f64,
    rank: usize,
) -> Result<(Mat<f64>, f64, Landmarks)> {
    if rank == 0 {
        return Err(Error::param("kernel_rank", "must be ≥ 1"));
    }
    let n = x.nrows();
    let xl = x.select(Axis(0), &landmarks(n, rank.min(n)));
    let (norms, norms_l) = (row_norms(x), row_norms(xl.view()));
    let mut kmm = Mat::zeros(xl.nrows(), xl.nrows());
    distances(xl.view(), &norms_l, 0, xl.view(), &norms_l, &mut kmm);
    let width = median_width(&kmm, scale)?;
    exponentiate(&mut kmm, width);
    let eig = sym_eigen(kmm.as_ref(), "Nyström K_mm")?;
    let top = eig.values.iter().copied().fold(0.0, f64::max);
    let kept: Vec<usize> =
        (0..eig.values.len()).filter(|&i| eig.values[i] > RELATIVE_CUTOFF * top).collect();
    // W = U Λ^{-1/2} over the kept eigenvalues, so that Z = K_Nm W.
    let w = Mat::from_fn(xl.nrows(), kept.len(), |i, c| {
        eig.vectors[(i, kept[c])] / eig.values[kept[c]].sqrt()
    });
    let mut z = Mat::zeros(n, kept.len());
    let mut block = Mat::zeros(0, 0);
    for start in (0..n).step_by(BLOCK) {
        let rows = BLOCK.min(n - start);
        block.resize_with(rows, xl.nrows(), |_, _| 0.0);
        distances(x, &norms, start, xl.view(), &norms_l, &mut block);
        exponentiate(&mut block, width);
        matmul(
            z.as_mut().subrows_mut(start, rows),
            Accum::Replace,
            block.as_ref(),
            w.as_ref(),
            1.0,
            faer::get_global_parallelism(),
        );
    }
    Ok((z, width, Landmarks { rows: Arc::new(xl), map: w }))
}

/// Squared distances of rows `start..start + out.nrows()` of `x` to every row of `b`,
/// clamped at 0 (the formula of the dense kernel's `sq_distances_block`).
fn distances(
    x: ArrayView2<f64>,
    norms: &Array1<f64>,
    start: usize,
    b: ArrayView2<f64>,
    norms_b: &Array1<f64>,
    out: &mut Mat<f64>,
) {
    let rows = out.nrows();
    let block = x.slice(ndarray::s![start..start + rows, ..]);
    matmul(
        out.as_mut(),
        Accum::Replace,
        view(&block),
        view(&b).transpose(),
        -2.0,
        faer::get_global_parallelism(),
    );
    for j in 0..out.ncols() {
        for i in 0..rows {
            out[(i, j)] = (out[(i, j)] + norms[start + i] + norms_b[j]).max(0.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::Array2;

    fn points(n: usize) -> Array2<f64> {
        Array2::from_shape_fn((n, 3), |(i, j)| 2.0 * (1.7 * i as f64 + 2.3 * j as f64).sin())
    }

    #[test]
    fn all_landmarks_give_the_dense_kernel() {
        let x = points(40);
        let norms = row_norms(x.view());
        let mut k = Mat::zeros(40, 40);
        distances(x.view(), &norms, 0, x.view(), &norms, &mut k);
        let width = median_width(&k, 0.5).unwrap();
        exponentiate(&mut k, width);
        let (z, low_width, _) = factor(x.view(), 0.5, 100).unwrap();
        assert_eq!(low_width, width);
        assert!((&z * z.transpose() - k).norm_max() < 1e-10);
        assert!(factor(x.view(), 0.5, 0).is_err());
    }

    #[test]
    fn fewer_landmarks_reproduce_their_own_rows() {
        // Z Zᵀ = K_Nm K_mm⁻¹ K_mN: exact on the landmark rows and columns, below K on the
        // diagonal elsewhere (the Nyström error is positive semi-definite).
        let x = points(30);
        let (n, m) = (30, 10);
        let (z, width, _) = factor(x.view(), 1.0, m).unwrap();
        let approx = &z * z.transpose();
        let xl = x.select(Axis(0), &landmarks(n, m));
        let mut d = Mat::zeros(m, m);
        let nl = row_norms(xl.view());
        distances(xl.view(), &nl, 0, xl.view(), &nl, &mut d);
        assert_eq!(width, median_width(&d, 1.0).unwrap());
        let k = |i: usize, j: usize| {
            let diff = &x.row(i) - &x.row(j);
            (-diff.dot(&diff) / (2.0 * width * width)).exp()
        };
        for &l in &landmarks(n, m) {
            for i in 0..n {
                assert!((approx[(i, l)] - k(i, l)).abs() < 1e-8, "({i}, {l})");
            }
        }
        assert!((0..n).all(|i| approx[(i, i)] <= 1.0 + 1e-10));
        assert_eq!(landmarks(10, 4), vec![0, 2, 5, 7]);
    }
}
