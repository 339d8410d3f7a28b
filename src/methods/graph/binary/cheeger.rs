//! Cheeger-RLS and Cheeger-SVM (eqs. 29–38 and 84–96): g = f + c·sign(f); e = RLS(g) or
//! SVM(g); h = ROF(e) with fidelity E/(2c), E the current Cheeger ratio; recentre by the
//! median; keep t or −t, whichever has the lower ratio (28) once the labels are clamped
//! (our addition: the ratio is sign-symmetric, so this only lowers the objective); clamp
//! the labeled entries to y; f ← √N s/‖s‖. The scores are the final f, a graph ROF
//! solution clamped and rescaled: no kernel expansion (no model for new rows).

use faer::{ColMut, Mat};

use crate::error::Result;
use crate::linalg::SymPacked;
use crate::methods::graph::prepared::{Prepared, median, normalise, sign};
use crate::methods::graph::raw::RawFit;
use crate::methods::graph::solvers::low_rank::LowRankOperator;
use crate::methods::graph::solvers::smoother::smoother;
use crate::methods::graph::solvers::svm_step::{SvmStep, svm_steps};
use crate::methods::graph::{EdgeOperator, GraphParams, RofSettings, RofWorkspace};

/// Cheeger-RLS: e = K(λI + rK)⁻¹ r g = r M g (eq. 38), r = r1 (M on r × r with a
/// Nyström kernel).
pub(crate) fn cheeger_rls(prep: &Prepared, p: &GraphParams) -> Result<RawFit> {
    if let Some(z) = prep.gram.factor() {
        let op = LowRankOperator::smoother(z, p.lambda, p.r1)?;
        return iterate(prep, p, |g, e| {
            op.apply(g, e);
            e.iter_mut().for_each(|v| *v *= p.r1);
            Ok(())
        });
    }
    let m = smoother(prep, p.lambda, p.r1, 0.0)?;
    let m = SymPacked::new(m.as_ref().as_ref());
    iterate(prep, p, |g, e| {
        m.mul_vec(g, e);
        e.iter_mut().for_each(|v| *v *= p.r1);
        Ok(())
    })
}

/// Cheeger-SVM: e = SVM(g) (eqs. 92–96), r = r1.
pub(crate) fn cheeger_svm(prep: &Prepared, p: &GraphParams) -> Result<RawFit> {
    let m = smoother(prep, p.lambda, p.r1, 0.0)?;
    let m: &Mat<f64> = &m;
    let mut steps = [SvmStep::new(m, &prep.y)];
    let (packed, mut mt) = (SymPacked::new(m.as_ref()), Mat::zeros(prep.n(), 1));
    iterate(prep, p, |g, e| {
        packed.mul_vec(g, mt.col_as_slice_mut(0));
        svm_steps(&mut steps, m, p.r1, p.mu, p.qp, &mt, ColMut::from_slice_mut(e).as_mat_mut())
            .map(drop)
    })
}

/// The shared loop; `e_step(g, e)` computes e = RLS(g) or SVM(g). Starts from the
/// e-step of the padded labels, clamped and normalised.
fn iterate(
    prep: &Prepared,
    p: &GraphParams,
    mut e_step: impl FnMut(&[f64], &mut [f64]) -> Result<()>,
) -> Result<RawFit> {
    let n = prep.n();
    let op = EdgeOperator::new(prep.graph()?)?;
    let mut state = CheegerState::new(n);
    let mut rof = op.workspace::<1>();
    let (mut f, mut e) = (vec![0.0; n], vec![0.0; n]);
    e_step(&prep.padded_labels(), &mut e)?;
    clamp(prep.n_labeled, &prep.y, &e, &mut f);
    normalise(&mut f);
    for _ in 0..p.iterations {
        state.target(&op, p.c, &f);
        e_step(&state.g, &mut e)?;
        smooth(std::slice::from_mut(&mut state), &op, p.c, p.rof, &[&e], &mut rof);
        state.orient(&op, &prep.y);
        clamp(prep.n_labeled, &prep.y, &state.h, &mut f);
        normalise(&mut f);
    }
    Ok(RawFit::scores_only(f))
}

/// Buffers of one Cheeger iteration for one score vector. One iteration is
/// [`target`](Self::target), the e-step from `g` (by the caller, so that several classes
/// can share one pass over the smoother), then [`smooth`] of its result.
pub(crate) struct CheegerState {
    pub(crate) g: Vec<f64>,
    pub(crate) h: Vec<f64>,
    ratio: f64,
    scratch: Vec<f64>,
}

/// For each state and its e-step result `e[k]`: h = ROF(e; 1, E/c) − median, leaving t in
/// the state's `h`; the ROF problems of the states (at most L) are solved in lockstep.
pub(crate) fn smooth<const L: usize>(
    states: &mut [CheegerState],
    op: &EdgeOperator,
    c: f64,
    rof: RofSettings,
    e: &[&[f64]],
    work: &mut RofWorkspace<L>,
) {
    let mu: Vec<f64> = states.iter().map(|s| (s.ratio / c).max(f64::MIN_POSITIVE)).collect();
    states.iter_mut().zip(e).for_each(|(s, e)| s.h.copy_from_slice(e));
    let mut h: Vec<&mut [f64]> = states.iter_mut().map(|s| s.h.as_mut_slice()).collect();
    op.solve_lanes(e, 1.0, &mu, &mut h, work, rof);
    for s in states {
        let m = median(&s.h, &mut s.scratch);
        s.h.iter_mut().for_each(|v| *v -= m);
    }
}

impl CheegerState {
    pub(crate) fn new(n: usize) -> Self {
        CheegerState {
            g: vec![0.0; n],
            h: vec![0.0; n],
            ratio: 0.0,
            scratch: Vec::with_capacity(n),
        }
    }

    /// g = f + c·sign(f), the e-step's input; keeps the Cheeger ratio E of f.
    pub(crate) fn target(&mut self, op: &EdgeOperator, c: f64, f: &[f64]) {
        self.ratio = cheeger_ratio(op, f, &mut self.scratch);
        for (g, f) in self.g.iter_mut().zip(f) {
            *g = f + c * sign(*f);
        }
    }

    /// Replaces t by −t when −t, with the labels clamped, has the lower Cheeger ratio (28).
    pub(crate) fn orient(&mut self, op: &EdgeOperator, y: &[f64]) {
        let nl = y.len();
        let ratio = |sign: f64, s: &mut Vec<f64>, scratch: &mut Vec<f64>| {
            s.iter_mut().zip(&self.h).for_each(|(s, t)| *s = sign * t);
            s[..nl].copy_from_slice(y);
            cheeger_ratio(op, s, scratch)
        };
        if ratio(-1.0, &mut self.g, &mut self.scratch) < ratio(1.0, &mut self.g, &mut self.scratch)
        {
            self.h.iter_mut().for_each(|v| *v = -*v);
        }
    }
}

/// TV(f) / Σ|f_i − median f|, the objective of (28); `scratch` is a buffer.
fn cheeger_ratio(op: &EdgeOperator, f: &[f64], scratch: &mut Vec<f64>) -> f64 {
    let m = median(f, scratch);
    let spread: f64 = f.iter().map(|v| (v - m).abs()).sum();
    op.tv(f) / spread.max(f64::MIN_POSITIVE)
}

/// s = t except s_i = y_i on the first `nl` points.
pub(crate) fn clamp(nl: usize, y: &[f64], t: &[f64], s: &mut [f64]) {
    s.copy_from_slice(t);
    s[..nl].copy_from_slice(&y[..nl]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::graph::SymGraph;

    /// Two 5-cliques {0, 2, 4, 6, 8} and {1, 3, 5, 7, 9} joined by one weak edge.
    fn two_cliques() -> EdgeOperator {
        let mut edges = vec![(0, 1, 0.1)];
        for side in 0..2 {
            let nodes: Vec<usize> = (0..5).map(|i| 2 * i + side).collect();
            for (a, &i) in nodes.iter().enumerate() {
                edges.extend(nodes[a + 1..].iter().map(|&j| (i, j, 1.0)));
            }
        }
        EdgeOperator::new(&SymGraph::from_edges(10, edges).unwrap()).unwrap()
    }

    #[test]
    fn orient_keeps_the_sign_with_the_lower_clamped_ratio() {
        let op = two_cliques();
        let y = [1.0, -1.0];
        let cut: Vec<f64> = (0..10).map(|i| if i % 2 == 0 { 1.0 } else { -1.0 }).collect();
        let mut scratch = Vec::new();
        let clamped_ratio = |t: &[f64], scratch: &mut Vec<f64>| {
            let mut s = vec![0.0; 10];
            clamp(2, &y, t, &mut s);
            cheeger_ratio(&op, &s, scratch)
        };
        // The cut oriented against both labels is flipped, and its clamped ratio drops.
        let mut state = CheegerState::new(10);
        state.h = cut.iter().map(|v| -v).collect();
        let before = clamped_ratio(&state.h, &mut scratch);
        state.orient(&op, &y);
        assert_eq!(state.h, cut);
        assert!(clamped_ratio(&state.h, &mut scratch) < before);
        // The cut that agrees with the labels is kept.
        state.orient(&op, &y);
        assert_eq!(state.h, cut);
    }
}
