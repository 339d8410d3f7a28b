//! Squared Euclidean distances from a block of rows to all rows, through one faer product,
//! as a block × all matrix (the RBF kernel) or all × block (one contiguous column per row of
//! the block, for the kNN selection).

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat};
use ndarray::{Array1, ArrayView2, Axis};

use crate::linalg::view;

/// Squared row norms ‖x_i‖².
pub fn row_norms(x: ArrayView2<f64>) -> Array1<f64> {
    x.map_axis(Axis(1), |r| r.dot(&r))
}

/// Fills `out` (rows `start..start + out.nrows()` of `x` against all rows) with squared
/// distances ‖x_i‖² + ‖x_j‖² − 2 x_iᵀx_j, clamped at 0; `norms` from [`row_norms`].
pub fn sq_distances_block(x: ArrayView2<f64>, norms: &Array1<f64>, start: usize, out: &mut Mat<f64>) {
    let rows = out.nrows();
    let block = x.slice(ndarray::s![start..start + rows, ..]);
    let xf = view(&x);
    matmul(
        out.as_mut(),
        Accum::Replace,
        view(&block),
        xf.transpose(),
        -2.0,
        faer::get_global_parallelism(),
    );
    for j in 0..out.ncols() {
        for i in 0..rows {
            out[(i, j)] = (out[(i, j)] + norms[start + i] + norms[j]).max(0.0);
        }
    }
}

/// Fills `out` (all rows of `x` against rows `start..start + out.ncols()`, one column per
/// block row) with the same numbers as [`sq_distances_block`]: column r holds
/// ‖x_i‖² + ‖x_j‖² − 2 x_iᵀx_j for i = start + r and every j, clamped at 0; sequential.
pub fn sq_distances_to_block(x: ArrayView2<f64>, norms: &Array1<f64>, start: usize, out: &mut Mat<f64>) {
    let cols = out.ncols();
    let block = x.slice(ndarray::s![start..start + cols, ..]);
    matmul(out.as_mut(), Accum::Replace, view(&x), view(&block).transpose(), -2.0, faer::Par::Seq);
    for r in 0..cols {
        let ni = norms[start + r];
        for (j, v) in out.col_mut(r).iter_mut().enumerate() {
            *v = (*v + ni + norms[j]).max(0.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn matches_direct_differences() {
        let x = array![[0.0, 1.0], [2.0, -1.0], [0.5, 0.5], [3.0, 3.0]];
        let norms = row_norms(x.view());
        let mut out = Mat::zeros(2, 4);
        sq_distances_block(x.view(), &norms, 1, &mut out);
        for i in 0..2 {
            for j in 0..4 {
                let d = &x.row(1 + i) - &x.row(j);
                assert!((out[(i, j)] - d.dot(&d)).abs() < 1e-12);
            }
        }
        let mut to = Mat::zeros(4, 2);
        sq_distances_to_block(x.view(), &norms, 1, &mut to);
        assert_eq!(to, out.transpose().to_owned());
    }
}
