//! Scaled Gram matrices XᵀX / n.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat};
use ndarray::ArrayView2;

use super::view;

/// Columns per panel of the symmetric product.
const PANEL: usize = 64;

/// `xᵀx · scale` for `x` with one sample per row (a d×d matrix). Only the lower triangle is
/// computed, by panels of columns (about half the multiply-adds of a full product: a SYRK),
/// and mirrored; each entry is the same sum as in the full product.
pub fn gram(x: &ArrayView2<f64>, scale: f64) -> Mat<f64> {
    let xf = view(x);
    let d = xf.ncols();
    let mut out = Mat::<f64>::zeros(d, d);
    for j0 in (0..d).step_by(PANEL) {
        let w = PANEL.min(d - j0);
        matmul(
            out.as_mut().submatrix_mut(j0, j0, d - j0, w),
            Accum::Replace,
            xf.subcols(j0, d - j0).transpose(),
            xf.subcols(j0, w),
            scale,
            faer::get_global_parallelism(),
        );
    }
    for j in 1..d {
        for i in 0..j {
            out[(i, j)] = out[(j, i)];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array2, array};
    use rand::{Rng, SeedableRng};

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

    /// The panels give the full product's numbers bit for bit (sizes of the benches).
    #[test]
    fn symmetric_panels_equal_the_full_product() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for (n, d) in [(1900, 400), (100, 400), (37, 130), (5, 3)] {
            let x = Array2::from_shape_fn((n, d), |_| rng.random_range(-1.0..1.0));
            let xf = view(&x.view());
            let mut full = Mat::<f64>::zeros(d, d);
            matmul(full.as_mut(), Accum::Replace, xf.transpose(), xf, 0.25, faer::Par::Seq);
            assert!(gram(&x.view(), 0.25) == full, "n = {n}, d = {d}");
        }
    }
}
