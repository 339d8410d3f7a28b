//! The theoretical right edge of the spectrum (bulk or isolated spike) of the matrix the λ
//! policy looks at, found by bisection on λ, and λ_th = (1+ε)·edge (spec §2).

use super::Setting;
use super::isotropic::outside_spectrum;
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
    fn alphas(self) -> (f64, f64) {
        match self {
            EdgeMatrix::All => (-1.0, 1.0),
            EdgeMatrix::Unlabeled => (0.0, 1.0),
        }
    }
}

/// The smallest λ right of which the fixed point is valid (to relative precision 1e-12).
pub fn spectrum_edge(setting: &Setting, matrix: EdgeMatrix) -> Result<f64> {
    let (al, au) = matrix.alphas();
    let outside = |l: f64| outside_spectrum(setting, al, au, l);
    let mut hi = 1.0;
    while !outside(hi) {
        hi *= 2.0;
        if !hi.is_finite() || hi > 1e300 {
            return Err(Error::Data("theory: no λ lies right of the spectrum".into()));
        }
    }
    let mut lo = 0.0;
    while hi - lo > 1e-12 * hi {
        let mid = 0.5 * (lo + hi);
        if outside(mid) { hi = mid } else { lo = mid }
    }
    Ok(hi)
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
        LambdaPolicy::MaxEigUnlabeled { epsilon } => lambda_th(setting, EdgeMatrix::Unlabeled, epsilon),
        LambdaPolicy::Fixed(l) => Ok(l / variance),
    }
}
