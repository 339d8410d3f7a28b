//! Theorem 1, isotropic case (spec §2): the fixed point for δ, then m_j, σ² and the error.
// `!(x > 0.0)` on purpose: a NaN must fail the validity checks too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::{Setting, normal_cdf};

/// Gaussian limit of the scores f(x) = ωᵀx/√n of each unlabeled class, and the error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prediction {
    /// Mean score of class 1 (label +1) and class 2 (label −1).
    pub m: [f64; 2],
    /// Common standard deviation of the scores.
    pub sigma: f64,
    /// Σ_j ρ_j Φ_N(−y_j m_j/σ), ρ_j the unlabeled class proportions.
    pub error: f64,
    /// The fixed point δ.
    pub delta: f64,
}

/// Why the theory has no value at a point (λ inside the spectrum, or beyond a pole).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    #[error("no positive fixed point δ (λ is inside the bulk of the spectrum)")]
    NoFixedPoint,
    #[error("α_u δ ≥ 1 or 1 + α_l δ ≤ 0 (pole of φ)")]
    Pole,
    #[error("s ≤ λ_max(ΦG) (λ is below an isolated spike)")]
    Spike,
    #[error("1 − t₂ψ ≤ 0 (variance diverges)")]
    Variance,
    #[error("a non-finite quantity")]
    NonFinite,
    /// K classes only: see `multiclass_split`.
    #[error(
        "coinciding signal spikes split at finite n by ≥ 10% of λ's distance above them (K-class finite-n rule)"
    )]
    SplitSpikes,
}

const MAX_ITER: usize = 200_000;
const TOL: f64 = 1e-13;

/// Per-class ratios c_lk = n_lk/n, c_uk = n_uk/n and c_0 = d/n.
pub(super) struct Ratios {
    pub(super) cl: [f64; 2],
    pub(super) cu: [f64; 2],
    pub(super) c0: f64,
}

impl Ratios {
    pub(super) fn of(s: &Setting) -> Self {
        let n = s.n() as f64;
        Ratios {
            cl: s.labeled.map(|v| v as f64 / n),
            cu: s.unlabeled.map(|v| v as f64 / n),
            c0: s.dim as f64 / n,
        }
    }

    /// φ_k(δ) = c_uk α_u/(1 − α_u δ) − c_lk α_l/(1 + α_l δ).
    pub(super) fn phi(&self, al: f64, au: f64, delta: f64) -> [f64; 2] {
        [0, 1].map(|k| self.cu[k] * au / (1.0 - au * delta) - self.cl[k] * al / (1.0 + al * delta))
    }
}

pub(super) fn poles_ok(al: f64, au: f64, delta: f64) -> bool {
    au * delta < 1.0 && 1.0 + al * delta > 0.0
}

/// The smallest positive root of δ(λ − Σφ_k(δ)) = c_0, by δ ← c_0/s(δ) from δ = 0 (the
/// iterates increase monotonically to it). α_l < 0 is allowed: (−1, 1) describes X Xᵀ/n.
pub(super) fn fixed_point(r: &Ratios, al: f64, au: f64, lambda: f64) -> Result<f64, Invalid> {
    let mut delta = 0.0;
    for _ in 0..MAX_ITER {
        let phi = r.phi(al, au, delta);
        let s = lambda - phi[0] - phi[1];
        if !(s > 0.0) {
            return Err(Invalid::NoFixedPoint);
        }
        let next = r.c0 / s;
        if !poles_ok(al, au, next) {
            return Err(Invalid::Pole);
        }
        if (next - delta).abs() <= TOL * next {
            return Ok(next);
        }
        delta = next;
    }
    Err(Invalid::NoFixedPoint)
}

/// Largest real part of the eigenvalues of the 2×2 matrix `a`.
pub(super) fn top_eig_2x2(a: [[f64; 2]; 2]) -> f64 {
    let half_tr = 0.5 * (a[0][0] + a[1][1]);
    let det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    half_tr + (half_tr * half_tr - det).max(0.0).sqrt()
}

pub(super) fn mul(a: [[f64; 2]; 2], b: [[f64; 2]; 2]) -> [[f64; 2]; 2] {
    [0, 1].map(|i| [0, 1].map(|j| a[i][0] * b[0][j] + a[i][1] * b[1][j]))
}

fn transpose(a: [[f64; 2]; 2]) -> [[f64; 2]; 2] {
    [[a[0][0], a[1][0]], [a[0][1], a[1][1]]]
}

/// Solves `a x = b` for 2×2 matrices; None when `a` is singular.
pub(super) fn solve(a: [[f64; 2]; 2], b: [[f64; 2]; 2]) -> Option<[[f64; 2]; 2]> {
    let det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    if det == 0.0 || !det.is_finite() {
        return None;
    }
    let inv = [[a[1][1] / det, -a[0][1] / det], [-a[1][0] / det, a[0][0] / det]];
    Some(mul(inv, b))
}

/// Theorem 1 at (α_l, α_u, λ) for the setting, or why it has no value there.
pub fn predict(setting: &Setting, al: f64, au: f64, lambda: f64) -> Result<Prediction, Invalid> {
    let r = Ratios::of(setting);
    let g = setting.g;
    let delta = fixed_point(&r, al, au, lambda)?;
    let phi = r.phi(al, au, delta);
    let s = lambda - phi[0] - phi[1];
    let phi_g = [[phi[0] * g[0][0], phi[0] * g[0][1]], [phi[1] * g[1][0], phi[1] * g[1][1]]];
    if !(s > top_eig_2x2(phi_g)) {
        return Err(Invalid::Spike);
    }
    // R = (sI − ΦG)⁻¹Φ, B = I + RG.
    let shifted = [[s - phi_g[0][0], -phi_g[0][1]], [-phi_g[1][0], s - phi_g[1][1]]];
    let rr = solve(shifted, [[phi[0], 0.0], [0.0, phi[1]]]).ok_or(Invalid::Spike)?;
    let rg = mul(rr, g);
    let b = [[1.0 + rg[0][0], rg[0][1]], [rg[1][0], 1.0 + rg[1][1]]];
    let mqm = mul(g, b).map(|row| row.map(|v| v / s));
    let mq2m = mul(mul(transpose(b), g), b).map(|row| row.map(|v| v / (s * s)));
    let t2 = r.c0 / (s * s);
    let psi_k = [0, 1].map(|k| {
        r.cu[k] * au * au / (1.0 - au * delta).powi(2)
            + r.cl[k] * al * al / (1.0 + al * delta).powi(2)
    });
    let psi = psi_k[0] + psi_k[1];
    if !(1.0 - t2 * psi > 0.0) {
        return Err(Invalid::Variance);
    }
    let theta = t2 / (1.0 - t2 * psi);
    let mid = mul(mul(mqm, [[psi_k[0], 0.0], [0.0, psi_k[1]]]), mqm);
    let a = 1.0 / (1.0 + al * delta);
    let y = [1.0, -1.0];
    let cl_total = r.cl[0] + r.cl[1];
    // The spec's m_j and σ (with factors √n and n) describe ωᵀx = √n f(x); sslab's score is
    // f(x) = ωᵀx/√n, so both are given here without those factors (the error is unchanged).
    let m = [0, 1].map(|j| (0..2).map(|k| r.cl[k] * y[k] * a * mqm[k][j]).sum::<f64>());
    let mut var = theta * a * a * cl_total;
    for k in 0..2 {
        for kk in 0..2 {
            let h = (1.0 + theta * psi) * mq2m[k][kk] + theta * mid[k][kk];
            var +=
                r.cl[k] * r.cl[kk] * y[k] * y[kk] * a * a * (h - 2.0 * al * theta * a * mqm[k][kk]);
        }
    }
    let sigma = var.sqrt();
    let rho = setting.unlabeled_proportions();
    let error = (0..2).map(|j| rho[j] * normal_cdf(-y[j] * m[j] / sigma)).sum();
    let p = Prediction { m, sigma, error, delta };
    let finite = m.iter().all(|v| v.is_finite()) && sigma.is_finite() && sigma > 0.0;
    if finite { Ok(p) } else { Err(Invalid::NonFinite) }
}
