//! Laplacian SVM (eqs. 53–56): with B = λI + γLK and Z = B⁻¹ E_l (E_l the labeled columns
//! of I), the dual matrix is Q = Y (K Z)_ll Y (K B⁻¹ = (λK⁻¹ + γL)⁻¹ is symmetric);
//! α = Z Yβ, f = Kα + b.

use faer::Mat;
use faer::linalg::solvers::Solve;

use super::prepared::{Prepared, mat_vec};
use super::{DualQp, GraphParams, laplacian_times};
use crate::error::Result;

/// Scores f on all N points.
pub(super) fn lap_svm(prep: &Prepared, p: &GraphParams) -> Result<Vec<f64>> {
    let (n, nl, k, y) = (prep.n(), prep.n_labeled, &prep.gram.k, &prep.y);
    let lk = laplacian_times(prep.graph()?, k);
    let b = Mat::from_fn(n, n, |i, j| p.gamma * lk[(i, j)] + if i == j { p.lambda } else { 0.0 });
    let mut z = Mat::from_fn(n, nl, |i, j| if i == j { 1.0 } else { 0.0 });
    b.partial_piv_lu().solve_in_place(z.as_mut());
    let kz = k.as_ref().subrows(0, nl) * &z;
    let q = Mat::from_fn(nl, nl, |i, j| y[i] * y[j] * 0.5 * (kz[(i, j)] + kz[(j, i)]));
    let ones = vec![-1.0; nl];
    let sol = DualQp { q: q.as_ref(), p: &ones, y, c: p.mu }.solve(None, p.qp)?;
    let y_beta: Vec<f64> = sol.beta.iter().zip(y).map(|(b, y)| b * y).collect();
    let mut alpha = vec![0.0; n];
    mat_vec(z.as_ref(), &y_beta, &mut alpha);
    let mut f = vec![0.0; n];
    mat_vec(k.as_ref(), &alpha, &mut f);
    f.iter_mut().for_each(|v| *v += sol.bias);
    Ok(f)
}
