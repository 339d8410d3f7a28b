//! Fitting an SVMlin method on a [`Problem`]: build the design with its bias column, pick r,
//! run the solver, keep the linear model.

use ndarray::Array1;

use super::cgls::{CglsOptions, CglsWork, Subset, cgls};
use super::da::{DaOptions, DaReport, da};
use super::design::with_bias;
use super::examples::Examples;
use super::inner::Inner;
use super::mfn::{MfnOptions, MfnReport, MfnWork, mfn};
use super::params::{Kind, PositiveFraction, SvmSolver, Svmlin};
use super::tsvm::{TsvmOptions, TsvmReport, tsvm};
use super::weighted_cd::{WeightedCdOptions, WeightedCdReport, WeightedCdWork, weighted_cd};
use crate::data::{Features, Problem, class_counts};
use crate::engine::{Linear, Model};
use crate::error::{Error, Result};

/// What the solver reported.
#[derive(Debug, Clone, PartialEq)]
pub enum Details {
    /// CGLS iterations of RLS (a fit that does not converge is an error).
    Rls {
        iterations: usize,
    },
    Svm(MfnReport),
    /// `linear_svm` solved by dual coordinate descent.
    SvmDualCd(WeightedCdReport),
    Tsvm(TsvmReport),
    Da(DaReport),
}

/// A fitted linear model f(x) = wᵀx + b.
#[derive(Debug, Clone, PartialEq)]
pub struct FittedSvmlin {
    pub w: Array1<f64>,
    pub bias: f64,
    /// The positive fraction used (transductive methods only).
    pub r: Option<f64>,
    pub details: Details,
}

impl FittedSvmlin {
    /// The model f(x) = xᵀw + b.
    pub fn model(&self) -> Model {
        Model::Linear(self.linear())
    }

    /// Scores f(x) of the rows of `x`, linear in its non-zeros when sparse (the model's).
    pub fn scores(&self, x: &Features) -> Array1<f64> {
        self.linear().column(x.into(), 0)
    }

    fn linear(&self) -> Linear {
        Linear::affine(self.w.clone(), self.bias)
    }
}

impl Svmlin {
    /// Fits on the problem: RLS and SVM see the labeled rows only (costs 1), TSVM and DA
    /// also the unlabeled rows (labeled costs 1/l, unlabeled λ_u/u). Without unlabeled rows
    /// TSVM and DA solve their supervised problem, the l2-SVM of costs 1/l (no r is used).
    pub fn fit(&self, problem: &Problem) -> Result<FittedSvmlin> {
        let p = self.params();
        let (l, u) = (problem.n_labeled(), problem.n_unlabeled());
        if l == 0 {
            return Err(Error::Data("SVMlin needs at least one labeled row".into()));
        }
        let y_l = problem
            .y_l
            .as_slice()
            .ok_or_else(|| Error::Data("labels are not contiguous".into()))?;
        let mfn_opts = MfnOptions { precondition: p.precondition, ..MfnOptions::default() };
        let supervised = matches!(p.kind, Kind::Rls | Kind::Svm);
        let x = if supervised {
            with_bias(&[&problem.x_l])?
        } else {
            with_bias(&[&problem.x_l, &problem.x_u])?
        };
        let inner = match p.svm_solver {
            SvmSolver::Mfn => Inner::Mfn(mfn_opts),
            // Shrinking pays where many rows end outside the margin: the supervised SVM;
            // TSVM's and DA's rows nearly all stay active.
            SvmSolver::DualCd { epsilon } => Inner::DualCd(WeightedCdOptions {
                epsilon,
                shrinking: p.kind == Kind::Svm,
                ..WeightedCdOptions::default()
            }),
        };
        // Each solver allocates its own w (no idle copy beside it).
        let (mut w, r, details) = match p.kind {
            Kind::Rls => {
                let rows = (0..l as u32).collect();
                let sub = Subset { rows, target: y_l.to_vec(), cost: vec![1.0; l] };
                let mut w = vec![0.0; x.ncols()];
                // From w = 0, whose outputs are 0.
                let rep = cgls(
                    &x,
                    &sub,
                    p.lambda,
                    &CglsOptions {
                        epsilon: mfn_opts.epsilon,
                        max_iter: mfn_opts.max_cg,
                        precondition: mfn_opts.precondition,
                    },
                    &mut w,
                    |_| 0.0,
                    &mut vec![0.0; l],
                    &mut CglsWork::default(),
                );
                if !rep.converged {
                    return Err(Error::Data(format!(
                        "RLS: CGLS did not converge in {} iterations (epsilon {}, lambda {}); \
                         a larger lambda or precondition = true may help",
                        rep.iterations, mfn_opts.epsilon, p.lambda
                    )));
                }
                (w, None, Details::Rls { iterations: rep.iterations })
            }
            Kind::Svm => {
                let mut ex = Examples::with_capacity(l, l);
                for (i, &y) in y_l.iter().enumerate() {
                    ex.push(i, y, 1.0);
                }
                let mut w = vec![0.0; x.ncols()];
                let details = match inner {
                    Inner::Mfn(o) => {
                        Details::Svm(mfn(&x, &ex, p.lambda, &o, &mut w, &mut MfnWork::default()))
                    }
                    Inner::DualCd(o) => {
                        let mut work = WeightedCdWork::default();
                        Details::SvmDualCd(weighted_cd(&x, &ex, p.lambda, &o, &mut w, &mut work))
                    }
                };
                (w, None, details)
            }
            Kind::Tsvm { switches } => {
                let r = self.positive_fraction(problem)?;
                let positives = ((r.unwrap_or(0.0) * u as f64).round() as usize).min(u);
                let opts =
                    TsvmOptions { lambda: p.lambda, lambda_u: p.lambda_u, switches, positives };
                let (w, _, rep) = tsvm(&x, y_l, &opts, &inner);
                (w, r, Details::Tsvm(rep))
            }
            Kind::Da => {
                let r = self.positive_fraction(problem)?;
                let opts =
                    DaOptions { lambda: p.lambda, lambda_u: p.lambda_u, r: r.unwrap_or(0.5) };
                let (w, rep) = da(&x, y_l, &opts, &inner)?;
                (w, r, Details::Da(rep))
            }
        };
        let bias = w.pop().unwrap_or(0.0);
        Ok(FittedSvmlin { w: Array1::from(w), bias, r, details })
    }

    /// r from the parameters: given, the labeled estimate, or the unlabeled truth; None
    /// without unlabeled rows (nothing to label).
    fn positive_fraction(&self, problem: &Problem) -> Result<Option<f64>> {
        if problem.n_unlabeled() == 0 {
            return Ok(None);
        }
        let fraction = |y| {
            let (pos, neg) = class_counts(y);
            pos as f64 / (pos + neg).max(1) as f64
        };
        let r = match self.params().r {
            PositiveFraction::Fixed(r) => r,
            PositiveFraction::Labeled => fraction(problem.y_l.view()),
            PositiveFraction::Truth if problem.y_u.iter().any(|y| y.is_nan()) => {
                return Err(Error::Data(
                    "r = \"truth\": the unlabeled rows' truth is unknown in this dataset; give r"
                        .into(),
                ));
            }
            PositiveFraction::Truth => fraction(problem.y_u.view()),
        };
        if r > 0.0 && r < 1.0 {
            Ok(Some(r))
        } else {
            Err(Error::Data(format!(
                "estimated positive fraction r = {r} has one class only; give r in (0, 1)"
            )))
        }
    }
}
