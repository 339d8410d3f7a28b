//! Cheeger-RLS and Cheeger-SVM (eqs. 29–38 and 84–96): g = f + c·sign(f); e = RLS(g) or
//! SVM(g); h = ROF(e) with fidelity E/(2c), E the current Cheeger ratio; recentre by the
//! median; clamp the labeled entries to y; f ← √N s/‖s‖. The scores are the final f.

use faer::{ColMut, Mat, Side};
use faer::linalg::solvers::Solve;

use super::prepared::{Prepared, mat_vec, median, normalise};
use super::{DualQp, EdgeOperator, GraphParams};
use crate::error::{Error, Result};

/// Cheeger-RLS: e = K(λI + rK)⁻¹ r g (eq. 38), r = r1.
pub(super) fn cheeger_rls(prep: &Prepared, p: &GraphParams) -> Result<Vec<f64>> {
    let (n, k) = (prep.n(), &prep.gram.k);
    let llt = factor(prep, p)?;
    let mut alpha = vec![0.0; n];
    iterate(prep, p, |g, e| {
        alpha.iter_mut().zip(g).for_each(|(a, g)| *a = p.r1 * g);
        llt.solve_in_place(ColMut::from_slice_mut(&mut alpha).as_mat_mut());
        mat_vec(k.as_ref(), &alpha, e);
        Ok(())
    })
}

/// Cheeger-SVM: with G = K(λI + rK)⁻¹, the dual of eq. 92 has Q = Y G_ll Y and linear
/// term r Y (G g)_l − 1; e = r G g + G_{·l} Yβ (eqs. 94–96), r = r1.
pub(super) fn cheeger_svm(prep: &Prepared, p: &GraphParams) -> Result<Vec<f64>> {
    let (n, nl, y) = (prep.n(), prep.n_labeled, &prep.y);
    let mut gm = prep.gram.k.clone();
    factor(prep, p)?.solve_in_place(gm.as_mut());
    let q = Mat::from_fn(nl, nl, |i, j| y[i] * y[j] * 0.5 * (gm[(i, j)] + gm[(j, i)]));
    let (mut gg, mut lin, mut y_beta, mut beta) = (vec![0.0; n], vec![0.0; nl], vec![0.0; nl], vec![0.0; nl]);
    iterate(prep, p, |g, e| {
        mat_vec(gm.as_ref(), g, &mut gg);
        for i in 0..nl {
            lin[i] = p.r1 * y[i] * gg[i] - 1.0;
        }
        let sol = DualQp { q: q.as_ref(), p: &lin, y, c: p.mu }.solve(Some(&beta), p.qp)?;
        beta.copy_from_slice(&sol.beta);
        for i in 0..nl {
            y_beta[i] = y[i] * beta[i];
        }
        mat_vec(gm.as_ref().subcols(0, nl), &y_beta, e);
        e.iter_mut().zip(&gg).for_each(|(e, gg)| *e += p.r1 * gg);
        Ok(())
    })
}

/// Cholesky factor of λI + rK, shared by both e-steps.
fn factor(prep: &Prepared, p: &GraphParams) -> Result<faer::linalg::solvers::Llt<f64>> {
    let (n, k) = (prep.n(), &prep.gram.k);
    let a = Mat::from_fn(n, n, |i, j| p.r1 * k[(i, j)] + if i == j { p.lambda } else { 0.0 });
    a.llt(Side::Lower).map_err(|e| Error::Linalg {
        context: "Cheeger e-step λI + rK",
        message: format!("not positive definite ({e:?})"),
    })
}

/// The shared loop; `e_step(g, e)` computes e = RLS(g) or SVM(g). Starts from the
/// e-step of the padded labels (a kernel smoothing of y), clamped and normalised.
fn iterate(prep: &Prepared, p: &GraphParams, mut e_step: impl FnMut(&[f64], &mut [f64]) -> Result<()>) -> Result<Vec<f64>> {
    let n = prep.n();
    let op = EdgeOperator::new(prep.graph()?);
    let mut rof_work = op.workspace();
    let (mut e, mut g, mut h, mut scratch) = (vec![0.0; n], vec![0.0; n], vec![0.0; n], Vec::with_capacity(n));
    let mut f = vec![0.0; n];
    e_step(&prep.padded_labels(), &mut e)?;
    clamp_and_normalise(prep, &e, &mut f);
    for _ in 0..p.iterations {
        let m = median(&f, &mut scratch);
        let spread: f64 = f.iter().map(|v| (v - m).abs()).sum();
        let ratio = op.tv(&f) / spread.max(f64::MIN_POSITIVE);
        for i in 0..n {
            g[i] = f[i] + p.c * sign(f[i]);
        }
        e_step(&g, &mut e)?;
        h.copy_from_slice(&e);
        op.solve(&e, 1.0, (ratio / p.c).max(f64::MIN_POSITIVE), &mut h, &mut rof_work, p.rof);
        let m = median(&h, &mut scratch);
        h.iter_mut().for_each(|v| *v -= m);
        clamp_and_normalise(prep, &h, &mut f);
    }
    Ok(f)
}

/// f = √N s/‖s‖ with s = t except s_i = y_i on the labeled points.
fn clamp_and_normalise(prep: &Prepared, t: &[f64], f: &mut [f64]) {
    f.copy_from_slice(t);
    f[..prep.n_labeled].copy_from_slice(&prep.y);
    normalise(f);
}

fn sign(v: f64) -> f64 {
    if v > 0.0 { 1.0 } else if v < 0.0 { -1.0 } else { 0.0 }
}
