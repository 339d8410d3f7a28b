//! QLDS on more than two classes, beyond the engine's one binary fit per class:
//! - one-vs-rest QLDS(cv) and QLDS(or) choose one (α_l, α_u) for all classes by the
//!   multi-class error (the class of largest score) of the one-vs-rest fit, cross-validated
//!   or on the unlabeled truth, then fit one-vs-rest at that point;
//! - [`Native`] (config `multiclass = "native"`): the closed form with the label matrix
//!   ([`Qlds::fit_multiclass`]) at a fixed (α_l, α_u), or at the point of lowest predicted
//!   multi-class error (th, [`select_multiclass`]), multi-class cross-validation error (cv)
//!   or multi-class error on the truth (or). Two classes: the binary method as it is.

use ndarray::Array1;

use super::method::basis;
use super::selection::{
    Policy, SelectQlds, multiclass_cv_errors, multiclass_oracle_errors, select_multiclass,
};
use super::{LambdaPolicy, Qlds, QldsParams, moments};
use crate::engine::one_vs_rest::one_vs_rest;
use crate::engine::{Fitted, Linear, Method, Model, Split};
use crate::error::{Error, Result};

/// One-vs-rest labels: +1 for the column's class, −1 for the others.
fn one_vs_rest_label(class: usize, column: usize) -> f64 {
    if class == column { 1.0 } else { -1.0 }
}

impl SelectQlds {
    /// (α_l, α_u) of lowest multi-class cv or oracle error with class columns fitted on
    /// `label`, and the λ used (None for the theory policies).
    fn multiclass_point(
        &self,
        split: &Split,
        label: &dyn Fn(usize, usize) -> f64,
    ) -> Option<Result<(f64, f64, f64)>> {
        let run = |folds: Option<usize>| {
            let (p, prep) = (split.problem, moments(split)?);
            let lambda = prep.lambda(self.lambda)?;
            let basis = basis(split, &prep)?;
            let errors = match folds {
                Some(k) => multiclass_cv_errors(
                    &basis,
                    &p.classes_l,
                    p.n_classes,
                    label,
                    &self.grid,
                    lambda,
                    k,
                )?,
                None => multiclass_oracle_errors(
                    &basis,
                    &p.classes_l,
                    &prep.x_u,
                    &p.classes_u,
                    p.n_classes,
                    label,
                    &self.grid,
                    lambda,
                )?,
            };
            let (al, au, _) = errors.best().ok_or_else(|| {
                Error::Data(format!(
                    "multi-class QLDS({}): no grid point is valid (λ ≤ α_u·λ_max(C_u) at every point)",
                    self.policy.name()
                ))
            })?;
            Ok((al, au, lambda))
        };
        match self.policy {
            Policy::CrossValidation { folds } => Some(run(Some(folds))),
            Policy::Oracle => Some(run(None)),
            Policy::Theory { .. } | Policy::GeneralTheory => None,
        }
    }

    /// One-vs-rest at one (α_l, α_u) for all classes, chosen by the multi-class error (cv,
    /// or); None for the theory policies (each class selects by its own theory).
    pub fn fit_one_vs_rest(&self, split: &Split) -> Option<Result<Fitted>> {
        let point = self.multiclass_point(split, &one_vs_rest_label)?;
        Some(point.and_then(|(al, au, lambda)| {
            let chosen =
                QldsParams { alpha_l: al, alpha_u: au, lambda: LambdaPolicy::Fixed(lambda) };
            Ok(one_vs_rest(&chosen.check()?, split)?.labelled("lambda_policy", self.lambda.name()))
        }))
    }
}

/// A QLDS kind fitted natively on more than two classes (config `multiclass = "native"`).
#[derive(Debug, Clone, PartialEq)]
pub enum Native {
    Fixed(Qlds),
    Select(SelectQlds),
}

impl Native {
    /// The binary method it is on two classes.
    fn binary(&self) -> &dyn Method {
        match self {
            Native::Fixed(q) => q,
            Native::Select(s) => s,
        }
    }

    /// The K-class fit at `point` (α_l, α_u, λ policy), scored through its model.
    fn fit_at(split: &Split, point: QldsParams) -> Result<Fitted> {
        let (al, au, policy) = (point.alpha_l, point.alpha_u, point.lambda.name());
        let f = point.check()?.fit_multiclass(split.problem)?;
        let k = f.omega.ncols();
        let model = Model::Linear(Linear {
            weights: f.omega,
            center: Some(f.mean),
            scale: (f.n as f64).sqrt(),
            bias: Array1::zeros(k),
        });
        Ok(Fitted::from_model(model, split)?
            .with("alpha_l", al)
            .with("alpha_u", au)
            .labelled("lambda_policy", policy)
            .with("lambda", f.lambda))
    }

    fn fit_native(&self, split: &Split) -> Result<Fitted> {
        let s = match self {
            Native::Fixed(q) => return Native::fit_at(split, *q.params()),
            Native::Select(s) => s,
        };
        let label = |class: usize, column: usize| {
            let k = split.problem.n_classes as f64;
            if class == column { 1.0 } else { -1.0 / (k - 1.0) }
        };
        let (al, au, lambda, predicted) = match s.policy {
            Policy::Theory { scale } => {
                let (al, au, e) = select_multiclass(split.problem, &s.grid, s.lambda, scale)?;
                (al, au, s.lambda, Some(e))
            }
            Policy::GeneralTheory => {
                return Err(Error::Data(
                    "multi-class QLDS(th) has the isotropic theory only (theory = \"general\" is binary)"
                        .into(),
                ));
            }
            _ => {
                let (al, au, lambda) = s.multiclass_point(split, &label).expect("cv or or")?;
                (al, au, LambdaPolicy::Fixed(lambda), None)
            }
        };
        let fitted = Native::fit_at(split, QldsParams { alpha_l: al, alpha_u: au, lambda })?
            .labelled("lambda_policy", s.lambda.name());
        Ok(match predicted {
            Some(e) => fitted.with("theory_error", e),
            None => fitted,
        })
    }
}

impl Method for Native {
    fn params(&self) -> String {
        let inner = self.binary().params();
        if inner.is_empty() {
            "multiclass=native".into()
        } else {
            format!("{inner} multiclass=native")
        }
    }

    fn fit(&self, split: &Split) -> Result<Fitted> {
        self.binary().fit(split)
    }

    fn fit_multiclass(&self, split: &Split) -> Option<Result<Fitted>> {
        Some(self.fit_native(split))
    }

    fn cost(&self, n: usize, dim: usize) -> f64 {
        self.binary().cost(n, dim)
    }

    fn fit_cost(&self, labeled: usize, n: usize, dim: usize) -> f64 {
        self.binary().fit_cost(labeled, n, dim)
    }

    fn memory(&self, n: usize, dim: usize) -> f64 {
        self.binary().memory(n, dim)
    }

    fn theory(&self, split: &Split, fitted: &Fitted) -> Result<Option<[(f64, f64); 2]>> {
        self.binary().theory(split, fitted)
    }
}
