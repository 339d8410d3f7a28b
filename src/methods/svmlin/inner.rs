//! The solver of the weighted l2-SVM problems inside TSVM and DA: MFN (the public
//! release's) or [`weighted_cd`], each with the workspace it keeps across retrainings.

use super::design::Design;
use super::examples::{Examples, objective};
use super::mfn::{MfnOptions, MfnWork, mfn};
use super::weighted_cd::{WeightedCdOptions, WeightedCdWork, weighted_cd};

/// The solver of TSVM's retrainings and DA's w-steps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Inner {
    /// MFN with CGLS, warm-started from the last w (the public release's).
    Mfn(MfnOptions),
    /// Dual coordinate descent, warm-started from the last dual solution.
    DualCd(WeightedCdOptions),
}

/// An [`Inner`] solver with its workspace.
#[derive(Debug)]
pub(super) enum InnerWork {
    Mfn(MfnOptions, MfnWork),
    DualCd(WeightedCdOptions, WeightedCdWork),
}

/// What one inner call did: Newton steps and CG iterations (MFN) or epochs (dual CD), and
/// the objective it reached.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(super) struct InnerReport {
    pub newton_steps: usize,
    pub cg_iterations: usize,
    pub epochs: usize,
    pub objective: f64,
}

impl InnerWork {
    pub(super) fn new(inner: &Inner) -> Self {
        match *inner {
            Inner::Mfn(o) => InnerWork::Mfn(o, MfnWork::default()),
            Inner::DualCd(o) => InnerWork::DualCd(o, WeightedCdWork::default()),
        }
    }

    /// Solves the problem of `ex` from `w`, the last call's solution (zero at first).
    pub(super) fn solve(
        &mut self,
        x: &Design,
        ex: &Examples,
        lambda: f64,
        w: &mut [f64],
    ) -> InnerReport {
        match self {
            InnerWork::Mfn(o, work) => {
                let r = mfn(x, ex, lambda, o, w, work);
                InnerReport {
                    newton_steps: r.newton_steps,
                    cg_iterations: r.cg_iterations,
                    epochs: 0,
                    objective: r.objective,
                }
            }
            InnerWork::DualCd(o, work) => {
                let r = weighted_cd(x, ex, lambda, o, w, work);
                let objective = objective(lambda, w, ex, work.outputs());
                InnerReport { epochs: r.epochs, objective, ..InnerReport::default() }
            }
        }
    }

    /// X w of the last solution, for every design row.
    pub(super) fn outputs(&self) -> &[f64] {
        match self {
            InnerWork::Mfn(_, w) => w.outputs(),
            InnerWork::DualCd(_, w) => w.outputs(),
        }
    }
}
