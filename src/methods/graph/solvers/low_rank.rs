//! The RKHS sub-problems with a Nyström kernel K = Z Zᵀ (Z: N × r): every operator
//! K(λI + BK)⁻¹ with B symmetric positive semi-definite equals Z(λI_r + ZᵀBZ)⁻¹Zᵀ (Woodbury:
//! (λI + BZZᵀ)⁻¹ = λ⁻¹(I − BZ(λI_r + ZᵀBZ)⁻¹Zᵀ), so Zᵀ(λI + BZZᵀ)⁻¹ = (λI_r + ZᵀBZ)⁻¹Zᵀ),
//! an r × r system factored once; applying it costs two N × r products.
//! B = rI: the smoother of the TV f-step and the Cheeger e-step; B = ηJ + γL: eq. 8.

use faer::linalg::matmul::matmul;
use faer::linalg::solvers::{Llt, Solve};
use faer::{Accum, ColMut, ColRef, Mat, MatRef, Side};

use crate::error::{Error, Result};
use crate::methods::graph::{SymGraph, laplacian_times};

/// Z(λI_r + ZᵀBZ)⁻¹Zᵀ, with the r × r matrix factored.
pub(crate) struct LowRankOperator<'a> {
    z: MatRef<'a, f64>,
    llt: Llt<f64>,
}

impl<'a> LowRankOperator<'a> {
    /// K(λI + rK)⁻¹ = Z(λI_r + r ZᵀZ)⁻¹Zᵀ.
    pub(crate) fn smoother(z: &'a Mat<f64>, lambda: f64, r: f64) -> Result<Self> {
        let mut s = Mat::zeros(z.ncols(), z.ncols());
        gram_of(z.as_ref(), z.as_ref(), r, &mut s);
        Self::factor(z, lambda, s)
    }

    /// Eq. 8's K(ηJK + λI + γLK)⁻¹ = Z(λI_r + ηZ_lᵀZ_l + γZᵀLZ)⁻¹Zᵀ (J: the first `nl`
    /// points).
    pub(crate) fn laplacian(
        z: &'a Mat<f64>,
        nl: usize,
        eta: f64,
        lambda: f64,
        gamma: f64,
        graph: &SymGraph,
    ) -> Result<Self> {
        let mut s = Mat::zeros(z.ncols(), z.ncols());
        let zl = z.as_ref().subrows(0, nl);
        gram_of(zl, zl, eta, &mut s);
        if gamma != 0.0 {
            let lz = laplacian_times(graph, z);
            let mut t = Mat::zeros(z.ncols(), z.ncols());
            gram_of(z.as_ref(), lz.as_ref(), gamma, &mut t);
            // ZᵀLZ is symmetric; average out the rounding of the two triangles.
            s += Mat::from_fn(t.nrows(), t.ncols(), |i, j| 0.5 * (t[(i, j)] + t[(j, i)]));
        }
        Self::factor(z, lambda, s)
    }

    /// Adds λI to `s` and factors it (Cholesky: s is positive semi-definite, λ > 0).
    fn factor(z: &'a Mat<f64>, lambda: f64, mut s: Mat<f64>) -> Result<Self> {
        for i in 0..s.nrows() {
            s[(i, i)] += lambda;
        }
        let llt = s.llt(Side::Lower).map_err(|e| Error::Linalg {
            context: "low-rank kernel system λI + ZᵀBZ",
            message: format!("not positive definite ({e:?})"),
        })?;
        Ok(LowRankOperator { z: z.as_ref(), llt })
    }

    /// out = Z w with w = (λI_r + ZᵀBZ)⁻¹Zᵀ b; returns w.
    pub(crate) fn apply(&self, b: &[f64], out: &mut [f64]) -> Vec<f64> {
        let par = faer::get_global_parallelism();
        let mut t = Mat::zeros(self.z.ncols(), 1);
        let b = ColRef::from_slice(b).as_mat();
        matmul(t.as_mut(), Accum::Replace, self.z.transpose(), b, 1.0, par);
        self.llt.solve_in_place(t.as_mut());
        let out = ColMut::from_slice_mut(out).as_mat_mut();
        matmul(out, Accum::Replace, self.z, t.as_ref(), 1.0, par);
        t.col_as_slice(0).to_vec()
    }
}

/// out = c · AᵀB.
fn gram_of(a: MatRef<'_, f64>, b: MatRef<'_, f64>, c: f64, out: &mut Mat<f64>) {
    matmul(out.as_mut(), Accum::Replace, a.transpose(), b, c, faer::get_global_parallelism());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::graph::tests::blobs;
    use crate::methods::graph::{KnnGraph, Prepared, RbfKernel, laplacian};

    /// Points, Z of 12 landmarks (rank below N = 40), the dense K̃ = ZZᵀ and the graph.
    fn low_rank_problem() -> (Prepared, Mat<f64>) {
        let kernel = RbfKernel { scale: 0.7, rank: Some(12) };
        let prep = Prepared::new(&blobs(4, 16, 9), &kernel, Some(&KnnGraph::default())).unwrap();
        let z = prep.gram.factor().unwrap();
        assert!(z.ncols() <= 12 && z.nrows() == 40);
        let k = z * z.transpose();
        (prep, k)
    }

    /// `out` equals the column `reference` entry by entry to 1e-9.
    fn assert_matches(out: &[f64], reference: &Mat<f64>) {
        for (i, o) in out.iter().enumerate() {
            let r = reference[(i, 0)];
            assert!((o - r).abs() < 1e-9, "{i}: {o} vs {r}");
        }
    }

    #[test]
    fn woodbury_smoother_equals_the_dense_solve() {
        // K̃(λI + rK̃)⁻¹ b by an N × N LU solve against the r × r route.
        let (prep, k) = low_rank_problem();
        let n = prep.n();
        let (lambda, r) = (0.1, 0.8);
        let b: Vec<f64> = (0..n).map(|i| ((i * 5) % 7) as f64 - 3.0).collect();
        let a = Mat::from_fn(n, n, |i, j| r * k[(i, j)] + if i == j { lambda } else { 0.0 });
        let x = a.partial_piv_lu().solve(Mat::from_fn(n, 1, |i, _| b[i]));
        let reference = &k * &x;
        let mut out = vec![0.0; n];
        LowRankOperator::smoother(prep.gram.factor().unwrap(), lambda, r)
            .unwrap()
            .apply(&b, &mut out);
        assert_matches(&out, &reference);
    }

    #[test]
    fn woodbury_laplacian_system_equals_eq_8_solved_densely() {
        // f = K̃(ηJK̃ + λI + γLK̃)⁻¹ηy by an N × N LU solve against the r × r route.
        let (prep, k) = low_rank_problem();
        let (n, nl) = (prep.n(), prep.n_labeled);
        let (eta, lambda, gamma) = (1.5, 0.2, 0.3);
        let l = laplacian(prep.graph().unwrap());
        let j = Mat::from_fn(n, n, |a, b| if a == b && a < nl { eta } else { 0.0 });
        let a = &j * &k
            + gamma * &l * &k
            + Mat::from_fn(n, n, |a, b| if a == b { lambda } else { 0.0 });
        let y = prep.padded_labels();
        let alpha = a.partial_piv_lu().solve(Mat::from_fn(n, 1, |i, _| eta * y[i]));
        let reference = &k * &alpha;
        let z = prep.gram.factor().unwrap();
        let op =
            LowRankOperator::laplacian(z, nl, eta, lambda, gamma, prep.graph().unwrap()).unwrap();
        let mut out = vec![0.0; n];
        op.apply(&y.iter().map(|v| eta * v).collect::<Vec<_>>(), &mut out);
        assert_matches(&out, &reference);
    }
}
