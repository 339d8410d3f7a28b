//! Multi-class QLDS natively: Ω = (1/√n)(λI + α_l C_l − α_u C_u)⁻¹ X_lᵀ Y with Y the centred
//! one-hot labels ([`label_matrix`]), one Cholesky factorisation for the K columns, and
//! the class of largest score f(x) = Ωᵀ(x − mean)/√n.

use faer::Mat;
use ndarray::{Array1, Array2, ArrayView2, Axis};

use super::{Moments, Qlds};
use crate::data::Problem;
use crate::error::{Error, Result};
use crate::linalg::{spd_solve, to_array2};

/// A fitted multi-class QLDS: one column of Ω per class.
#[derive(Debug, Clone)]
pub struct FittedMulticlass {
    /// Ω, d × K.
    pub omega: Array2<f64>,
    pub mean: Array1<f64>,
    /// The λ actually used.
    pub lambda: f64,
    /// n = n_l + n_u of the training problem.
    pub n: usize,
}

/// The label matrix Y (rows × K): the row of a class-k point is 1 in column k and
/// −1/(K−1) elsewhere, the one-hot row centred over the classes and scaled so that K = 2
/// gives the columns y and −y of the binary ±1 labels.
pub fn label_matrix(classes: &[usize], n_classes: usize) -> Result<Array2<f64>> {
    if n_classes < 2 {
        return Err(Error::param("n_classes", format!("must be ≥ 2, got {n_classes}")));
    }
    if let Some(c) = classes.iter().find(|c| **c >= n_classes) {
        return Err(Error::Data(format!("class id {c} but only {n_classes} classes")));
    }
    let off = -1.0 / (n_classes - 1) as f64;
    Ok(Array2::from_shape_fn(
        (classes.len(), n_classes),
        |(i, k)| {
            if classes[i] == k { 1.0 } else { off }
        },
    ))
}

impl Qlds {
    /// Fits the K columns of Ω on a problem with `n_classes` ≥ 2 classes (its class ids),
    /// with the centring and λ of the binary fit.
    pub fn fit_multiclass(&self, problem: &Problem) -> Result<FittedMulticlass> {
        let prep = Moments::new(problem)?;
        let y = label_matrix(&problem.classes_l, problem.n_classes)?;
        let p = self.params();
        let lambda = prep.lambda(p.lambda)?;
        let n = prep.n() as f64;
        let a = Mat::from_fn(prep.dim(), prep.dim(), |i, j| {
            let diagonal = if i == j { lambda } else { 0.0 };
            diagonal + p.alpha_l * prep.c_l[(i, j)] - p.alpha_u * prep.c_u[(i, j)]
        });
        let rhs = prep.x_l.t().dot(&y) / n.sqrt();
        let mut omega = Mat::from_fn(rhs.nrows(), rhs.ncols(), |i, k| rhs[[i, k]]);
        spd_solve(a.as_ref(), &mut omega, "multi-class QLDS system λI + α_l C_l − α_u C_u")?;
        Ok(FittedMulticlass {
            omega: to_array2(omega.as_ref()),
            mean: prep.mean.clone(),
            lambda,
            n: prep.n(),
        })
    }
}

impl FittedMulticlass {
    /// Scores f(x) = Ωᵀ(x − mean)/√n of each row of `x` (raw features): rows × K.
    pub fn scores(&self, x: ArrayView2<f64>) -> Array2<f64> {
        let shift = self.mean.dot(&self.omega);
        (x.dot(&self.omega) - shift.insert_axis(Axis(0))) / (self.n as f64).sqrt()
    }

    /// The class of largest score of each row (ties go to the lowest class id).
    pub fn predict(&self, x: ArrayView2<f64>) -> Vec<usize> {
        self.scores(x).rows().into_iter().map(|r| argmax(r.iter().copied())).collect()
    }

    /// The fraction of rows of `x` whose predicted class is not `truth`'s.
    pub fn error_rate(&self, x: ArrayView2<f64>, truth: &[usize]) -> f64 {
        let wrong = self.predict(x).into_iter().zip(truth).filter(|(a, b)| a != *b).count();
        wrong as f64 / truth.len().max(1) as f64
    }
}

/// The index of the largest value (the first one on ties).
pub fn argmax(values: impl Iterator<Item = f64>) -> usize {
    let mut best = (0, f64::NEG_INFINITY);
    for (k, v) in values.enumerate() {
        if v > best.1 {
            best = (k, v);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use ndarray::Array1;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::data::synthetic::GaussianMixture;
    use crate::data::{Dataset, Sampler};
    use crate::methods::qlds::tests::{centred, naive_solve};
    use crate::methods::qlds::{LambdaPolicy, QldsParams};

    #[test]
    fn two_classes_give_the_binary_scores_and_decisions() {
        let mixture = GaussianMixture::symmetric(12, 1.0).unwrap();
        let p = mixture.sample_problem([4, 7], [30, 20], &mut ChaCha8Rng::seed_from_u64(3));
        for (al, au) in [(1.0, 0.0), (0.3, 0.8), (0.0, 1.0)] {
            let qlds = QldsParams::new(al, au).check().unwrap();
            let binary = qlds.fit(&p).unwrap();
            let multi = qlds.fit_multiclass(&p).unwrap();
            let scale = binary.omega.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            for i in 0..12 {
                // Column 1 is ω, column 2 is −ω: f_1 = f and f_2 = −f exactly in theory.
                assert!((multi.omega[[i, 0]] - binary.omega[i]).abs() <= 1e-12 * scale);
                assert!((multi.omega[[i, 1]] + binary.omega[i]).abs() <= 1e-12 * scale);
            }
            let x = p.x_u.to_dense();
            let decisions = binary.predict(x.view()).mapv(|y| usize::from(y < 0.0));
            assert_eq!(multi.predict(x.view()), decisions.to_vec());
        }
    }

    #[test]
    fn three_classes_match_a_dense_reference() {
        // 3 classes in d = 4: 9 labeled and 12 unlabeled rows from a fixed seed.
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let x = Array2::from_shape_fn((21, 4), |_| rand::Rng::random_range(&mut rng, -1.0..1.0));
        let classes: Vec<usize> = (0..21).map(|i| i % 3).collect();
        let names = ["a", "b", "c"].map(String::from).to_vec();
        let data = Dataset::with_classes(x.clone().into(), classes.clone(), names).unwrap();
        let labeled: Vec<usize> = (0..9).collect();
        let p = data.problem(&labeled, &(9..21).collect::<Vec<_>>());
        let (al, au, lambda) = (0.7, 0.4, 1.5);
        let qlds = QldsParams::new(al, au).lambda(LambdaPolicy::Fixed(lambda)).check().unwrap();
        let fitted = qlds.fit_multiclass(&p).unwrap();
        // Reference: explicit C_l, C_u and Gaussian elimination per column of Y.
        let (xl, xu) = centred(&p);
        let n = 21.0;
        let a = Array2::eye(4) * lambda + xl.t().dot(&xl) * (al / n) - xu.t().dot(&xu) * (au / n);
        for k in 0..3 {
            let y = Array1::from_shape_fn(9, |i| if classes[i] == k { 1.0 } else { -0.5 });
            let want = naive_solve(a.clone(), xl.t().dot(&y) / n.sqrt());
            for i in 0..4 {
                assert!((fitted.omega[[i, k]] - want[i]).abs() < 1e-12, "Ω[{i},{k}]");
            }
        }
        // The scores of a row sum to 0 (Y's rows do), and the argmax is the largest.
        let scores = fitted.scores(x.view());
        for r in scores.rows() {
            assert!(r.sum().abs() < 1e-12);
        }
        let predicted = fitted.predict(x.view());
        for (r, c) in scores.rows().into_iter().zip(&predicted) {
            assert!(r.iter().all(|v| *v <= r[*c]));
        }
    }

    #[test]
    fn bad_labels_are_errors() {
        assert!(label_matrix(&[0, 1], 1).is_err());
        assert!(label_matrix(&[0, 3], 3).is_err());
        assert_eq!(argmax([1.0, 3.0, 3.0].into_iter()), 1);
    }
}
