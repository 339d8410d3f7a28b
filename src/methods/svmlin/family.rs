//! The SVMlin family's config (`linear_rls`, `linear_svm`, `tsvm`, `da`; `linear_` tells
//! them from the kernel RLS/SVM of the graph family) and its methods on a split.

use toml::Value;

use super::{Kind, PositiveFraction, SvmSolver, Svmlin, SvmlinParams};
use crate::engine::{Checked, Entry, Family, Fitted, Method, Split};
use crate::error::Result;

/// RLS, l2-SVM-MFN, TSVM and DA.
pub struct SvmlinFamily;

impl Family for SvmlinFamily {
    fn kinds(&self) -> &'static [&'static str] {
        &["linear_rls", "linear_svm", "tsvm", "da"]
    }

    /// `lambda` (> 0, default 1); `lambda_u` (> 0, default 1) and `r` ("labeled" (default),
    /// "truth" or a number in (0, 1)) for `tsvm` and `da`; `switches` (≥ 1, default 10000)
    /// for `tsvm`; `solver` ("dual_cd" (default) or "mfn", SVMlin's own) and, with dual_cd,
    /// `epsilon` (> 0, default 0.1 for `linear_svm`, 0.001 for `tsvm` and `da`) for the three
    /// l2-SVM methods; `precondition` (default false) for the CGLS solvers.
    fn check(&self, m: &Entry) -> Result<Checked> {
        m.only(match m.kind() {
            "tsvm" => &["lambda", "lambda_u", "r", "switches", "solver", "epsilon", "precondition"],
            "da" => &["lambda", "lambda_u", "r", "solver", "epsilon", "precondition"],
            "linear_svm" => &["lambda", "solver", "epsilon", "precondition"],
            _ => &["lambda", "precondition"],
        })?;
        let kind = match m.kind() {
            "linear_rls" => Kind::Rls,
            "linear_svm" => Kind::Svm,
            "da" => Kind::Da,
            _ => Kind::Tsvm { switches: m.count("switches")?.unwrap_or(SvmlinParams::SWITCHES) },
        };
        let mut params = SvmlinParams::new(kind);
        if let Some(l) = m.value("lambda") {
            params.lambda = number(l).ok_or_else(|| m.error("lambda", "expected a number > 0"))?;
        }
        if let Some(l) = m.f64("lambda_u")? {
            params.lambda_u = l;
        }
        if let Some(r) = m.value("r") {
            params.r = match r {
                Value::String(s) if s == "labeled" => PositiveFraction::Labeled,
                Value::String(s) if s == "truth" => PositiveFraction::Truth,
                v => PositiveFraction::Fixed(number(v).ok_or_else(|| {
                    m.error("r", "expected \"labeled\", \"truth\" or a number in (0, 1)")
                })?),
            };
        }
        params.svm_solver = match m.string("solver")?.as_deref() {
            Some("mfn") if m.value("epsilon").is_some() => {
                return Err(m.error("epsilon", "is a dual_cd setting"));
            }
            Some("mfn") => SvmSolver::Mfn,
            None if kind == Kind::Rls => SvmSolver::Mfn,
            None | Some("dual_cd") => SvmSolver::DualCd {
                epsilon: m.f64("epsilon")?.unwrap_or(SvmSolver::default_epsilon(kind)),
            },
            Some(_) => return Err(m.error("solver", "expected \"mfn\" or \"dual_cd\"")),
        };
        params.precondition = m.get("precondition")?.unwrap_or(false);
        let checked = params.check().map_err(|e| m.param_error(e, ""))?;
        let name = match kind {
            Kind::Rls => "RLS".to_string(),
            Kind::Svm if params.svm_solver != SvmSolver::Mfn => "SVM(dual CD)".to_string(),
            Kind::Svm => "SVM".to_string(),
            Kind::Tsvm { switches } if params.svm_solver != SvmSolver::Mfn => {
                format!("TSVM(S={switches}, dual CD)")
            }
            Kind::Tsvm { switches } => format!("TSVM(S={switches})"),
            Kind::Da if params.svm_solver != SvmSolver::Mfn => "DA(dual CD)".to_string(),
            Kind::Da => "DA".to_string(),
        };
        Ok(Checked::new(name, checked))
    }
}

fn number(v: &Value) -> Option<f64> {
    v.as_float().or_else(|| v.as_integer().map(|i| i as f64))
}

impl Method for Svmlin {
    fn params(&self) -> String {
        self.params().describe()
    }

    /// Linear passes over the design; the transductive methods make many.
    fn cost(&self, n: usize, dim: usize) -> f64 {
        let passes =
            if matches!(self.params().kind, Kind::Rls | Kind::Svm) { 10.0 } else { 1000.0 };
        passes * (n * dim) as f64
    }

    /// Sparse: the design is already in memory; the solvers keep a few vectors of n and d.
    fn memory(&self, n: usize, dim: usize) -> f64 {
        80.0 * (n + dim) as f64
    }

    fn fit(&self, split: &Split) -> Result<Fitted> {
        let f = Svmlin::fit(self, split.problem)?;
        Ok(Fitted::from_model(f.model(), split)?
            .labelled("lambda_policy", "fixed")
            .with("lambda", self.params().lambda))
    }
}
