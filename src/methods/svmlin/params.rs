//! SVMlin parameters, validated once into [`Svmlin`].

use crate::error::{Error, Result};

/// Which SVMlin method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Regularised least squares on the labeled rows (CGLS).
    Rls,
    /// l2-SVM-MFN on the labeled rows.
    Svm,
    /// Transductive SVM swapping up to `switches` label pairs per round (1 = single switch).
    Tsvm { switches: usize },
    /// Deterministic annealing S3VM.
    Da,
}

impl Kind {
    /// The config spelling (`linear_rls`, `linear_svm`, `tsvm`, `da`).
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Rls => "linear_rls",
            Kind::Svm => "linear_svm",
            Kind::Tsvm { .. } => "tsvm",
            Kind::Da => "da",
        }
    }
}

/// How the l2-SVM problems of `linear_svm`, `tsvm` and `da` are solved.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SvmSolver {
    /// l2-SVM-MFN, the paper's (`solver = "mfn"`; the papers' configs pin it).
    Mfn,
    /// Dual coordinate descent stopped at the given ε (the default: the same optimum within
    /// ε, about 3× faster): LIBLINEAR's `-s 1` for `linear_svm`; for `tsvm` and `da`
    /// warm-started across retrainings ([`super::weighted_cd`]).
    DualCd { epsilon: f64 },
}

impl SvmSolver {
    /// The default solver of `kind`: dual CD at its default ε for the l2-SVM methods, MFN's
    /// CGLS for `linear_rls` (which has no other).
    pub fn default_for(kind: Kind) -> Self {
        match kind {
            Kind::Rls => SvmSolver::Mfn,
            _ => SvmSolver::DualCd { epsilon: SvmSolver::default_epsilon(kind) },
        }
    }

    /// ε of dual CD when not given: LIBLINEAR's 0.1 for `linear_svm`; 0.001 for `tsvm` and
    /// `da`, whose switching and p-steps rank the outputs of every retraining.
    pub fn default_epsilon(kind: Kind) -> f64 {
        if kind == Kind::Svm { 0.1 } else { 1e-3 }
    }
}

/// The fraction r of unlabeled points a transductive method labels positive.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PositiveFraction {
    /// A given r in (0, 1).
    Fixed(f64),
    /// The positive fraction of the labeled rows.
    Labeled,
    /// The true positive fraction of the unlabeled rows (an oracle, as in the paper).
    Truth,
}

/// Unchecked SVMlin parameters; [`SvmlinParams::new`] gives the public release's defaults
/// (λ = 1, λ_u = 1, S = 10000) except r, which defaults to the labeled estimate, and the
/// solver ([`SvmSolver::default_for`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SvmlinParams {
    pub kind: Kind,
    pub lambda: f64,
    pub lambda_u: f64,
    pub r: PositiveFraction,
    /// The solver of the l2-SVM problems (`linear_rls` takes [`SvmSolver::Mfn`] only).
    /// [`SvmlinParams::describe`] names dual CD only: the params of MFN rows stay those
    /// written before dual CD became the default.
    pub svm_solver: SvmSolver,
    /// CG with the diagonal preconditioner in every CGLS solve (off: the public release's
    /// plain CGLS); not with dual CD.
    pub precondition: bool,
}

impl SvmlinParams {
    /// The default number of switches of multi-switch TSVM.
    pub const SWITCHES: usize = 10_000;

    /// Defaults for `kind`.
    pub fn new(kind: Kind) -> Self {
        SvmlinParams {
            kind,
            lambda: 1.0,
            lambda_u: 1.0,
            r: PositiveFraction::Labeled,
            svm_solver: SvmSolver::default_for(kind),
            precondition: false,
        }
    }

    /// The parameters as `key=value` pairs (config spelling), for result rows.
    pub fn describe(&self) -> String {
        let r = match self.r {
            PositiveFraction::Fixed(r) => r.to_string(),
            PositiveFraction::Labeled => "labeled".into(),
            PositiveFraction::Truth => "truth".into(),
        };
        let pre = if self.precondition { " precondition=true" } else { "" };
        let params = match self.kind {
            Kind::Rls | Kind::Svm => format!("lambda={}", self.lambda),
            Kind::Tsvm { switches } => format!(
                "lambda={} lambda_u={} r={r} switches={switches}",
                self.lambda, self.lambda_u
            ),
            Kind::Da => format!("lambda={} lambda_u={} r={r}", self.lambda, self.lambda_u),
        };
        let solver = match self.svm_solver {
            SvmSolver::Mfn => String::new(),
            SvmSolver::DualCd { epsilon } => format!(" solver=dual_cd epsilon={epsilon}"),
        };
        params + &solver + pre
    }

    /// Validates: λ > 0, λ_u > 0, S ≥ 1, a fixed r in (0, 1), dual CD (ε > 0) not for
    /// `linear_rls` and without the preconditioner.
    pub fn check(self) -> Result<Svmlin> {
        for (name, v) in [("lambda", self.lambda), ("lambda_u", self.lambda_u)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(Error::param(name, format!("must be finite and > 0, got {v}")));
            }
        }
        if self.kind == (Kind::Tsvm { switches: 0 }) {
            return Err(Error::param("switches", "must be ≥ 1"));
        }
        if let PositiveFraction::Fixed(r) = self.r
            && !(r > 0.0 && r < 1.0)
        {
            return Err(Error::param("r", format!("must lie in (0, 1), got {r}")));
        }
        if let SvmSolver::DualCd { epsilon } = self.svm_solver {
            if matches!(self.kind, Kind::Rls) {
                return Err(Error::param("solver", "dual_cd solves the l2-SVM methods only"));
            }
            if self.precondition {
                return Err(Error::param(
                    "precondition",
                    "is a setting of the CGLS solvers (solver = \"mfn\"), not of dual_cd (the \
                     default)",
                ));
            }
            if !(epsilon.is_finite() && epsilon > 0.0) {
                return Err(Error::param(
                    "epsilon",
                    format!("must be finite and > 0, got {epsilon}"),
                ));
            }
        }
        Ok(Svmlin { params: self })
    }
}

/// Checked SVMlin method: build with [`SvmlinParams::check`], then `fit` a problem.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Svmlin {
    params: SvmlinParams,
}

impl Svmlin {
    /// The validated parameters.
    pub fn params(&self) -> &SvmlinParams {
        &self.params
    }
}
