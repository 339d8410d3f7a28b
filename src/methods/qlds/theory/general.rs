//! Theorem 1 with general class covariances (spec §2, last paragraph): classes N(μ_k, C_k).
//! δ_k = tr(C_k Q̃)/n with Q̃ = (λI − Σ_k φ_k(δ_k) C_k)⁻¹, Q̄ = (λI − Σ_k φ_k (C_k + μ_kμ_kᵀ))⁻¹,
//! T_kk' = tr(C_k Q̃ C_k' Q̃)/n; the variance of class j's scores is E[wᵀC_j w] with the
//! second-order equivalent E[QC_jQ] = Q̄C_jQ̄ + Σ_k ψ_k v_k Q̄(C_k + μ_kμ_kᵀ)Q̄,
//! v = (I − TΨ)⁻¹ T e_j. With C_k = I_d every quantity equals the isotropic one.
// `!(x < 1.0)` on purpose: a NaN must fail the validity check too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use faer::linalg::solvers::Solve;
use faer::{Mat, Side};

use super::isotropic::{Invalid, mul, poles_ok, solve, top_eig_2x2};
use super::normal_cdf;
use crate::error::{Error, Result};

/// Class means (as the classifier sees them, i.e. centred) and covariances, with counts.
#[derive(Debug, Clone)]
pub struct GeneralSetting {
    pub labeled: [usize; 2],
    pub unlabeled: [usize; 2],
    /// μ₁ (label +1) and μ₂ (label −1).
    pub means: [Vec<f64>; 2],
    /// C₁ and C₂, symmetric positive semi-definite d×d.
    pub covariances: [Mat<f64>; 2],
}

/// Gaussian limits N(m_j, σ_j²) of the scores f(x) = ωᵀx/√n of each class, and the error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GeneralPrediction {
    pub m: [f64; 2],
    /// Per-class standard deviations (equal in the isotropic case).
    pub sigma: [f64; 2],
    pub error: f64,
    pub delta: [f64; 2],
}

const MAX_ITER: usize = 20_000;
const TOL: f64 = 1e-13;

impl GeneralSetting {
    /// A setting with diagonal covariances `diag(variances[k])`.
    pub fn diagonal(
        labeled: [usize; 2],
        unlabeled: [usize; 2],
        means: [Vec<f64>; 2],
        variances: &[ndarray::Array1<f64>; 2],
    ) -> Self {
        let d = means[0].len();
        let covariances = variances
            .each_ref()
            .map(|v| Mat::from_fn(d, d, |i, j| if i == j { v[i] } else { 0.0 }));
        GeneralSetting { labeled, unlabeled, means, covariances }
    }

    /// Checks shapes: two means of length d ≥ 1, two d×d covariances, a labeled point.
    pub fn check(&self) -> Result<usize> {
        let d = self.means[0].len();
        let square = self.covariances.iter().all(|c| c.nrows() == d && c.ncols() == d);
        if d == 0 || self.means[1].len() != d || !square {
            return Err(Error::param(
                "covariances",
                "needs two means of length d ≥ 1 and two d×d covariances",
            ));
        }
        if self.labeled[0] + self.labeled[1] == 0 {
            return Err(Error::param("labeled", "needs at least one labeled point"));
        }
        Ok(d)
    }
}

/// (A)⁻¹ for symmetric positive-definite A, or None.
fn spd_inverse(a: &Mat<f64>) -> Option<Mat<f64>> {
    let llt = a.llt(Side::Lower).ok()?;
    let mut inv = Mat::identity(a.nrows(), a.ncols());
    llt.solve_in_place(inv.as_mut());
    Some(inv)
}

fn trace_product(a: &Mat<f64>, b: &Mat<f64>) -> f64 {
    let d = a.nrows();
    (0..d).map(|i| (0..d).map(|j| a[(i, j)] * b[(j, i)]).sum::<f64>()).sum()
}

/// Theorem 1 with class covariances at (α_l, α_u, λ), or why it has no value there.
pub fn predict_general(
    s: &GeneralSetting,
    al: f64,
    au: f64,
    lambda: f64,
) -> Result<Result<GeneralPrediction, Invalid>> {
    let d = s.check()?;
    let n = s.labeled.iter().chain(&s.unlabeled).sum::<usize>() as f64;
    let (cl, cu) = (s.labeled.map(|v| v as f64 / n), s.unlabeled.map(|v| v as f64 / n));
    let phi =
        |k: usize, delta: f64| cu[k] * au / (1.0 - au * delta) - cl[k] * al / (1.0 + al * delta);
    let shifted = |delta: [f64; 2], with_means: bool| {
        let p = [phi(0, delta[0]), phi(1, delta[1])];
        Mat::from_fn(d, d, |i, j| {
            let mut v = if i == j { lambda } else { 0.0 };
            for ((pk, mean), cov) in p.iter().zip(&s.means).zip(&s.covariances) {
                let mm = if with_means { mean[i] * mean[j] } else { 0.0 };
                v -= pk * (cov[(i, j)] + mm);
            }
            v
        })
    };
    // Fixed point for (δ_1, δ_2), iterated from 0.
    let mut delta = [0.0; 2];
    let mut q_tilde = None;
    for _ in 0..MAX_ITER {
        let Some(q) = spd_inverse(&shifted(delta, false)) else {
            return Ok(Err(Invalid::NoFixedPoint));
        };
        let next = [0, 1].map(|k| trace_product(&s.covariances[k], &q) / n);
        if !next.iter().all(|&dk| poles_ok(al, au, dk)) {
            return Ok(Err(Invalid::Pole));
        }
        let done = (0..2)
            .all(|k| (next[k] - delta[k]).abs() <= TOL * next[k].abs().max(f64::MIN_POSITIVE));
        delta = next;
        if done {
            q_tilde = Some(q);
            break;
        }
    }
    let Some(q_tilde) = q_tilde else { return Ok(Err(Invalid::NoFixedPoint)) };
    let Some(q_bar) = spd_inverse(&shifted(delta, true)) else { return Ok(Err(Invalid::Spike)) };
    let m_mat = Mat::from_fn(d, 2, |i, k| s.means[k][i]);
    let qm = &q_bar * &m_mat;
    let mqm_m = m_mat.transpose() * &qm;
    let mqm = [[mqm_m[(0, 0)], mqm_m[(0, 1)]], [mqm_m[(1, 0)], mqm_m[(1, 1)]]];
    // (QM)ᵀ C (QM), a 2×2 matrix.
    let sandwich = |c: &Mat<f64>| {
        let r = qm.transpose() * c * &qm;
        [[r[(0, 0)], r[(0, 1)]], [r[(1, 0)], r[(1, 1)]]]
    };
    let cq = s.covariances.each_ref().map(|c| c * &q_tilde);
    let t = [0, 1].map(|k| [0, 1].map(|kk| trace_product(&cq[k], &cq[kk]) / n));
    let psi = [0, 1].map(|k| {
        cu[k] * au * au / (1.0 - au * delta[k]).powi(2)
            + cl[k] * al * al / (1.0 + al * delta[k]).powi(2)
    });
    let t_psi = mul(t, [[psi[0], 0.0], [0.0, psi[1]]]);
    if !(top_eig_2x2(t_psi) < 1.0) {
        return Ok(Err(Invalid::Variance));
    }
    let i_minus = [[1.0 - t_psi[0][0], -t_psi[0][1]], [-t_psi[1][0], 1.0 - t_psi[1][1]]];
    let Some(v) = solve(i_minus, t) else { return Ok(Err(Invalid::Variance)) };
    let a = delta.map(|dk| 1.0 / (1.0 + al * dk));
    let y = [1.0, -1.0];
    let m = [0, 1].map(|j| (0..2).map(|k| cl[k] * y[k] * a[k] * mqm[k][j]).sum::<f64>());
    let spread = [0, 1].map(|k| sandwich(&s.covariances[k]));
    let sigma = [0, 1].map(|j| {
        // v[k][j] = (1/n) tr(C_k E[Q C_j Q]); H = Mᵀ E[Q C_j Q] M.
        let vj = [v[0][j], v[1][j]];
        let mut h = spread[j];
        for k in 0..2 {
            for (r, c) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                h[r][c] += psi[k] * vj[k] * (spread[k][r][c] + mqm[r][k] * mqm[k][c]);
            }
        }
        let mut var: f64 = (0..2).map(|k| cl[k] * a[k] * a[k] * vj[k]).sum();
        for k in 0..2 {
            for kk in 0..2 {
                var += cl[k]
                    * cl[kk]
                    * y[k]
                    * y[kk]
                    * a[k]
                    * a[kk]
                    * (h[k][kk] - al * (a[k] * vj[k] + a[kk] * vj[kk]) * mqm[k][kk]);
            }
        }
        var.sqrt()
    });
    if !(m.iter().chain(&sigma).all(|v| v.is_finite()) && sigma.iter().all(|v| *v > 0.0)) {
        return Ok(Err(Invalid::NonFinite));
    }
    let counts = if s.unlabeled[0] + s.unlabeled[1] > 0 { s.unlabeled } else { s.labeled };
    let rho = counts.map(|c| c as f64 / (counts[0] + counts[1]) as f64);
    let error = (0..2).map(|j| rho[j] * normal_cdf(-y[j] * m[j] / sigma[j])).sum();
    Ok(Ok(GeneralPrediction { m, sigma, error, delta }))
}
