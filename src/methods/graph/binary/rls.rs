//! Supervised RLS (eq. 3): α = (η K_ll + λ I)⁻¹ η y, f = K_{·l} α.

use faer::Mat;

use crate::error::Result;
use crate::linalg::spd_solve;
use crate::methods::graph::GraphParams;
use crate::methods::graph::prepared::{Prepared, mat_vec};

/// Scores f on all N points.
pub(crate) fn rls(prep: &Prepared, p: &GraphParams) -> Result<Vec<f64>> {
    let (n, k) = (prep.n_labeled, &prep.gram.k);
    let a = Mat::from_fn(n, n, |i, j| p.eta * k[(i, j)] + if i == j { p.lambda } else { 0.0 });
    let mut alpha = Mat::from_fn(n, 1, |i, _| p.eta * prep.y[i]);
    spd_solve(a.as_ref(), &mut alpha, "RLS system ηK_ll + λI")?;
    let alpha: Vec<f64> = (0..n).map(|i| alpha[(i, 0)]).collect();
    let mut f = vec![0.0; prep.n()];
    mat_vec(k.as_ref().subcols(0, n), &alpha, &mut f);
    Ok(f)
}
