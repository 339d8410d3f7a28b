//! Supervised SVM (eqs. 46–48): dual with Q = Y K_ll Y / λ, 0 ≤ β ≤ μ, βᵀy = 0;
//! α = Yβ/λ, f = K_{·l} α + b.

use faer::Mat;

use crate::error::Result;
use crate::linalg::mat_vec;
use crate::methods::graph::prepared::Prepared;
use crate::methods::graph::raw::RawFit;
use crate::methods::graph::{DualQp, GraphParams};

/// Scores f on all N points, expanded over the labeled ones.
pub(crate) fn svm(prep: &Prepared, p: &GraphParams) -> Result<RawFit> {
    let (n, k, y) = (prep.n_labeled, prep.gram.dense()?, &prep.y);
    let q = Mat::from_fn(n, n, |i, j| y[i] * y[j] * k[(i, j)] / p.lambda);
    let ones = vec![-1.0; n];
    let sol = DualQp { q: q.as_ref(), p: &ones, y, c: p.mu }.solve(None, p.qp)?;
    let alpha: Vec<f64> = sol.beta.iter().zip(y).map(|(b, y)| b * y / p.lambda).collect();
    let mut f = vec![0.0; prep.n()];
    mat_vec(k.as_ref().subcols(0, n), &alpha, &mut f);
    f.iter_mut().for_each(|v| *v += sol.bias);
    Ok(RawFit::expanded(f, alpha, sol.bias))
}
