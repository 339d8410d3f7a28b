//! The theoretical right edge of the spectrum (bulk or isolated spike) of the matrix the λ
//! policy looks at, and λ_th = (1+ε)·edge (spec §2).

use super::Setting;
use super::isotropic::{Ratios, top_eig_2x2};
use crate::error::{Error, Result};
use crate::methods::qlds::LambdaPolicy;

/// The matrix whose top eigenvalue sets λ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeMatrix {
    /// X Xᵀ/n = C_l + C_u: the fixed point with (α_l, α_u) = (−1, 1).
    All,
    /// C_u: the fixed point with (α_l, α_u) = (0, 1).
    Unlabeled,
}

impl EdgeMatrix {
    pub(super) fn alphas(self) -> (f64, f64) {
        match self {
            EdgeMatrix::All => (-1.0, 1.0),
            EdgeMatrix::Unlabeled => (0.0, 1.0),
        }
    }
}

/// The smallest λ right of which the theory is valid (bulk edge or isolated spike).
///
/// Along the fixed point, λ(δ) = c_0/δ + Σ_k φ_k(δ) (so that s = c_0/δ); λ decreases from
/// ∞ as δ grows from 0 until its minimum, the bulk edge (λ(δ) is convex for both matrices;
/// golden-section search). The spike condition s > λ_max(Φ(δ)G) fails first when a spike
/// leaves the bulk: its crossing δ* is found by bisection and the edge is λ(δ*).
pub fn spectrum_edge(setting: &Setting, matrix: EdgeMatrix) -> Result<f64> {
    let (al, au) = matrix.alphas();
    let r = Ratios::of(setting);
    if r.c0 <= 0.0 {
        return Err(Error::Data("theory: the spectrum edge needs d ≥ 1".into()));
    }
    let lambda = |delta: f64| {
        let phi = r.phi(al, au, delta);
        r.c0 / delta + phi[0] + phi[1]
    };
    let spike_ok = |delta: f64| {
        let phi = r.phi(al, au, delta);
        let g = setting.g;
        r.c0 / delta
            > top_eig_2x2([
                [phi[0] * g[0][0], phi[0] * g[0][1]],
                [phi[1] * g[1][0], phi[1] * g[1][1]],
            ])
    };
    // Both matrices have their pole at δ = 1 (α_u = 1).
    Ok(edge_along(lambda, spike_ok, 1e-14))
}

/// The edge along δ ∈ (0, 1): the minimum of `lambda` (golden section to `tol`) when the
/// spike condition `spike_ok` holds there, else `lambda` at the largest δ below it where
/// it holds (bisection to `tol / 10`).
pub(super) fn edge_along(
    lambda: impl Fn(f64) -> f64,
    spike_ok: impl Fn(f64) -> bool,
    tol: f64,
) -> f64 {
    let (mut lo, mut hi) = (0.0, 1.0);
    let inv_phi = 0.5 * (5f64.sqrt() - 1.0);
    while hi - lo > tol {
        let (a, b) = (hi - inv_phi * (hi - lo), lo + inv_phi * (hi - lo));
        if lambda(a) < lambda(b) { hi = b } else { lo = a }
    }
    let delta_min = 0.5 * (lo + hi);
    if spike_ok(delta_min) {
        return lambda(delta_min);
    }
    let (mut lo, mut hi) = (0.0, delta_min);
    while hi - lo > tol / 10.0 {
        let mid = 0.5 * (lo + hi);
        if spike_ok(mid) { lo = mid } else { hi = mid }
    }
    lambda(lo)
}

/// λ_th = (1+ε)·edge, where the theory is evaluated when λ = (1+ε)·λ̂_max empirically.
pub fn lambda_th(setting: &Setting, matrix: EdgeMatrix, epsilon: f64) -> Result<f64> {
    Ok((1.0 + epsilon) * spectrum_edge(setting, matrix)?)
}

/// The λ at which to evaluate the theory for a λ policy: λ_th for the eigenvalue policies;
/// a fixed λ divided by `variance`, the factor the data were rescaled by (X → X/√variance).
pub fn theory_lambda(setting: &Setting, policy: LambdaPolicy, variance: f64) -> Result<f64> {
    match policy {
        LambdaPolicy::MaxEigAll { epsilon } => lambda_th(setting, EdgeMatrix::All, epsilon),
        LambdaPolicy::MaxEigUnlabeled { epsilon } => {
            lambda_th(setting, EdgeMatrix::Unlabeled, epsilon)
        }
        LambdaPolicy::Fixed(l) => Ok(l / variance),
    }
}
