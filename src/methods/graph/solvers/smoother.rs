//! The kernel smoother M = K(λI + rK + γLK)⁻¹ = (λK⁻¹ + rI + γL)⁻¹ (symmetric), the
//! fixed matrix of every RKHS sub-problem with a quadratic coupling ‖f − t‖²; factored once.

use std::borrow::Cow;

use faer::linalg::solvers::{Llt, Solve};
use faer::{Mat, Side};

use crate::error::{Error, Result};
use crate::methods::graph::laplacian_times;
use crate::methods::graph::prepared::Prepared;

/// M for the given λ, r and Laplacian weight γ: the copy kept by
/// [`Prepared::add_smoother`] if any, else computed now.
pub(crate) fn smoother(
    prep: &Prepared,
    lambda: f64,
    r: f64,
    gamma: f64,
) -> Result<Cow<'_, Mat<f64>>> {
    match prep.cached_smoother(lambda, r, gamma) {
        Some(m) => Ok(Cow::Borrowed(m)),
        None => compute(prep, lambda, r, gamma).map(Cow::Owned),
    }
}

/// Computes M (γ = 0 needs no graph): a Cholesky solve, or an LU solve when γ > 0.
pub fn compute(prep: &Prepared, lambda: f64, r: f64, gamma: f64) -> Result<Mat<f64>> {
    let (n, k) = (prep.n(), prep.gram.dense()?);
    // K(λI + rK + γLK)⁻¹ = (λI + rK + γKL)⁻¹ K, and KL = (LK)ᵀ.
    let mut m = k.clone();
    if gamma == 0.0 {
        shifted_llt(k, lambda, r, "kernel smoother λI + rK")?.solve_in_place(m.as_mut());
    } else {
        let lk = laplacian_times(prep.graph()?, k);
        let a = Mat::from_fn(n, n, |i, j| {
            r * k[(i, j)] + gamma * lk[(j, i)] + if i == j { lambda } else { 0.0 }
        });
        a.partial_piv_lu().solve_in_place(m.as_mut());
    }
    Ok(Mat::from_fn(n, n, |i, j| 0.5 * (m[(i, j)] + m[(j, i)])))
}

/// The Cholesky factor of λI + rK (`context` names the caller in its error).
pub(crate) fn shifted_llt(
    k: &Mat<f64>,
    lambda: f64,
    r: f64,
    context: &'static str,
) -> Result<Llt<f64>> {
    let n = k.nrows();
    let a = Mat::from_fn(n, n, |i, j| r * k[(i, j)] + if i == j { lambda } else { 0.0 });
    a.llt(Side::Lower)
        .map_err(|e| Error::Linalg { context, message: format!("not positive definite ({e:?})") })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::graph::tests::blobs;
    use crate::methods::graph::{KnnGraph, RbfKernel, laplacian};

    #[test]
    fn inverse_relation_holds() {
        // M (λK⁻¹ + rI + γL) = I, checked as M(λI + rK + γLK) = K.
        let mut prep = Prepared::new(
            &blobs(2, 10, 3),
            &RbfKernel { scale: 0.5, rank: None },
            Some(&KnnGraph::default()),
        )
        .unwrap();
        let (lambda, r, gamma) = (0.3, 0.7, 0.2);
        let m = smoother(&prep, lambda, r, gamma).unwrap().into_owned();
        let k = prep.gram.dense().unwrap();
        let l = laplacian(prep.graph().unwrap());
        let n = prep.n();
        let b =
            Mat::from_fn(n, n, |i, j| if i == j { lambda } else { 0.0 }) + r * k + gamma * &l * k;
        assert!((&m * &b - k).norm_max() < 1e-8);
        let m0 = smoother(&prep, lambda, r, 0.0).unwrap().into_owned();
        let b0 = Mat::from_fn(n, n, |i, j| if i == j { lambda } else { 0.0 }) + r * k;
        assert!((&m0 * &b0 - k).norm_max() < 1e-8);
        let identity: Vec<usize> = (0..n).collect();
        prep.add_smoother((lambda, r, gamma), &m, &identity);
        assert!(matches!(smoother(&prep, lambda, r, gamma).unwrap(), Cow::Borrowed(c) if c == &m));
    }

    #[test]
    fn reordered_copy_equals_a_fresh_computation() {
        // Permuting the points permutes K, W and the cached smoother: P M Pᵀ.
        let problem = blobs(2, 10, 4);
        let x = ndarray::concatenate(
            ndarray::Axis(0),
            &[problem.x_l.to_dense().view(), problem.x_u.to_dense().view()],
        )
        .unwrap();
        let (kernel, graph) = (RbfKernel::default(), KnnGraph::default());
        let base = Prepared::from_rows(x.view(), vec![], &kernel, Some(&graph)).unwrap();
        let order: Vec<usize> = (0..x.nrows()).rev().collect();
        let mut moved = base.reorder(&order, vec![1.0, -1.0]).unwrap();
        moved.add_smoother((0.1, 1.0, 0.5), &compute(&base, 0.1, 1.0, 0.5).unwrap(), &order);
        let fresh = Prepared::from_rows(
            x.select(ndarray::Axis(0), &order).view(),
            vec![1.0, -1.0],
            &kernel,
            Some(&graph),
        )
        .unwrap();
        assert!((moved.gram.dense().unwrap() - fresh.gram.dense().unwrap()).norm_max() < 1e-12);
        assert_eq!(moved.graph, fresh.graph);
        let m = compute(&fresh, 0.1, 1.0, 0.5).unwrap();
        assert!((moved.cached_smoother(0.1, 1.0, 0.5).unwrap() - &m).norm_max() < 1e-8);
        assert!(base.reorder(&[0, 0], vec![]).is_err());
    }
}
