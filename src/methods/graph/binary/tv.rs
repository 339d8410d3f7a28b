//! TV-RLS and TV-SVM (eqs. 12–27 and 60–80): splitting f = g = h with an augmented
//! Lagrangian. f-step K(λI + r1K)⁻¹ (the smoother M when the dataset keeps one, one pass
//! over M; else factored once per fit; with a Nyström kernel on r × r,
//! `solvers/low_rank.rs`), h-step (diagonal for RLS, a small
//! SVM-type QP on the labeled points for SVM), g-step a graph ROF problem, then
//! g ← √N ḡ/‖ḡ‖ and g ← g − mean(g). The scores are the final g; the kernel expansion is
//! the last f-step's f = K α (Nyström: f = Z w over the landmarks; `tv_project = "fhg"`:
//! the projected s K α − μ, a bias −μ), which g equals only at the splitting's convergence. Options (ablations):
//! norm N instead of √N (`tv_norm = "n"`), the projection applied to f and h too
//! (`tv_project = "fhg"`).

use faer::{ColMut, Mat, Par};

use crate::error::Result;
use crate::linalg::{SymPacked, mat_vec};
use crate::methods::graph::prepared::{Prepared, normalise_to};
use crate::methods::graph::raw::RawFit;
use crate::methods::graph::solvers::low_rank::LowRankOperator;
use crate::methods::graph::solvers::smoother::{coefficients, llt_solve, shifted_llt};
use crate::methods::graph::{DualQp, EdgeOperator, GraphParams};

/// TV-RLS: h = (ηJ + r2 I)⁻¹(ηy + r2 e) with e = g − λ2/r2 (eq. 18).
pub(crate) fn tv_rls(prep: &Prepared, p: &GraphParams) -> Result<RawFit> {
    let y = prep.padded_labels();
    let nl = prep.n_labeled;
    split(prep, p, |e, h| {
        for i in 0..h.len() {
            let eta = if i < nl { p.eta } else { 0.0 };
            h[i] = (eta * y[i] + p.r2 * e[i]) / (eta + p.r2);
        }
        Ok(())
    })
}

/// TV-SVM: min μΣξ + (r2/2)‖h − e‖² s.t. y_i(h_i + b) ≥ 1 − ξ_i on the labeled points;
/// dual Q = I/r2, linear term y∘e − 1 (eqs. 67–70); h_l = e_l + Yβ/r2, h_u = e_u.
pub(crate) fn tv_svm(prep: &Prepared, p: &GraphParams) -> Result<RawFit> {
    let (nl, y) = (prep.n_labeled, &prep.y);
    let q = Mat::from_fn(nl, nl, |i, j| if i == j { 1.0 / p.r2 } else { 0.0 });
    let mut beta = vec![0.0; nl];
    let mut lin = vec![0.0; nl];
    split(prep, p, |e, h| {
        for i in 0..nl {
            lin[i] = y[i] * e[i] - 1.0;
        }
        let sol = DualQp { q: q.as_ref(), p: &lin, y, c: p.mu }.solve(Some(&beta), p.qp)?;
        beta.copy_from_slice(&sol.beta);
        h.copy_from_slice(e);
        for i in 0..nl {
            h[i] += y[i] * beta[i] / p.r2;
        }
        Ok(())
    })
}

/// The shared splitting loop; `h_step(e, h)` solves the h sub-problem for e = g − λ2/r2.
fn split(
    prep: &Prepared,
    p: &GraphParams,
    mut h_step: impl FnMut(&[f64], &mut [f64]) -> Result<()>,
) -> Result<RawFit> {
    let n = prep.n();
    let f_step = match prep.gram.factor() {
        Some(z) => FStep::LowRank(LowRankOperator::smoother(z, p.lambda, p.r1)?),
        None => match prep.cached_smoother(p.lambda, p.r1, 0.0) {
            Some(m) => FStep::Smoother(SymPacked::new(m.as_ref())),
            None => {
                let k = prep.gram.dense()?;
                FStep::Dense(k, shifted_llt(k, p.lambda, p.r1, Par::Seq, "TV f-step λI + r1K")?)
            }
        },
    };
    let op = EdgeOperator::new(prep.graph()?)?;
    let mut rof_work = op.workspace();
    let mut g = prep.padded_labels();
    let (mut l1, mut l2) = (vec![0.0; n], vec![0.0; n]);
    let (mut alpha, mut f, mut h, mut e, mut z) =
        (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    // The low-rank f-step's f = Z w; with `tv_project = "fhg"` the f-step's f before the
    // projection and the projection's (scale, shift): f ← s f − μ.
    let (mut w, mut f_raw, mut shift) = (Vec::new(), Vec::new(), (1.0, 0.0));
    let rs = p.r1 + p.r2;
    let norm = if p.tv_norm_n { n as f64 } else { (n as f64).sqrt() };
    for _ in 0..p.iterations {
        for i in 0..n {
            alpha[i] = p.r1 * g[i] - l1[i];
        }
        match &f_step {
            FStep::Smoother(m) => m.mul_vec(&alpha, &mut f),
            FStep::Dense(k, llt) => {
                llt_solve(llt.as_ref(), ColMut::from_slice_mut(&mut alpha).as_mat_mut(), Par::Seq);
                mat_vec(k.as_ref(), &alpha, &mut f);
            }
            FStep::LowRank(op) => w = op.apply(&alpha, &mut f),
        }
        if p.tv_project_all {
            f_raw.clone_from(&f);
            shift = project(&mut f, norm);
        }
        for i in 0..n {
            e[i] = g[i] - l2[i] / p.r2;
        }
        h_step(&e, &mut h)?;
        if p.tv_project_all {
            project(&mut h, norm);
        }
        for i in 0..n {
            z[i] = (p.r1 * f[i] + l1[i] + p.r2 * h[i] + l2[i]) / rs;
        }
        op.solve(&z, p.gamma, rs, &mut g, &mut rof_work, p.rof);
        project(&mut g, norm);
        for i in 0..n {
            l1[i] += p.r1 * (f[i] - g[i]);
            l2[i] += p.r2 * (h[i] - g[i]);
        }
    }
    // After the loop `alpha` holds the last f-step's α (factored) or its right-hand side;
    // the projected f = s K α − μ has the coefficients s α and the bias −μ.
    let (s, bias) = (shift.0, 0.0 - shift.1);
    let scaled = |v: Vec<f64>| v.into_iter().map(|a| s * a).collect::<Vec<_>>();
    Ok(match f_step {
        _ if p.iterations == 0 => RawFit::scores_only(g),
        FStep::Dense(..) => RawFit::expanded(g, scaled(alpha), bias),
        FStep::Smoother(_) => {
            let f = if p.tv_project_all { &f_raw } else { &f };
            let coef = coefficients(prep, &alpha, f, (p.lambda, p.r1, 0.0))?;
            RawFit::expanded(g, scaled(coef), bias)
        }
        FStep::LowRank(_) => {
            let landmarks = prep.gram.landmarks().expect("a factor");
            RawFit::over_landmarks(g, landmarks, &scaled(w), bias)
        }
    })
}

/// f = K(λI + r1K)⁻¹ b: the smoother M = K(λI + r1K)⁻¹ the dataset keeps (computed once
/// for all its splits, shared with Cheeger; its product rounds differently from the
/// factored form), the dense K with the Cholesky factor of λI + r1K, or low-rank.
enum FStep<'a> {
    Smoother(SymPacked<'a>),
    Dense(&'a Mat<f64>, Mat<f64>),
    LowRank(LowRankOperator<'a>),
}

/// Eqs. 26–27: v ← norm · v/‖v‖, then v ← v − mean(v); returns the scale and the mean
/// subtracted.
fn project(v: &mut [f64], norm: f64) -> (f64, f64) {
    let s = normalise_to(v, norm);
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    v.iter_mut().for_each(|x| *x -= mean);
    (s, mean)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::graph::solvers::smoother::compute;
    use crate::methods::graph::tests::blobs;
    use crate::methods::graph::{GraphKind, KnnGraph, RbfKernel};

    #[test]
    fn kept_smoother_gives_the_factored_f_step() {
        // TV-RLS and TV-SVM with the f-step through the Cholesky factor of λI + r1K, then
        // through a kept M = K(λI + r1K)⁻¹: the same scores up to rounding, which may move
        // a stopping step of the ROF or dual QP solves (1.6e-7 for TV-SVM here).
        let mut prep = Prepared::new(
            &blobs(6, 30, 4),
            &RbfKernel { scale: 0.7, rank: None },
            Some(&KnnGraph::default()),
        )
        .unwrap();
        for kind in [GraphKind::TvRls, GraphKind::TvSvm] {
            let mut p = GraphParams::new(kind);
            p.iterations = 40;
            let fit = |prep: &Prepared| match kind {
                GraphKind::TvRls => tv_rls(prep, &p).unwrap().scores,
                _ => tv_svm(prep, &p).unwrap().scores,
            };
            let factored = fit(&prep);
            let m = compute(&prep, p.lambda, p.r1, 0.0, 1).unwrap();
            let identity: Vec<usize> = (0..prep.n()).collect();
            prep.add_smoother((p.lambda, p.r1, 0.0), &m, &identity);
            let kept = fit(&prep);
            let gap = factored.iter().zip(&kept).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
            assert!(gap < 1e-6, "{kind:?}: largest difference {gap:e}");
            prep.smoothers.clear();
        }
    }
}
