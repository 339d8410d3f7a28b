//! Theorem 1 for K classes, isotropic case (docs/methods/qlds.md, "Multi-class theory"):
//! the score vector f(x) = Ωᵀx/√n of a class-j point tends to N(m_j, Σ), m_j = Wᵀν_j and
//! Σ = WᵀSW, with ν_j and S the K-class extension of the binary m_j and σ² and W the label
//! coding; the error of the argmax rule is Σ_j ρ_j (1 − P(f_j > f_c for all c ≠ j)).
// `!(x > 0.0)` on purpose: a NaN must fail the validity checks too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use faer::linalg::solvers::Solve;
use faer::{Mat, Side};

use super::edge::{EdgeMatrix, edge_along};
use super::isotropic::{self, Invalid, fixed_point};
use super::multiclass_split::{SPLIT_LIMIT, split_ratio};
use super::{MulticlassSetting, orthant_probability};
use crate::error::{Error, Result};
use crate::methods::qlds::{LambdaPolicy, label_matrix};

/// Gaussian limit of the score vector of each unlabeled class, and the argmax error.
#[derive(Debug, Clone)]
pub struct MulticlassPrediction {
    /// `means[j][c]`: the mean of f_c(x) for x of class j.
    pub means: Vec<Vec<f64>>,
    /// Covariance of the score vector, K×K, the same for every class (singular: the
    /// scores of a point sum to 0).
    pub covariance: Mat<f64>,
    /// P(argmax f(x) ≠ j | x of class j), per class.
    pub class_errors: Vec<f64>,
    /// Σ_j ρ_j `class_errors[j]`, ρ_j the unlabeled class proportions.
    pub error: f64,
    /// The fixed point δ.
    pub delta: f64,
    /// The finite-n spread of coinciding signal spikes over λ's distance above them
    /// (`multiclass_split`; the theory is used below [`SPLIT_LIMIT`]).
    pub split_ratio: f64,
}

/// Uniform draws of the argmax integral for K ≥ 3 (for K = 2 it is exact); its seed.
pub const ARGMAX_DRAWS: usize = 4096;
const ARGMAX_SEED: u64 = 44;

/// Per-class ratios c_lk = n_lk/n, c_uk = n_uk/n and c_0 = d/n.
struct Ratios {
    cl: Vec<f64>,
    cu: Vec<f64>,
    c0: f64,
}

impl Ratios {
    fn of(s: &MulticlassSetting) -> Self {
        let n = s.n() as f64;
        let ratio = |v: &[usize]| v.iter().map(|c| *c as f64 / n).collect();
        Ratios { cl: ratio(&s.labeled), cu: ratio(&s.unlabeled), c0: s.dim as f64 / n }
    }

    /// φ_k(δ) = c_uk α_u/(1 − α_u δ) − c_lk α_l/(1 + α_l δ).
    fn phi(&self, al: f64, au: f64, delta: f64) -> Vec<f64> {
        self.cu
            .iter()
            .zip(&self.cl)
            .map(|(cu, cl)| cu * au / (1.0 - au * delta) - cl * al / (1.0 + al * delta))
            .collect()
    }

    /// The classes pooled into one (Σ_k φ_k is all the fixed point and the edge need), as
    /// the binary ratios, so that the binary fixed point serves.
    fn pooled(&self) -> isotropic::Ratios {
        let (cl, cu) = (self.cl.iter().sum(), self.cu.iter().sum());
        isotropic::Ratios { cl: [cl, 0.0], cu: [cu, 0.0], c0: self.c0 }
    }
}

/// λ_max(ΦG) = λ_max(G^{1/2}ΦG^{1/2}) (real: G is positive semi-definite); NaN on failure.
fn top_eig(s: &MulticlassSetting, phi: &[f64]) -> f64 {
    let k = phi.len();
    let h = &s.g_sqrt;
    let m = Mat::from_fn(k, k, |i, j| (0..k).map(|r| h[(i, r)] * phi[r] * h[(r, j)]).sum::<f64>());
    m.self_adjoint_eigenvalues(Side::Lower).ok().and_then(|v| v.last().copied()).unwrap_or(f64::NAN)
}

/// The K-class Theorem 1 at (α_l, α_u, λ) for the setting, or why it has no value there
/// (the limit's conditions, then the finite-n rule: `split_ratio` < [`SPLIT_LIMIT`]).
pub fn predict_multiclass(
    s: &MulticlassSetting,
    al: f64,
    au: f64,
    lambda: f64,
) -> Result<MulticlassPrediction, Invalid> {
    let p = predict_multiclass_limit(s, al, au, lambda)?;
    if !(p.split_ratio < SPLIT_LIMIT) {
        return Err(Invalid::SplitSpikes);
    }
    Ok(p)
}

/// The K-class Theorem 1 under the limit's validity conditions only, without the finite-n
/// rule (for the check against simulation, which reports both).
pub fn predict_multiclass_limit(
    s: &MulticlassSetting,
    al: f64,
    au: f64,
    lambda: f64,
) -> Result<MulticlassPrediction, Invalid> {
    let (r, k) = (Ratios::of(s), s.classes());
    let delta = fixed_point(&r.pooled(), al, au, lambda)?;
    let phi = r.phi(al, au, delta);
    let sv = lambda - phi.iter().sum::<f64>();
    if !(sv > top_eig(s, &phi)) {
        return Err(Invalid::Spike);
    }
    // MᵀQ̄M = G(sI − ΦG)⁻¹ and MᵀQ̄²M = (sI − ΦG)⁻ᵀG(sI − ΦG)⁻¹.
    let shifted =
        Mat::from_fn(k, k, |i, j| sv * f64::from(u8::from(i == j)) - phi[i] * s.g[(i, j)]);
    let inv = shifted.partial_piv_lu().solve(Mat::<f64>::identity(k, k));
    let mqm = &s.g * &inv;
    let mq2m = inv.transpose() * &s.g * &inv;
    let t2 = r.c0 / (sv * sv);
    let psi: Vec<f64> = (0..k)
        .map(|j| {
            r.cu[j] * au * au / (1.0 - au * delta).powi(2)
                + r.cl[j] * al * al / (1.0 + al * delta).powi(2)
        })
        .collect();
    let psi_total: f64 = psi.iter().sum();
    if !(1.0 - t2 * psi_total > 0.0) {
        return Err(Invalid::Variance);
    }
    let split_ratio = split_ratio(s, &phi, &psi, sv);
    let theta = t2 / (1.0 - t2 * psi_total);
    let a = 1.0 / (1.0 + al * delta);
    // The statistics g_k = (1/n) Σ_{labeled i of class k} x_iᵀQx: means ν_j, covariance S.
    let nu = |j: usize, c: usize| a * r.cl[c] * mqm[(c, j)];
    let cov_g = Mat::from_fn(k, k, |i, j| {
        let middle: f64 = (0..k).map(|c| mqm[(i, c)] * psi[c] * mqm[(c, j)]).sum();
        let h = (1.0 + theta * psi_total) * mq2m[(i, j)] + theta * middle;
        let own = if i == j { theta * r.cl[i] } else { 0.0 };
        a * a * (own + r.cl[i] * r.cl[j] * (h - 2.0 * al * theta * a * mqm[(i, j)]))
    });
    let classes: Vec<usize> = (0..k).collect();
    let w = label_matrix(&classes, k).map_err(|_| Invalid::NonFinite)?;
    let w = Mat::from_fn(k, k, |i, j| w[[i, j]]);
    let covariance = w.transpose() * &cov_g * &w;
    let means: Vec<Vec<f64>> = (0..k)
        .map(|j| (0..k).map(|c| (0..k).map(|i| w[(i, c)] * nu(j, i)).sum()).collect())
        .collect();
    let finite = means.iter().flatten().all(|v| v.is_finite())
        && (0..k).all(|i| (0..k).all(|j| covariance[(i, j)].is_finite()))
        && (0..k).all(|i| covariance[(i, i)] > 0.0);
    if !finite {
        return Err(Invalid::NonFinite);
    }
    let class_errors: Vec<f64> = (0..k).map(|j| argmax_error(&means[j], &covariance, j)).collect();
    let rho = s.unlabeled_proportions();
    let error = rho.iter().zip(&class_errors).map(|(p, e)| p * e).sum();
    Ok(MulticlassPrediction { means, covariance, class_errors, error, delta, split_ratio })
}

/// 1 − P(f_j > f_c for all c ≠ j) for f ~ N(`mean`, `cov`): the orthant of the differences.
fn argmax_error(mean: &[f64], cov: &Mat<f64>, j: usize) -> f64 {
    let others: Vec<usize> = (0..mean.len()).filter(|c| *c != j).collect();
    let diff_mean: Vec<f64> = others.iter().map(|c| mean[j] - mean[*c]).collect();
    let diff_cov = Mat::from_fn(others.len(), others.len(), |a, b| {
        let (c, e) = (others[a], others[b]);
        cov[(j, j)] - cov[(j, e)] - cov[(c, j)] + cov[(c, e)]
    });
    1.0 - orthant_probability(&diff_mean, &diff_cov, ARGMAX_DRAWS, ARGMAX_SEED + j as u64)
}

/// The right edge of the spectrum of the policy's matrix for K classes (bulk edge, or the
/// spike of the means once it leaves the bulk), as [`super::spectrum_edge`] for K = 2.
pub fn multiclass_edge(s: &MulticlassSetting, matrix: EdgeMatrix) -> f64 {
    let (al, au) = matrix.alphas();
    let r = Ratios::of(s);
    let lambda = |delta: f64| r.c0 / delta + r.phi(al, au, delta).iter().sum::<f64>();
    let spike_ok = |delta: f64| r.c0 / delta > top_eig(s, &r.phi(al, au, delta));
    edge_along(lambda, spike_ok, 1e-14)
}

/// The λ at which to evaluate the K-class theory for a λ policy: (1+ε)·edge for the
/// eigenvalue policies; a fixed λ divided by `variance`, the factor the data were rescaled
/// by (as [`super::theory_lambda`]).
pub fn multiclass_lambda(
    s: &MulticlassSetting,
    policy: LambdaPolicy,
    variance: f64,
) -> Result<f64> {
    let lambda = match policy {
        LambdaPolicy::MaxEigAll { epsilon } => {
            (1.0 + epsilon) * multiclass_edge(s, EdgeMatrix::All)
        }
        LambdaPolicy::MaxEigUnlabeled { epsilon } => {
            (1.0 + epsilon) * multiclass_edge(s, EdgeMatrix::Unlabeled)
        }
        LambdaPolicy::Fixed(l) => l / variance,
    };
    if lambda.is_finite() {
        Ok(lambda)
    } else {
        Err(Error::Data(format!("multi-class theory: no finite λ for {}", policy.name())))
    }
}
