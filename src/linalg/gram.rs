//! Scaled Gram matrices XᵀX / n.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat};
use ndarray::ArrayView2;

use super::view;

/// `xᵀx · scale` for `x` with one sample per row (a d×d matrix).
pub fn gram(x: &ArrayView2<f64>, scale: f64) -> Mat<f64> {
    let xf = view(x);
    let d = xf.ncols();
    let mut out = Mat::<f64>::zeros(d, d);
    matmul(
        out.as_mut(),
        Accum::Replace,
        xf.transpose(),
        xf,
        scale,
        faer::get_global_parallelism(),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn matches_explicit_product() {
        let x = array![[1.0, 2.0], [3.0, -1.0], [0.5, 0.0]];
        let g = gram(&x.view(), 0.5);
        let expected = x.t().dot(&x) * 0.5;
        for i in 0..2 {
            for j in 0..2 {
                assert!((g[(i, j)] - expected[[i, j]]).abs() < 1e-12);
            }
        }
    }
}
