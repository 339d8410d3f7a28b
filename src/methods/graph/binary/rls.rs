//! Supervised RLS (eq. 3): α = (η K_ll + λ I)⁻¹ η y, f = K_{·l} α; with a Nyström kernel
//! K_ll = Z_l Z_lᵀ and f = Z(Z_lᵀα).

use faer::Mat;

use crate::error::Result;
use crate::linalg::mat_vec;
use crate::linalg::spd_solve;
use crate::methods::graph::GraphParams;
use crate::methods::graph::prepared::Prepared;
use crate::methods::graph::raw::RawFit;

/// Scores f on all N points; the dense kernel's expansion is α over the labeled points,
/// the Nyström kernel's W Z_lᵀα over its landmarks.
pub(crate) fn rls(prep: &Prepared, p: &GraphParams) -> Result<RawFit> {
    let n = prep.n_labeled;
    let factor = prep.gram.factor();
    let k_ll = match factor {
        Some(z) => z.as_ref().subrows(0, n) * z.as_ref().subrows(0, n).transpose(),
        None => prep.gram.dense()?.as_ref().submatrix(0, 0, n, n).to_owned(),
    };
    let a = Mat::from_fn(n, n, |i, j| p.eta * k_ll[(i, j)] + if i == j { p.lambda } else { 0.0 });
    let mut alpha = Mat::from_fn(n, 1, |i, _| p.eta * prep.y[i]);
    spd_solve(a.as_ref(), &mut alpha, "RLS system ηK_ll + λI")?;
    let alpha: Vec<f64> = (0..n).map(|i| alpha[(i, 0)]).collect();
    let mut f = vec![0.0; prep.n()];
    match factor {
        Some(z) => {
            let mut t = vec![0.0; z.ncols()];
            mat_vec(z.as_ref().subrows(0, n).transpose(), &alpha, &mut t);
            mat_vec(z.as_ref(), &t, &mut f);
            Ok(RawFit::over_landmarks(f, prep.gram.landmarks().expect("a factor"), &t, 0.0))
        }
        None => {
            mat_vec(prep.gram.dense()?.as_ref().subcols(0, n), &alpha, &mut f);
            Ok(RawFit::expanded(f, alpha, 0.0))
        }
    }
}
