//! Seeded K-class Gaussian mixtures with identity covariance: x | class k ~ N(μ_k, I_d),
//! drawn as a multi-class [`Problem`] (class ids; ±1 labels are class 0 against the rest).

use ndarray::{Array1, Array2};
use ndarray_rand::RandomExt;
use ndarray_rand::rand::Rng;
use ndarray_rand::rand_distr::StandardNormal;

use super::Problem;
use crate::error::{Error, Result};

/// A K-class Gaussian mixture (K ≥ 2) with identity covariances.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassMixture {
    /// The class means μ_1 … μ_K, of equal length d ≥ 1.
    pub means: Vec<Array1<f64>>,
}

impl ClassMixture {
    /// Checks K ≥ 2 means of one positive length, all finite.
    pub fn new(means: Vec<Array1<f64>>) -> Result<Self> {
        let d = means.first().map_or(0, |m| m.len());
        if means.len() < 2 || d == 0 || means.iter().any(|m| m.len() != d) {
            return Err(Error::Data(
                "a class mixture needs K ≥ 2 means of one length d ≥ 1".into(),
            ));
        }
        if means.iter().flatten().any(|v| !v.is_finite()) {
            return Err(Error::Data("class means must be finite".into()));
        }
        Ok(ClassMixture { means })
    }

    /// μ_j = `norm`·e_j for j < K (orthogonal means of equal norm); needs d ≥ K.
    pub fn orthogonal(dim: usize, classes: usize, norm: f64) -> Result<Self> {
        if classes > dim || !norm.is_finite() {
            return Err(Error::Data(format!(
                "orthogonal means need K ≤ d and a finite norm (got K {classes}, d {dim}, norm {norm})"
            )));
        }
        Self::new(
            (0..classes)
                .map(|j| Array1::from_shape_fn(dim, |i| if i == j { norm } else { 0.0 }))
                .collect(),
        )
    }

    /// Number of features.
    pub fn dim(&self) -> usize {
        self.means[0].len()
    }

    /// A problem of fresh draws: `labeled[k]` and `unlabeled[k]` rows of class k, in class
    /// order (labeled rows first drawn, then unlabeled).
    pub fn sample_problem<R: Rng + ?Sized>(
        &self,
        labeled: &[usize],
        unlabeled: &[usize],
        rng: &mut R,
    ) -> Result<Problem> {
        if labeled.len() != self.means.len() || unlabeled.len() != self.means.len() {
            return Err(Error::param(
                "counts",
                format!("need {} counts per list", self.means.len()),
            ));
        }
        let (x_l, classes_l) = self.sample(labeled, rng);
        let (x_u, classes_u) = self.sample(unlabeled, rng);
        let signs = |c: &[usize]| c.iter().map(|k| if *k == 0 { 1.0 } else { -1.0 }).collect();
        Ok(Problem {
            y_l: signs(&classes_l),
            y_u: signs(&classes_u),
            x_l: x_l.into(),
            x_u: x_u.into(),
            classes_l,
            classes_u,
            n_classes: self.means.len(),
        })
    }

    /// `counts[k]` rows of class k, in class order, with their class ids.
    fn sample<R: Rng + ?Sized>(&self, counts: &[usize], rng: &mut R) -> (Array2<f64>, Vec<usize>) {
        let n = counts.iter().sum();
        let mut x = Array2::<f64>::random_using((n, self.dim()), StandardNormal, rng);
        let classes: Vec<usize> =
            counts.iter().enumerate().flat_map(|(k, c)| std::iter::repeat_n(k, *c)).collect();
        for (mut row, k) in x.rows_mut().into_iter().zip(&classes) {
            row += &self.means[*k];
        }
        (x, classes)
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    #[test]
    fn draws_are_seeded_with_the_requested_classes_and_means() {
        let m = ClassMixture::orthogonal(4, 3, 3.0).unwrap();
        let draw = |seed| {
            m.sample_problem(&[2, 1, 1], &[2000, 1000, 10], &mut ChaCha8Rng::seed_from_u64(seed))
                .unwrap()
        };
        let (a, b) = (draw(5), draw(5));
        assert_eq!(a.x_u.to_dense(), b.x_u.to_dense());
        assert_eq!((a.classes_l, a.n_classes), (vec![0, 0, 1, 2], 3));
        assert_eq!(a.y_l.to_vec(), [1.0, 1.0, -1.0, -1.0]);
        let x = a.x_u.to_dense();
        let class0 = x.slice(ndarray::s![..2000, ..]).mean_axis(ndarray::Axis(0)).unwrap();
        let class1 = x.slice(ndarray::s![2000..3000, ..]).mean_axis(ndarray::Axis(0)).unwrap();
        // Standard error of a mean of 1000 unit-variance draws ≈ 0.03.
        assert!((class0[0] - 3.0).abs() < 0.12 && class0[1].abs() < 0.12, "{class0}");
        assert!((class1[1] - 3.0).abs() < 0.12 && class1[0].abs() < 0.12, "{class1}");
        assert!(ClassMixture::orthogonal(2, 3, 1.0).is_err());
        assert!(m.sample_problem(&[1, 1], &[1, 1, 1], &mut ChaCha8Rng::seed_from_u64(1)).is_err());
    }
}
