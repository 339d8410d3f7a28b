//! Theorem 1 with a common class covariance C (the general-covariance theorem with
//! C_1 = C_2 = C), computed in C's eigenbasis: Q̃ is diagonal, and the class means enter only
//! through 2×2 forms MᵀAM with A diagonal, which are estimated from two independent halves
//! of each class (unbiased, as G in spec §3). Cheap enough for the right edge of the
//! spectrum and a whole selection grid at d = 400.
// `!(x < 1.0)` on purpose: a NaN must fail the validity checks too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::edge::EdgeMatrix;
use super::general::GeneralPrediction;
use super::isotropic::{Invalid, mul, poles_ok, solve, top_eig_2x2};
use super::normal_cdf;
use super::setting::centre_gram;
use crate::error::{Error, Result};
use crate::methods::qlds::LambdaPolicy;

/// Counts, the eigenvalues of C and the class means in C's eigenbasis.
#[derive(Debug, Clone, PartialEq)]
pub struct CommonSetting {
    pub labeled: [usize; 2],
    pub unlabeled: [usize; 2],
    /// Eigenvalues c_i of C (negative ones are clipped to 0 when built).
    pub spectrum: Vec<f64>,
    /// Per class (label +1, then −1): the means of two disjoint halves of its rows, and the
    /// mean of all its rows, in C's eigenbasis and before centring.
    pub halves: [[Vec<f64>; 2]; 2],
    pub means: [Vec<f64>; 2],
}

const MAX_ITER: usize = 200_000;
const TOL: f64 = 1e-13;

impl CommonSetting {
    /// Checks the lengths and the counts, clips negative eigenvalues to 0.
    pub fn new(
        labeled: [usize; 2],
        unlabeled: [usize; 2],
        spectrum: Vec<f64>,
        halves: [[Vec<f64>; 2]; 2],
        means: [Vec<f64>; 2],
    ) -> Result<Self> {
        let d = spectrum.len();
        let lengths = halves.iter().flatten().chain(&means).all(|v| v.len() == d);
        if d == 0 || !lengths || spectrum.iter().any(|c| !c.is_finite()) {
            return Err(Error::param(
                "covariance",
                "needs d ≥ 1 finite eigenvalues and class means of length d",
            ));
        }
        if labeled[0] + labeled[1] == 0 {
            return Err(Error::param("labeled", "needs at least one labeled point"));
        }
        let spectrum = spectrum.into_iter().map(|c| c.max(0.0)).collect();
        Ok(CommonSetting { labeled, unlabeled, spectrum, halves, means })
    }

    fn n(&self) -> f64 {
        self.labeled.iter().chain(&self.unlabeled).sum::<usize>() as f64
    }

    /// The centred form MᵀAM for A = diag(w): a split-halves product on the diagonal, the
    /// full means across classes, then centred with the class shares of the counts.
    fn form(&self, w: &[f64]) -> [[f64; 2]; 2] {
        let dot = |a: &[f64], b: &[f64]| w.iter().zip(a).zip(b).map(|((w, a), b)| w * a * b).sum();
        let h = &self.halves;
        let g01: f64 = dot(&self.means[0], &self.means[1]);
        let raw = [[dot(&h[0][0], &h[0][1]), g01], [g01, dot(&h[1][0], &h[1][1])]];
        let n = self.n();
        let rho = [0, 1].map(|k| (self.labeled[k] + self.unlabeled[k]) as f64 / n);
        let c = centre_gram(raw, rho);
        let off = 0.5 * (c[0][1] + c[1][0]);
        [[c[0][0], off], [off, c[1][1]]]
    }

    /// φ_k(δ) of the two classes.
    fn phi(&self, al: f64, au: f64, delta: f64) -> [f64; 2] {
        let n = self.n();
        [0, 1].map(|k| {
            self.unlabeled[k] as f64 / n * au / (1.0 - au * delta)
                - self.labeled[k] as f64 / n * al / (1.0 + al * delta)
        })
    }

    /// (1/n) tr(C (λI − ΦC)⁻¹), or None when λI − ΦC is not positive definite.
    fn trace(&self, lambda: f64, total_phi: f64) -> Option<f64> {
        let mut t = 0.0;
        for c in &self.spectrum {
            let den = lambda - total_phi * c;
            if !(den > 0.0) {
                return None;
            }
            t += c / den;
        }
        Some(t / self.n())
    }
}

/// The fixed point δ = (1/n) tr(C Q̃(δ)), iterated from 0 (the iterates increase to the
/// smallest root, as in the isotropic case).
fn fixed_point(s: &CommonSetting, al: f64, au: f64, lambda: f64) -> Result<f64, Invalid> {
    let mut delta = 0.0;
    for _ in 0..MAX_ITER {
        let phi = s.phi(al, au, delta);
        let next = s.trace(lambda, phi[0] + phi[1]).ok_or(Invalid::NoFixedPoint)?;
        if !poles_ok(al, au, next) {
            return Err(Invalid::Pole);
        }
        if (next - delta).abs() <= TOL * next.max(f64::MIN_POSITIVE) {
            return Ok(next);
        }
        delta = next;
    }
    Err(Invalid::NoFixedPoint)
}

/// Theorem 1 with the common covariance at (α_l, α_u, λ), or why it has no value there.
/// The means and spreads are those of the score f(x) = ωᵀx/√n; σ_1 = σ_2 here.
pub fn predict_common(
    s: &CommonSetting,
    al: f64,
    au: f64,
    lambda: f64,
) -> Result<GeneralPrediction, Invalid> {
    let n = s.n();
    let delta = fixed_point(s, al, au, lambda)?;
    let phi = s.phi(al, au, delta);
    let total = phi[0] + phi[1];
    let w: Vec<f64> = s.spectrum.iter().map(|c| 1.0 / (lambda - total * c)).collect();
    // K = MᵀQ̃M; Q̄M = Q̃M B with B = (I − ΦK)⁻¹ (Woodbury), valid while λ_max(ΦK) < 1.
    let k = s.form(&w);
    let phi_k = mul([[phi[0], 0.0], [0.0, phi[1]]], k);
    if !(top_eig_2x2(phi_k) < 1.0) {
        return Err(Invalid::Spike);
    }
    let b = solve([[1.0 - phi_k[0][0], -phi_k[0][1]], [-phi_k[1][0], 1.0 - phi_k[1][1]]], I2)
        .ok_or(Invalid::Spike)?;
    let mqm = mul(k, b);
    let cw2: Vec<f64> = s.spectrum.iter().zip(&w).map(|(c, w)| c * w * w).collect();
    let spread = mul(mul(transpose(b), s.form(&cw2)), b);
    let t = s.spectrum.iter().zip(&w).map(|(c, w)| (c * w).powi(2)).sum::<f64>() / n;
    let ratio = |counts: [usize; 2]| counts.map(|v| v as f64 / n);
    let (cl, cu) = (ratio(s.labeled), ratio(s.unlabeled));
    let psi = [0, 1].map(|k| {
        cu[k] * au * au / (1.0 - au * delta).powi(2) + cl[k] * al * al / (1.0 + al * delta).powi(2)
    });
    // T = t·11ᵀ; v = (I − TΨ)⁻¹T has equal entries v = t/(1 − t(ψ_1 + ψ_2)).
    let denominator = 1.0 - t * (psi[0] + psi[1]);
    if !(denominator > 0.0) {
        return Err(Invalid::Variance);
    }
    let v = t / denominator;
    let a = 1.0 / (1.0 + al * delta);
    let y = [1.0, -1.0];
    let m = [0, 1].map(|j| (0..2).map(|k| cl[k] * y[k] * a * mqm[k][j]).sum::<f64>());
    let mut h = spread;
    for (k, pk) in psi.iter().enumerate() {
        for (r, c) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            h[r][c] += pk * v * (spread[r][c] + mqm[r][k] * mqm[k][c]);
        }
    }
    let mut var = (cl[0] + cl[1]) * a * a * v;
    for k in 0..2 {
        for kk in 0..2 {
            var +=
                cl[k] * cl[kk] * y[k] * y[kk] * a * a * (h[k][kk] - 2.0 * al * a * v * mqm[k][kk]);
        }
    }
    let sigma = var.sqrt();
    if !(m.iter().all(|v| v.is_finite()) && sigma.is_finite() && sigma > 0.0) {
        return Err(Invalid::NonFinite);
    }
    let counts = if s.unlabeled[0] + s.unlabeled[1] > 0 { s.unlabeled } else { s.labeled };
    let rho = counts.map(|c| c as f64 / (counts[0] + counts[1]) as f64);
    let error = (0..2).map(|j| rho[j] * normal_cdf(-y[j] * m[j] / sigma)).sum();
    Ok(GeneralPrediction { m, sigma: [sigma; 2], error, delta: [delta; 2] })
}

const I2: [[f64; 2]; 2] = [[1.0, 0.0], [0.0, 1.0]];

fn transpose(a: [[f64; 2]; 2]) -> [[f64; 2]; 2] {
    [[a[0][0], a[1][0]], [a[0][1], a[1][1]]]
}

/// The right edge of the spectrum of the policy's matrix under the common-covariance model
/// (bulk edge, or the spike of the means when it leaves the bulk).
///
/// For each δ, λ(δ) solves (1/n) tr(C (λI − Φ(δ)C)⁻¹) = δ (bisection; the left side
/// decreases in λ); the bulk edge is the minimum of λ(δ) over δ ∈ (0, 1) (golden section),
/// and where the means' spike condition λ_max(ΦK) < 1 fails first, the edge is λ at the
/// crossing δ* (bisection).
pub fn common_edge(s: &CommonSetting, matrix: EdgeMatrix) -> Result<f64> {
    let (al, au) = matrix.alphas();
    let c_max = s.spectrum.iter().fold(0.0f64, |m, c| m.max(*c));
    let c_sum: f64 = s.spectrum.iter().sum();
    if !(c_sum > 0.0) {
        return Err(Error::Data("theory: the covariance estimate is 0".into()));
    }
    let n = s.n();
    let lambda = |delta: f64| {
        let phi = s.phi(al, au, delta);
        let total = phi[0] + phi[1];
        let (mut lo, mut hi) = (total * c_max, total * c_max + c_sum / (n * delta));
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            match s.trace(mid, total) {
                Some(t) if t > delta => lo = mid,
                Some(_) => hi = mid,
                None => lo = mid,
            }
            if hi - lo <= 1e-15 * hi {
                break;
            }
        }
        hi
    };
    let spike_ok = |delta: f64| {
        let l = lambda(delta);
        let phi = s.phi(al, au, delta);
        let total = phi[0] + phi[1];
        let w: Vec<f64> = s.spectrum.iter().map(|c| 1.0 / (l - total * c)).collect();
        top_eig_2x2(mul([[phi[0], 0.0], [0.0, phi[1]]], s.form(&w))) < 1.0
    };
    Ok(super::edge::edge_along(lambda, spike_ok, 1e-12))
}

/// The λ at which to evaluate the common-covariance theory for a policy: (1+ε)·edge for
/// the eigenvalue policies, the fixed λ itself (C is in the data's units).
pub fn common_lambda(s: &CommonSetting, policy: LambdaPolicy) -> Result<f64> {
    match policy {
        LambdaPolicy::MaxEigAll { epsilon } => {
            Ok((1.0 + epsilon) * common_edge(s, EdgeMatrix::All)?)
        }
        LambdaPolicy::MaxEigUnlabeled { epsilon } => {
            Ok((1.0 + epsilon) * common_edge(s, EdgeMatrix::Unlabeled)?)
        }
        LambdaPolicy::Fixed(l) => Ok(l),
    }
}
