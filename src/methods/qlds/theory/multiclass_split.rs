//! The K-class theory's finite-n validity rule (docs/methods/qlds.md, "Coinciding spikes"):
//! signal spikes of ΦG that coincide within their finite-n spread split at finite n into
//! directions the limit does not fix, and the weights 1/(s − ℓ̂_i) then differ by class;
//! the theory is not used where that spread is ≥ [`SPLIT_LIMIT`] of λ's distance above them.

use faer::{Mat, Side};

use super::MulticlassSetting;

/// Largest finite-n standard deviation of a coinciding signal spike, as a fraction of
/// s − ℓ (λ's distance above it), at which the K-class theory is still used.
pub const SPLIT_LIMIT: f64 = 0.1;

/// max σ_i/(s − ℓ_i) over the positive eigenvalues ℓ_i of ΦG (s the theory's shift) that coincide with a
/// neighbour (|ℓ_i − ℓ_{i±1}| < σ_i + σ_{i±1}); 0 when none does (NaN on failure).
///
/// σ_i is the first-order finite-n standard deviation of ℓ_i: with v_i the unit eigenvector
/// of MΦMᵀ, the noise of the points enters MΦMᵀ through the class sums, μ_k η_kᵀ + η_k μ_kᵀ
/// with η_k ~ N(0, ψ_k/n) per coordinate, and through the projected noise Gram matrix
/// (variance ψ/n off the diagonal): σ_i² = (2ψ + 4 Σ_k (v_iᵀμ_k)² ψ_k)/n, where
/// v_iᵀμ_k = (G^{1/2}u_i)_k for u_i the eigenvector of G^{1/2}ΦG^{1/2}.
pub(super) fn split_ratio(s: &MulticlassSetting, phi: &[f64], psi: &[f64], sv: f64) -> f64 {
    let k = phi.len();
    let h = &s.g_sqrt;
    let sym =
        Mat::from_fn(k, k, |i, j| (0..k).map(|r| h[(i, r)] * phi[r] * h[(r, j)]).sum::<f64>());
    let Ok(evd) = sym.self_adjoint_eigen(Side::Lower) else { return f64::NAN };
    let (u, ell) = (evd.U(), evd.S().column_vector());
    let (n, psi_total) = (s.n() as f64, psi.iter().sum::<f64>());
    // (ℓ_i, σ_i) of the positive eigenvalues (above rounding: G is singular), largest first.
    let scale = (0..k).fold(0.0f64, |m, i| m.max(ell[i].abs()));
    let mut spikes: Vec<(f64, f64)> = (0..k)
        .rev()
        .filter(|&i| ell[i] > 1e-12 * scale)
        .map(|i| {
            let loading = |c: usize| (0..k).map(|r| h[(c, r)] * u[(r, i)]).sum::<f64>();
            let signal: f64 = (0..k).map(|c| loading(c).powi(2) * psi[c]).sum();
            (ell[i], ((2.0 * psi_total + 4.0 * signal) / n).sqrt())
        })
        .collect();
    spikes.sort_by(|a, b| b.0.total_cmp(&a.0));
    let coincides = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).abs() < a.1 + b.1;
    (0..spikes.len())
        .filter(|&i| {
            (i > 0 && coincides(spikes[i - 1], spikes[i]))
                || (i + 1 < spikes.len() && coincides(spikes[i], spikes[i + 1]))
        })
        .map(|i| spikes[i].1 / (sv - spikes[i].0))
        .fold(0.0, f64::max)
}
