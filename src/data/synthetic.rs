//! Seeded two-class Gaussian mixtures: x | class k ~ N(μ_k, diag(v_k)), labels +1 (class 1)
//! and −1 (class 2).

use ndarray::{Array1, Array2, s};
use ndarray_rand::RandomExt;
use ndarray_rand::rand::Rng;
use ndarray_rand::rand_distr::StandardNormal;

use super::{Dataset, Sampler};
use crate::error::{Error, Result};

/// A two-class Gaussian mixture with diagonal (possibly per-class) covariances.
#[derive(Debug, Clone, PartialEq)]
pub struct GaussianMixture {
    /// Class means μ₁ (label +1) and μ₂ (label −1).
    pub means: [Array1<f64>; 2],
    /// Per-class diagonal variances; all ones is the identity covariance.
    pub variances: [Array1<f64>; 2],
}

impl GaussianMixture {
    /// μ₁ = −μ₂ = μ with ‖μ‖ = `norm` along (1, …, 1)/√d, identity covariance.
    pub fn symmetric(dim: usize, norm: f64) -> Result<Self> {
        if dim == 0 || !norm.is_finite() || norm < 0.0 {
            return Err(Error::Data(format!(
                "symmetric mixture needs dim > 0 and a finite norm ≥ 0 (got dim {dim}, norm {norm})"
            )));
        }
        let mu = Array1::from_elem(dim, norm / (dim as f64).sqrt());
        Self::new([mu.clone(), -mu], None)
    }

    /// Explicit means; `variances` None means identity, else one diagonal per class.
    pub fn new(means: [Array1<f64>; 2], variances: Option<[Array1<f64>; 2]>) -> Result<Self> {
        let dim = means[0].len();
        if dim == 0 || means[1].len() != dim {
            return Err(Error::Data(format!(
                "class means must have the same positive length (got {} and {})",
                means[0].len(),
                means[1].len()
            )));
        }
        let variances = variances.unwrap_or_else(|| [Array1::ones(dim), Array1::ones(dim)]);
        for v in &variances {
            if v.len() != dim || v.iter().any(|x| !x.is_finite() || *x <= 0.0) {
                return Err(Error::Data(format!(
                    "variances must be {dim} finite positive numbers per class"
                )));
            }
        }
        if means.iter().flatten().any(|x| !x.is_finite()) {
            return Err(Error::Data("class means must be finite".into()));
        }
        Ok(GaussianMixture { means, variances })
    }

    /// Number of features.
    pub fn dim(&self) -> usize {
        self.means[0].len()
    }
}

impl Sampler for GaussianMixture {
    /// Draws `counts[0]` rows of class +1 followed by `counts[1]` rows of class −1.
    fn sample<R: Rng + ?Sized>(&self, counts: [usize; 2], rng: &mut R) -> Dataset {
        let d = self.dim();
        let n = counts[0] + counts[1];
        let mut x = Array2::<f64>::random_using((n, d), StandardNormal, rng);
        let mut y = Array1::<f64>::ones(n);
        y.slice_mut(s![counts[0]..]).fill(-1.0);
        let mut start = 0;
        for k in 0..2 {
            let sd = self.variances[k].mapv(f64::sqrt);
            let mut block = x.slice_mut(s![start..start + counts[k], ..]);
            block *= &sd;
            block += &self.means[k];
            start += counts[k];
        }
        Dataset::from_signs(x.into(), y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn sample_has_requested_moments_and_is_seeded() {
        let g = GaussianMixture::symmetric(5, 2.0).unwrap();
        let a = g.sample([3000, 1000], &mut ChaCha8Rng::seed_from_u64(7));
        let b = g.sample([3000, 1000], &mut ChaCha8Rng::seed_from_u64(7));
        assert_eq!(a.x, b.x);
        assert_eq!(crate::data::class_counts(a.y.view()), (3000, 1000));
        let a = a.x.to_dense();
        let m1 = a.slice(s![..3000, ..]).mean_axis(ndarray::Axis(0)).unwrap();
        let expected = 2.0 / 5f64.sqrt();
        for v in m1 {
            assert!((v - expected).abs() < 0.08, "mean {v} vs {expected}");
        }
        let var = a.slice(s![3000.., 0]).var(1.0);
        assert!((var - 1.0).abs() < 0.1, "variance {var}");
    }

    #[test]
    fn diagonal_variances_scale_columns() {
        let v = Array1::from(vec![4.0, 0.25]);
        let g = GaussianMixture::new([Array1::zeros(2), Array1::zeros(2)], Some([v.clone(), v]))
            .unwrap();
        let x = g.sample([4000, 4000], &mut ChaCha8Rng::seed_from_u64(1)).x.to_dense().into_owned();
        assert!((x.column(0).var(1.0) - 4.0).abs() < 0.2);
        assert!((x.column(1).var(1.0) - 0.25).abs() < 0.02);
    }

    #[test]
    fn rejects_bad_parameters() {
        assert!(GaussianMixture::symmetric(0, 1.0).is_err());
        assert!(GaussianMixture::symmetric(3, f64::NAN).is_err());
        let bad = GaussianMixture::new(
            [Array1::zeros(2), Array1::zeros(2)],
            Some([Array1::ones(2), Array1::from(vec![1.0, -1.0])]),
        );
        assert!(bad.is_err());
    }
}
