//! The SVM sub-problem of the Cheeger and multi-class schemes: given a target t,
//! min_f (λ/2)‖f‖²_K + (γ/2) fᵀLf + μΣξ + (r/2)‖f − t‖² s.t. y_i(f_i + b) ≥ 1 − ξ_i on
//! the labeled points. With M = K(λI + rK + γLK)⁻¹ ([`smoother`](super::smoother)),
//! f = M(r t + Ỹβ) where β solves the dual with Q = Y M_ll Y and linear term r Y(Mt)_l − 1
//! (eqs. 92–96 and 125–128; f = Kα without the bias, as in the paper).

use faer::Mat;

use super::prepared::mat_vec;
use super::{DualQp, QpSettings};
use crate::error::Result;

/// Dual matrix and warm-start state for one label vector y ∈ {±1}^{n_l}.
#[derive(Debug, Clone)]
pub(super) struct SvmStep {
    q: Mat<f64>,
    y: Vec<f64>,
    beta: Vec<f64>,
    lin: Vec<f64>,
    mt: Vec<f64>,
    y_beta: Vec<f64>,
}

impl SvmStep {
    /// Builds Q = Y M_ll Y for the labels `y` of the first n_l points.
    pub(super) fn new(m: &Mat<f64>, y: &[f64]) -> Self {
        let nl = y.len();
        SvmStep {
            q: Mat::from_fn(nl, nl, |i, j| y[i] * y[j] * m[(i, j)]),
            y: y.to_vec(),
            beta: vec![0.0; nl],
            lin: vec![0.0; nl],
            mt: vec![0.0; m.nrows()],
            y_beta: vec![0.0; nl],
        }
    }

    /// f = M(r t + Ỹβ) for the target `t`, warm-starting the dual from the previous call.
    pub(super) fn apply(&mut self, m: &Mat<f64>, r: f64, mu: f64, qp: QpSettings, t: &[f64], f: &mut [f64]) -> Result<()> {
        let nl = self.y.len();
        mat_vec(m.as_ref(), t, &mut self.mt);
        for i in 0..nl {
            self.lin[i] = r * self.y[i] * self.mt[i] - 1.0;
        }
        let sol = DualQp { q: self.q.as_ref(), p: &self.lin, y: &self.y, c: mu }.solve(Some(&self.beta), qp)?;
        self.beta.copy_from_slice(&sol.beta);
        for i in 0..nl {
            self.y_beta[i] = self.y[i] * self.beta[i];
        }
        mat_vec(m.as_ref().subcols(0, nl), &self.y_beta, f);
        f.iter_mut().zip(&self.mt).for_each(|(f, mt)| *f += r * mt);
        Ok(())
    }
}
