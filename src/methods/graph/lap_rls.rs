//! Laplacian RLS (eq. 8): α = (ηJK + λI + γLK)⁻¹ η y, f = Kα.

use faer::Mat;
use faer::linalg::solvers::Solve;

use super::prepared::{Prepared, mat_vec};
use super::{GraphParams, laplacian_times};
use crate::error::Result;

/// Scores f on all N points.
pub(super) fn lap_rls(prep: &Prepared, p: &GraphParams) -> Result<Vec<f64>> {
    let (n, nl, k) = (prep.n(), prep.n_labeled, &prep.gram.k);
    let lk = laplacian_times(prep.graph()?, k);
    let a = Mat::from_fn(n, n, |i, j| {
        let fit = if i < nl { p.eta * k[(i, j)] } else { 0.0 };
        fit + p.gamma * lk[(i, j)] + if i == j { p.lambda } else { 0.0 }
    });
    let mut alpha = Mat::from_fn(n, 1, |i, _| if i < nl { p.eta * prep.y[i] } else { 0.0 });
    a.partial_piv_lu().solve_in_place(alpha.as_mut());
    let alpha: Vec<f64> = (0..n).map(|i| alpha[(i, 0)]).collect();
    let mut f = vec![0.0; n];
    mat_vec(k.as_ref(), &alpha, &mut f);
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::spd_solve;
    use crate::methods::graph::{GraphKind, laplacian};
    use crate::methods::graph::tests::blobs;

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
        let f = lap_rls(&prep, &p).unwrap();
        let (n, nl, k) = (prep.n(), prep.n_labeled, &prep.gram.k);
        let l = laplacian(prep.graph().unwrap());
        let j = Mat::from_fn(n, n, |a, b| if a == b && a < nl { 1.0 } else { 0.0 });
        let h = p.eta * k * &j * k + p.lambda * k + p.gamma * k * &l * k;
        let y = Mat::from_fn(n, 1, |i, _| if i < nl { prep.y[i] } else { 0.0 });
        let mut alpha = p.eta * k * &y;
        spd_solve(h.as_ref(), &mut alpha, "test").unwrap();
        let reference = k * &alpha;
        let scale = f.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for i in 0..n {
            assert!((f[i] - reference[(i, 0)]).abs() < 1e-6 * scale, "point {i}: {} vs {}", f[i], reference[(i, 0)]);
        }
    }
}
