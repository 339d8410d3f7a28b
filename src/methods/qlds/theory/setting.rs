//! What the isotropic theory needs: dimension, per-class counts and G = MᵀM.

use ndarray::Array1;

use crate::data::synthetic::GaussianMixture;
use crate::error::{Error, Result};

/// Largest |G_12 − G_21| accepted, relative to max |G_jk| (rounding, not asymmetry).
const SYMMETRY_TOL: f64 = 1e-12;

/// A two-class setting: class 1 has label +1, class 2 label −1; within-class covariance I_d.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Setting {
    pub dim: usize,
    /// Labeled counts (n_l1, n_l2).
    pub labeled: [usize; 2],
    /// Unlabeled counts (n_u1, n_u2).
    pub unlabeled: [usize; 2],
    /// G = MᵀM with M = [μ₁, μ₂] (symmetric).
    pub g: [[f64; 2]; 2],
}

impl Setting {
    /// Checks d ≥ 1, at least one labeled point, a finite G with G_jj ≥ 0, symmetric up to
    /// 1e-12 of its largest entry (then stored exactly symmetric).
    pub fn new(
        dim: usize,
        labeled: [usize; 2],
        unlabeled: [usize; 2],
        g: [[f64; 2]; 2],
    ) -> Result<Self> {
        if dim == 0 {
            return Err(Error::param("dim", "must be ≥ 1"));
        }
        if labeled[0] + labeled[1] == 0 {
            return Err(Error::param("labeled", "needs at least one labeled point"));
        }
        let finite = g.iter().flatten().all(|v| v.is_finite());
        // Symmetric up to rounding relative to G's scale (centring leaves ~1e-16·‖G‖).
        let scale = g.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs()));
        let symmetric = (g[0][1] - g[1][0]).abs() <= SYMMETRY_TOL * scale;
        if !finite || !symmetric || g[0][0] < 0.0 || g[1][1] < 0.0 {
            return Err(Error::param(
                "g",
                format!("must be symmetric and finite with G_jj ≥ 0, got {g:?}"),
            ));
        }
        let g01 = 0.5 * (g[0][1] + g[1][0]);
        Ok(Setting { dim, labeled, unlabeled, g: [[g[0][0], g01], [g01, g[1][1]]] })
    }

    /// μ₁ = −μ₂ = μ with ‖μ‖ = `norm`, centred as QLDS centres: [`Setting::centred`] of
    /// G = ‖μ‖² [[1, −1], [−1, 1]] (that G itself when the classes have equal counts).
    pub fn symmetric(
        dim: usize,
        labeled: [usize; 2],
        unlabeled: [usize; 2],
        norm: f64,
    ) -> Result<Self> {
        if !(norm.is_finite() && norm >= 0.0) {
            return Err(Error::param("mean_norm", format!("must be finite and ≥ 0, got {norm}")));
        }
        let q = norm * norm;
        Self::centred(dim, labeled, unlabeled, [[q, -q], [-q, q]])
    }

    /// The setting of class means with Gram matrix `g` = MᵀM (as given, uncentred) after
    /// centring with the population mean of the given counts: G = P g Pᵀ, P = I − 1ρᵀ.
    pub fn centred(
        dim: usize,
        labeled: [usize; 2],
        unlabeled: [usize; 2],
        g: [[f64; 2]; 2],
    ) -> Result<Self> {
        let n = (labeled[0] + labeled[1] + unlabeled[0] + unlabeled[1]) as f64;
        let rho = [0, 1].map(|k| (labeled[k] + unlabeled[k]) as f64 / n);
        Self::new(dim, labeled, unlabeled, centre_gram(g, rho))
    }

    /// The exact setting of a Gaussian mixture with identity covariances: G of the class
    /// means centred with their population mean over the n points (shares of the counts).
    pub fn from_mixture(
        mixture: &GaussianMixture,
        labeled: [usize; 2],
        unlabeled: [usize; 2],
    ) -> Result<Self> {
        if mixture.variances.iter().flatten().any(|v| *v != 1.0) {
            return Err(Error::param(
                "variances",
                "the isotropic theory needs identity class covariances",
            ));
        }
        let m = centred_means(mixture, labeled, unlabeled);
        let g01 = m[0].dot(&m[1]);
        Self::new(
            mixture.dim(),
            labeled,
            unlabeled,
            [[m[0].dot(&m[0]), g01], [g01, m[1].dot(&m[1])]],
        )
    }

    /// n = n_l + n_u.
    pub fn n(&self) -> usize {
        self.labeled.iter().chain(&self.unlabeled).sum()
    }

    /// Class proportions ρ_j of the unlabeled set (of the labeled set when it is empty).
    pub fn unlabeled_proportions(&self) -> [f64; 2] {
        let counts =
            if self.unlabeled[0] + self.unlabeled[1] > 0 { self.unlabeled } else { self.labeled };
        let total = (counts[0] + counts[1]) as f64;
        [counts[0] as f64 / total, counts[1] as f64 / total]
    }
}

/// The class means of a mixture centred with their population mean over the n points
/// (class shares of the counts), as the classifier sees them after centring.
pub fn centred_means(
    mixture: &GaussianMixture,
    labeled: [usize; 2],
    unlabeled: [usize; 2],
) -> [Array1<f64>; 2] {
    let n = (labeled[0] + labeled[1] + unlabeled[0] + unlabeled[1]) as f64;
    let rho = [0, 1].map(|k| (labeled[k] + unlabeled[k]) as f64 / n);
    let centre = &mixture.means[0] * rho[0] + &mixture.means[1] * rho[1];
    mixture.means.each_ref().map(|mu| mu - &centre)
}

/// P g Pᵀ with P = I − 1ρᵀ: (P g Pᵀ)_jk = g_jk − (gρ)_j − (gρ)_k + ρᵀgρ, the Gram matrix of
/// the class means after subtracting their mean with weights ρ.
pub fn centre_gram(g: [[f64; 2]; 2], rho: [f64; 2]) -> [[f64; 2]; 2] {
    let gr = [0, 1].map(|j| g[j][0] * rho[0] + g[j][1] * rho[1]);
    let rgr = rho[0] * gr[0] + rho[1] * gr[1];
    [0, 1].map(|j| [0, 1].map(|k| g[j][k] - gr[j] - gr[k] + rgr))
}
