//! The kernel smoother M = K(λI + rK + γLK)⁻¹ = (λK⁻¹ + rI + γL)⁻¹ (symmetric), the
//! fixed matrix of every RKHS sub-problem with a quadratic coupling ‖f − t‖²; factored once.

use faer::linalg::solvers::Solve;
use faer::{Mat, Side};

use super::laplacian_times;
use super::prepared::Prepared;
use crate::error::{Error, Result};

/// M for the given λ, r and Laplacian weight γ (γ = 0 needs no graph).
pub(super) fn smoother(prep: &Prepared, lambda: f64, r: f64, gamma: f64) -> Result<Mat<f64>> {
    let (n, k) = (prep.n(), &prep.gram.k);
    // K(λI + rK + γLK)⁻¹ = (λI + rK + γKL)⁻¹ K, and KL = (LK)ᵀ.
    let mut m = k.clone();
    if gamma == 0.0 {
        let a = Mat::from_fn(n, n, |i, j| r * k[(i, j)] + if i == j { lambda } else { 0.0 });
        let llt = a.llt(Side::Lower).map_err(|e| Error::Linalg {
            context: "kernel smoother λI + rK",
            message: format!("not positive definite ({e:?})"),
        })?;
        llt.solve_in_place(m.as_mut());
    } else {
        let lk = laplacian_times(prep.graph()?, k);
        let a = Mat::from_fn(n, n, |i, j| r * k[(i, j)] + gamma * lk[(j, i)] + if i == j { lambda } else { 0.0 });
        a.partial_piv_lu().solve_in_place(m.as_mut());
    }
    Ok(Mat::from_fn(n, n, |i, j| 0.5 * (m[(i, j)] + m[(j, i)])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::graph::tests::blobs;
    use crate::methods::graph::{KnnGraph, RbfKernel, laplacian};

    #[test]
    fn inverse_relation_holds() {
        // M (λK⁻¹ + rI + γL) = I, checked as M(λI + rK + γLK) = K.
        let prep = Prepared::new(&blobs(2, 10, 3), &RbfKernel { scale: 0.5 }, Some(&KnnGraph::default())).unwrap();
        let (lambda, r, gamma) = (0.3, 0.7, 0.2);
        let m = smoother(&prep, lambda, r, gamma).unwrap();
        let k = &prep.gram.k;
        let l = laplacian(prep.graph().unwrap());
        let n = prep.n();
        let b = Mat::from_fn(n, n, |i, j| if i == j { lambda } else { 0.0 }) + r * k + gamma * &l * k;
        assert!((&m * &b - k).norm_max() < 1e-8);
        let m0 = smoother(&prep, lambda, r, 0.0).unwrap();
        let b0 = Mat::from_fn(n, n, |i, j| if i == j { lambda } else { 0.0 }) + r * k;
        assert!((&m0 * &b0 - k).norm_max() < 1e-8);
    }
}
