//! Laplacian RLS (eq. 8): α = (ηJK + λI + γLK)⁻¹ η y, f = Kα. J has rank n_l, so with
//! the label-free smoother M = K(λI + γLK)⁻¹ (cached per dataset) Woodbury gives
//! f = M_{:,l} (M_ll + I/η)⁻¹ y_l: one n_l × n_l solve per draw of labels. With a Nyström
//! kernel K = ZZᵀ, f = Z(λI + Zᵀ(ηJ + γL)Z)⁻¹Zᵀηy (`solvers/low_rank.rs`).

use faer::Mat;
use faer::linalg::solvers::Solve;

use crate::error::Result;
use crate::linalg::mat_vec;
use crate::methods::graph::GraphParams;
use crate::methods::graph::prepared::Prepared;
use crate::methods::graph::raw::RawFit;
use crate::methods::graph::solvers::low_rank::LowRankOperator;
use crate::methods::graph::solvers::smoother::{coefficients, smoother};

/// Scores f on all N points; the dense kernel's expansion α = B⁻¹ E_l c over all of them
/// ([`coefficients`]), the Nyström kernel's f = Z w over its landmarks.
pub(crate) fn lap_rls(prep: &Prepared, p: &GraphParams) -> Result<RawFit> {
    let (n, nl) = (prep.n(), prep.n_labeled);
    if let Some(z) = prep.gram.factor() {
        let op = LowRankOperator::laplacian(z, nl, p.eta, p.lambda, p.gamma, prep.graph()?)?;
        let eta_y: Vec<f64> = prep.padded_labels().iter().map(|v| p.eta * v).collect();
        let mut f = vec![0.0; n];
        let w = op.apply(&eta_y, &mut f);
        return Ok(RawFit::over_landmarks(f, prep.gram.landmarks().expect("a factor"), &w, 0.0));
    }
    let m = smoother(prep, p.lambda, 0.0, p.gamma)?;
    let mut c = Mat::from_fn(nl, 1, |i, _| prep.y[i]);
    Mat::from_fn(nl, nl, |i, j| m[(i, j)] + if i == j { 1.0 / p.eta } else { 0.0 })
        .partial_piv_lu()
        .solve_in_place(c.as_mut());
    let c: Vec<f64> = (0..nl).map(|i| c[(i, 0)]).collect();
    let mut f = vec![0.0; n];
    mat_vec(Mat::as_ref(&m).subcols(0, nl), &c, &mut f);
    let coef = coefficients(prep, &c, &f, (p.lambda, 0.0, p.gamma))?;
    Ok(RawFit::expanded(f, coef, 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::spd_solve;
    use crate::methods::graph::tests::blobs;
    use crate::methods::graph::{GraphKind, laplacian};

    #[test]
    fn equals_the_normal_equations_of_its_objective() {
        // Objective (7) in α: Hessian H = ηKJK + λK + γKLK, linear term ηKJy; solving
        // H α = ηKy by Cholesky is an independent route to the same f = Kα.
        let problem = blobs(3, 20, 4);
        let mut p = GraphParams::new(GraphKind::LapRls);
        p.lambda = 0.5;
        p.gamma = 0.3;
        p.kernel.scale = 0.5;
        let prep = Prepared::new(&problem, &p.kernel, Some(&p.graph)).unwrap();
        let f = lap_rls(&prep, &p).unwrap().scores;
        let (n, nl, k) = (prep.n(), prep.n_labeled, prep.gram.dense().unwrap());
        let l = laplacian(prep.graph().unwrap());
        let j = Mat::from_fn(n, n, |a, b| if a == b && a < nl { 1.0 } else { 0.0 });
        let h = p.eta * k * &j * k + p.lambda * k + p.gamma * k * &l * k;
        let y = Mat::from_fn(n, 1, |i, _| if i < nl { prep.y[i] } else { 0.0 });
        let mut alpha = p.eta * k * &y;
        spd_solve(h.as_ref(), &mut alpha, "test").unwrap();
        let reference = k * &alpha;
        let scale = f.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for i in 0..n {
            assert!(
                (f[i] - reference[(i, 0)]).abs() < 1e-6 * scale,
                "point {i}: {} vs {}",
                f[i],
                reference[(i, 0)]
            );
        }
    }
}
