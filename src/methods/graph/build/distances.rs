//! Squared Euclidean distances from a block of rows to all rows, through one faer product
//! (the RBF kernel; the kNN selection uses the same formula, see `nearest`).

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
pub fn sq_distances_block(
    x: ArrayView2<f64>,
    norms: &Array1<f64>,
    start: usize,
    out: &mut Mat<f64>,
) {
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
    }
}
