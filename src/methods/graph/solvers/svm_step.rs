//! The SVM sub-problem of the Cheeger and multi-class schemes: given a target t,
//! min_f (λ/2)‖f‖²_K + (γ/2) fᵀLf + μΣξ + (r/2)‖f − t‖² s.t. y_i(f_i + b) ≥ 1 − ξ_i on
//! the labeled points. With M = K(λI + rK + γLK)⁻¹ ([`smoother`](super::smoother)),
//! f = M(r t + Ỹβ) where β solves the dual with Q = Y M_ll Y and linear term r Y(Mt)_l − 1
//! (eqs. 92–96 and 125–128; f = Kα without the bias, as in the paper).

use faer::{Mat, MatMut};

use super::{DualQp, QpSettings};
use crate::error::Result;

/// Dual matrix and warm-start state for one label vector y ∈ {±1}^{n_l}.
#[derive(Debug, Clone)]
pub(crate) struct SvmStep {
    q: Mat<f64>,
    y: Vec<f64>,
    beta: Vec<f64>,
    lin: Vec<f64>,
}

impl SvmStep {
    /// Builds Q = Y M_ll Y for the labels `y` of the first n_l points.
    pub(crate) fn new(m: &Mat<f64>, y: &[f64]) -> Self {
        let nl = y.len();
        SvmStep {
            q: Mat::from_fn(nl, nl, |i, j| y[i] * y[j] * m[(i, j)]),
            y: y.to_vec(),
            beta: vec![0.0; nl],
            lin: vec![0.0; nl],
        }
    }

    /// Ỹβ for (Mt)_l = `mt_l`, warm-starting the dual from the previous call.
    fn dual(
        &mut self,
        r: f64,
        mu: f64,
        qp: QpSettings,
        mt_l: &[f64],
        y_beta: &mut [f64],
    ) -> Result<()> {
        for (i, lin) in self.lin.iter_mut().enumerate() {
            *lin = r * self.y[i] * mt_l[i] - 1.0;
        }
        let sol = DualQp { q: self.q.as_ref(), p: &self.lin, y: &self.y, c: mu }
            .solve(Some(&self.beta), qp)?;
        self.beta.copy_from_slice(&sol.beta);
        y_beta.iter_mut().zip(self.y.iter().zip(&self.beta)).for_each(|(v, (y, b))| *v = y * b);
        Ok(())
    }
}

/// F = M(r T + Ỹ_k β_k) column by column, column k of the targets T with `steps[k]`,
/// given `mt` = M T (the caller's product, one pass over M for all columns); one more
/// product with the labeled columns of M. Returns Ỹβ (n_l × columns).
pub(crate) fn svm_steps(
    steps: &mut [SvmStep],
    m: &Mat<f64>,
    r: f64,
    mu: f64,
    qp: QpSettings,
    mt: &Mat<f64>,
    mut f: MatMut<'_, f64>,
) -> Result<Mat<f64>> {
    let nl = steps.first().map_or(0, |s| s.y.len());
    let mut y_beta = Mat::<f64>::zeros(nl, steps.len());
    for (k, step) in steps.iter_mut().enumerate() {
        step.dual(r, mu, qp, &mt.col_as_slice(k)[..nl], y_beta.col_as_slice_mut(k))?;
    }
    f.copy_from(m.subcols(0, nl) * &y_beta);
    for k in 0..mt.ncols() {
        for i in 0..mt.nrows() {
            f[(i, k)] += r * mt[(i, k)];
        }
    }
    Ok(y_beta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_of_one_call_equal_separate_calls() {
        // M = AAᵀ + I (symmetric positive definite), 3 labeled of 7 points, two label vectors.
        let a = Mat::from_fn(7, 7, |i, j| ((i * 7 + j) as f64 * 0.37).sin());
        let m = &a * a.transpose() + Mat::<f64>::identity(7, 7);
        let labels = [[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]];
        let t = Mat::from_fn(7, 2, |i, k| (i as f64 + 2.0 * k as f64).cos());
        let (r, mu, qp) = (0.5, 2.0, QpSettings::default());
        let mut steps: Vec<SvmStep> = labels.iter().map(|y| SvmStep::new(&m, y)).collect();
        let mut both = Mat::zeros(7, 2);
        svm_steps(&mut steps, &m, r, mu, qp, &(&m * &t), both.as_mut()).unwrap();
        for (k, y) in labels.iter().enumerate() {
            let mut one = Mat::zeros(7, 1);
            let mt = &m * t.subcols(k, 1);
            svm_steps(&mut [SvmStep::new(&m, y)], &m, r, mu, qp, &mt, one.as_mut()).unwrap();
            for i in 0..7 {
                assert!(
                    (both[(i, k)] - one[(i, 0)]).abs() < 1e-10,
                    "({i}, {k}): {} vs {}",
                    both[(i, k)],
                    one[(i, 0)]
                );
            }
        }
        assert!(
            (0..7).any(|i| (both[(i, 0)] - both[(i, 1)]).abs() > 1e-3),
            "the two columns differ"
        );
    }
}
