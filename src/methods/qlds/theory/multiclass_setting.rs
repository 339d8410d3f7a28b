//! What the K-class isotropic theory needs: dimension, per-class counts and G = MᵀM of the
//! class means as QLDS sees them (centred with the global mean).

use faer::{Mat, Side};

use crate::error::{Error, Result};

/// Largest |G_jk − G_kj| accepted, relative to max |G_jk| (rounding, not asymmetry).
const SYMMETRY_TOL: f64 = 1e-12;

/// A K-class setting (K ≥ 2) with within-class covariance I_d.
#[derive(Debug, Clone)]
pub struct MulticlassSetting {
    pub dim: usize,
    /// Labeled counts n_lk per class.
    pub labeled: Vec<usize>,
    /// Unlabeled counts n_uk per class.
    pub unlabeled: Vec<usize>,
    /// G = MᵀM, K×K symmetric positive semi-definite.
    pub g: Mat<f64>,
    /// G^{1/2} (for the spike condition s > λ_max(ΦG) = λ_max(G^{1/2}ΦG^{1/2})).
    pub(super) g_sqrt: Mat<f64>,
}

impl MulticlassSetting {
    /// Checks d ≥ 1, K ≥ 2 classes in both count lists, a labeled point, and a finite G
    /// symmetric up to 1e-12 of its largest entry (then stored exactly symmetric).
    pub fn new(
        dim: usize,
        labeled: Vec<usize>,
        unlabeled: Vec<usize>,
        g: Mat<f64>,
    ) -> Result<Self> {
        let k = labeled.len();
        if dim == 0 {
            return Err(Error::param("dim", "must be ≥ 1"));
        }
        check_shapes(&labeled, &unlabeled, &g)?;
        if labeled.iter().sum::<usize>() == 0 {
            return Err(Error::param("labeled", "needs at least one labeled point"));
        }
        let scale = (0..k)
            .flat_map(|i| (0..k).map(move |j| (i, j)))
            .fold(0.0f64, |m, (i, j)| m.max(g[(i, j)].abs()));
        let finite = (0..k).all(|i| (0..k).all(|j| g[(i, j)].is_finite()));
        let symmetric =
            (0..k).all(|i| (0..i).all(|j| (g[(i, j)] - g[(j, i)]).abs() <= SYMMETRY_TOL * scale));
        if !finite || !symmetric || (0..k).any(|i| g[(i, i)] < 0.0) {
            return Err(Error::param("g", "must be symmetric and finite with G_jj ≥ 0"));
        }
        let g = Mat::from_fn(k, k, |i, j| 0.5 * (g[(i, j)] + g[(j, i)]));
        let evd = g.self_adjoint_eigen(Side::Lower).map_err(|e| Error::Linalg {
            context: "eigen-decomposition of G",
            message: format!("{e:?}"),
        })?;
        let (u, s) = (evd.U(), evd.S().column_vector());
        let roots: Vec<f64> = s.iter().map(|v| v.max(0.0).sqrt()).collect();
        let g_sqrt = Mat::from_fn(k, k, |i, j| {
            (0..k).map(|r| u[(i, r)] * roots[r] * u[(j, r)]).sum::<f64>()
        });
        Ok(MulticlassSetting { dim, labeled, unlabeled, g, g_sqrt })
    }

    /// The setting of class means with Gram matrix `g` (as given, uncentred) after centring
    /// with the population mean of the given counts: G = P g Pᵀ, P = I − 1ρᵀ.
    pub fn centred(
        dim: usize,
        labeled: Vec<usize>,
        unlabeled: Vec<usize>,
        g: Mat<f64>,
    ) -> Result<Self> {
        check_shapes(&labeled, &unlabeled, &g)?;
        let centred = centre(&labeled, &unlabeled, &g);
        Self::new(dim, labeled, unlabeled, centred)
    }

    /// Orthogonal class means of equal norm, μ_j = `norm`·e_j (uncentred G = norm²·I),
    /// centred as QLDS centres.
    pub fn orthogonal(
        dim: usize,
        labeled: Vec<usize>,
        unlabeled: Vec<usize>,
        norm: f64,
    ) -> Result<Self> {
        if !(norm.is_finite() && norm >= 0.0) {
            return Err(Error::param("mean_norm", format!("must be finite and ≥ 0, got {norm}")));
        }
        let k = labeled.len();
        Self::centred(dim, labeled, unlabeled, Mat::<f64>::identity(k, k) * (norm * norm))
    }

    /// Number of classes K.
    pub fn classes(&self) -> usize {
        self.labeled.len()
    }

    /// n = n_l + n_u.
    pub fn n(&self) -> usize {
        self.labeled.iter().chain(&self.unlabeled).sum()
    }

    /// Class proportions ρ_j of the unlabeled set (of the labeled set when it is empty).
    pub fn unlabeled_proportions(&self) -> Vec<f64> {
        let counts =
            if self.unlabeled.iter().sum::<usize>() > 0 { &self.unlabeled } else { &self.labeled };
        let total = counts.iter().sum::<usize>() as f64;
        counts.iter().map(|c| *c as f64 / total).collect()
    }
}

/// K ≥ 2 labeled and unlabeled counts and a K×K G.
fn check_shapes(labeled: &[usize], unlabeled: &[usize], g: &Mat<f64>) -> Result<()> {
    let k = labeled.len();
    if k < 2 || unlabeled.len() != k || g.nrows() != k || g.ncols() != k {
        return Err(Error::param(
            "classes",
            format!(
                "need K ≥ 2 labeled and unlabeled counts and a K×K G (got {k}, {} and {}×{})",
                unlabeled.len(),
                g.nrows(),
                g.ncols()
            ),
        ));
    }
    Ok(())
}

/// The Gram matrix `g` of the class means centred as QLDS centres, P G Pᵀ with P = I − 1ρᵀ
/// and ρ_j the share of class j among the `labeled` + `unlabeled` points (not checked).
pub fn centre(labeled: &[usize], unlabeled: &[usize], g: &Mat<f64>) -> Mat<f64> {
    let k = labeled.len();
    let n: usize = labeled.iter().chain(unlabeled).sum();
    let rho: Vec<f64> = (0..k).map(|j| (labeled[j] + unlabeled[j]) as f64 / n as f64).collect();
    let p = Mat::from_fn(k, k, |i, j| f64::from(u8::from(i == j)) - rho[j]);
    &p * g * p.transpose()
}
