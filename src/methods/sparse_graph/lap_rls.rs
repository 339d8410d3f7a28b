//! Laplacian RLS on the graph's nodes (the TV-SVM paper's Lap-RLS, eq. 8, with f ∈ ℝᴺ in
//! place of the RKHS function): min_f (η/2)Σ_labeled (y_i − f_i)² + (λ/2)‖f‖² + (γ/2) fᵀLf,
//! i.e. (ηJ + λI + γL) f = ηy with L = D − W, for every label column at once by conjugate
//! gradients on the Jacobi-scaled system S A S v = S ηy, f = S v, S = diag(A)^{-1/2}.

use super::laplace::CgSettings;
use super::operator::Operator;
use super::{Graph, SignedLabels};
use crate::error::{Error, Result};
use crate::linalg::{CgReport, block_cg};

/// The weights of the fidelity (η), the ridge (λ) and the graph term (γ).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RlsWeights {
    pub eta: f64,
    pub lambda: f64,
    pub gamma: f64,
}

impl RlsWeights {
    /// a_i = η·[i labeled] + λ, the weight of f_i² in the fidelity and ridge.
    pub fn diagonal(&self, labeled: &[bool]) -> Vec<f64> {
        labeled.iter().map(|&l| if l { self.eta + self.lambda } else { self.lambda }).collect()
    }
}

/// Scores f (n × columns row-major, every node) and the CG report.
pub fn lap_rls(
    g: &Graph,
    labels: &SignedLabels,
    w: RlsWeights,
    cg: CgSettings,
) -> Result<(Vec<f64>, CgReport)> {
    if !g.is_symmetric() {
        return Err(Error::Data("Laplacian RLS needs a symmetric graph".into()));
    }
    let c = labels.columns;
    let degrees = g.degrees();
    let a = w.diagonal(&labels.labeled);
    let s: Vec<f64> = a.iter().zip(&degrees).map(|(a, d)| 1.0 / (a + w.gamma * d).sqrt()).collect();
    let b: Vec<f64> = labels.y.iter().enumerate().map(|(e, y)| s[e / c] * w.eta * y).collect();
    // S A S = I − γ S W S, as s_i² (a_i + γ d_i) = 1: diag(1) + γ(−S W S).
    let sas = Operator::scaled_laplacian(g, &s, |_| true, vec![1.0; g.n()]).times(w.gamma);
    let (mut f, report) = block_cg(&b, c, cg.tol, cg.max_iter, &sas)?;
    f.iter_mut().enumerate().for_each(|(e, v)| *v *= s[e / c]);
    Ok((f, report))
}
