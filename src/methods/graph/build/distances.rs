//! Squared Euclidean distances from a block of rows to all rows, through one faer product
//! (the RBF kernel; the kNN lists rank by the same formula, see `linalg::rank`), and the RBF
//! kernel's median width and exponential of them.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat};
use ndarray::{Array1, ArrayView2, Axis};

use crate::error::{Error, Result};
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

/// `scale` × the median of the distances in the strict upper triangle of the squared
/// distances `d` (square).
pub fn median_width(d: &Mat<f64>, scale: f64) -> Result<f64> {
    let n = d.nrows();
    let mut upper: Vec<f64> =
        (0..n).flat_map(|j| (0..j).map(move |i| (i, j))).map(|(i, j)| d[(i, j)]).collect();
    if upper.is_empty() {
        return Err(Error::Data("RBF kernel width needs at least two points".into()));
    }
    let mid = upper.len() / 2;
    let (_, median, _) = upper.select_nth_unstable_by(mid, f64::total_cmp);
    let width = scale * median.sqrt();
    if !(width > 0.0 && width.is_finite()) {
        return Err(Error::Data(format!("RBF kernel width {width} (all points equal?)")));
    }
    Ok(width)
}

/// Squared distances to exp(−d / (2 s²)) in place.
pub fn exponentiate(d: &mut Mat<f64>, width: f64) {
    let inv = 1.0 / (2.0 * width * width);
    for j in 0..d.ncols() {
        for i in 0..d.nrows() {
            d[(i, j)] = (-d[(i, j)] * inv).exp();
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
