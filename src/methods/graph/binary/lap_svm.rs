//! Laplacian SVM (eqs. 53–56): with B = λI + γLK and Z = B⁻¹ E_l (E_l the labeled columns
//! of I), the dual matrix is Q = Y (K Z)_ll Y and f = K Z Yβ + b. K Z is the labeled columns
//! of the label-free smoother M = K B⁻¹ = (λK⁻¹ + γL)⁻¹ (symmetric, cached per dataset).

use faer::Mat;

use crate::error::Result;
use crate::linalg::mat_vec;
use crate::methods::graph::prepared::Prepared;
use crate::methods::graph::raw::RawFit;
use crate::methods::graph::solvers::smoother::{coefficients, smoother};
use crate::methods::graph::{DualQp, GraphParams};

/// Scores f on all N points; expansion α = B⁻¹ E_l Yβ over all of them ([`coefficients`]).
pub(crate) fn lap_svm(prep: &Prepared, p: &GraphParams) -> Result<RawFit> {
    let (n, nl, y) = (prep.n(), prep.n_labeled, &prep.y);
    let m = smoother(prep, p.lambda, 0.0, p.gamma)?;
    let q = Mat::from_fn(nl, nl, |i, j| y[i] * y[j] * m[(i, j)]);
    let ones = vec![-1.0; nl];
    let sol = DualQp { q: q.as_ref(), p: &ones, y, c: p.mu }.solve(None, p.qp)?;
    let y_beta: Vec<f64> = sol.beta.iter().zip(y).map(|(b, y)| b * y).collect();
    let mut f = vec![0.0; n];
    mat_vec(Mat::as_ref(&m).subcols(0, nl), &y_beta, &mut f);
    let coef = coefficients(prep, &y_beta, &f, (p.lambda, 0.0, p.gamma))?;
    f.iter_mut().for_each(|v| *v += sol.bias);
    Ok(RawFit::expanded(f, coef, sol.bias))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::graph::tests::blobs;
    use crate::methods::graph::{GraphKind, laplacian_times};
    use faer::linalg::solvers::Solve;

    #[test]
    fn equals_the_dual_built_from_b_inverse() {
        // Reference: Z = (λI + γLK)⁻¹ E_l by a dense LU, Q = Y (K Z)_ll Y, f = K Z Yβ + b.
        let mut p = GraphParams::new(GraphKind::LapSvm);
        (p.lambda, p.gamma, p.mu, p.kernel.scale) = (0.3, 0.5, 2.0, 0.6);
        let prep = Prepared::new(&blobs(4, 16, 7), &p.kernel, Some(&p.graph)).unwrap();
        let (n, nl, k, y) = (prep.n(), prep.n_labeled, prep.gram.dense().unwrap(), &prep.y);
        let lk = laplacian_times(prep.graph().unwrap(), k);
        let b =
            Mat::from_fn(n, n, |i, j| p.gamma * lk[(i, j)] + if i == j { p.lambda } else { 0.0 });
        let mut z = Mat::from_fn(n, nl, |i, j| if i == j { 1.0 } else { 0.0 });
        b.partial_piv_lu().solve_in_place(z.as_mut());
        let kz = k * &z;
        let q = Mat::from_fn(nl, nl, |i, j| y[i] * y[j] * kz[(i, j)]);
        let sol =
            DualQp { q: q.as_ref(), p: &vec![-1.0; nl], y, c: p.mu }.solve(None, p.qp).unwrap();
        let y_beta = Mat::from_fn(nl, 1, |i, _| sol.beta[i] * y[i]);
        let reference = &kz * &y_beta;
        let f = lap_svm(&prep, &p).unwrap().scores;
        for i in 0..n {
            assert!(
                (f[i] - reference[(i, 0)] - sol.bias).abs() < 1e-6,
                "{i}: {} vs {}",
                f[i],
                reference[(i, 0)] + sol.bias
            );
        }
    }
}
