//! Classification methods, one folder per family. The runner sees only [`Method`]: built
//! from checked parameters, it maps a [`Problem`] to scores on the unlabeled rows.

pub mod graph;
pub mod qlds;
pub mod self_training;
pub mod svmlin;

use ndarray::Array1;

use crate::data::Problem;
use crate::error::Result;
use crate::selection::{SelectLambda, SelectQlds};
use graph::GraphMethod;
use qlds::{Qlds, Spectral};
use self_training::SelfTraining;
use svmlin::Svmlin;

/// A runnable method with checked parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum Method {
    /// QLDS with fixed (α_l, α_u); LS-SVM and GB-SSL are its corners.
    Qlds(Qlds),
    /// Spectral clustering on C_u, oriented by the labeled data.
    Spectral(Spectral),
    /// Self-training with LS-SVM as the base classifier.
    SelfTraining(SelfTraining),
    /// QLDS with (α_l, α_u) chosen over a grid by theory, cross-validation or oracle.
    Select(SelectQlds),
    /// QLDS with fixed (α_l, α_u) and λ chosen by cross-validation (LS-SVM / GB-SSL, Table 5).
    SelectLambda(SelectLambda),
    /// A graph or kernel method of the TV-SVM paper (RLS, SVM, Lap-, TV-, Cheeger-).
    Graph(GraphMethod),
    /// An SVMlin method (RLS, l2-SVM-MFN, TSVM, DA) on sparse or dense rows.
    Svmlin(Svmlin),
}

/// What one run of a method produced on one problem.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Scores f(x) of the unlabeled rows (sign = predicted label).
    pub scores: Array1<f64>,
    /// The parameters used (None where the method has no such parameter).
    pub alpha_l: Option<f64>,
    pub alpha_u: Option<f64>,
    /// The λ used (for spectral clustering: λ_max(C_u), the limit it corresponds to).
    pub lambda: f64,
}

impl Method {
    /// Fits on the problem and scores its unlabeled rows.
    pub fn run(&self, problem: &Problem) -> Result<Outcome> {
        match self {
            Method::Qlds(q) => {
                let fitted = q.fit(problem)?;
                Ok(Outcome {
                    scores: fitted.scores(problem.x_u.to_dense().view()),
                    alpha_l: Some(q.params().alpha_l),
                    alpha_u: Some(q.params().alpha_u),
                    lambda: fitted.lambda,
                })
            }
            Method::Spectral(s) => {
                let fitted = s.fit(problem)?;
                Ok(Outcome {
                    scores: fitted.scores(problem.x_u.to_dense().view()),
                    alpha_l: None,
                    alpha_u: None,
                    lambda: fitted.top_eigenvalue,
                })
            }
            Method::SelfTraining(st) => {
                let fitted = st.fit(problem)?;
                Ok(Outcome { scores: fitted.scores, alpha_l: Some(1.0), alpha_u: Some(0.0), lambda: fitted.lambda })
            }
            Method::SelectLambda(s) => {
                let chosen = s.run(problem)?;
                Ok(Outcome { scores: chosen.scores, alpha_l: Some(s.alpha_l), alpha_u: Some(s.alpha_u), lambda: chosen.lambda })
            }
            Method::Select(s) => {
                let chosen = s.run(problem)?;
                Ok(Outcome {
                    scores: chosen.scores,
                    alpha_l: Some(chosen.alpha_l),
                    alpha_u: Some(chosen.alpha_u),
                    lambda: chosen.lambda,
                })
            }
            Method::Graph(g) => Ok(Outcome {
                scores: g.fit(problem)?.unlabeled_scores(),
                alpha_l: None,
                alpha_u: None,
                lambda: g.params().lambda,
            }),
            Method::Svmlin(m) => Ok(Outcome {
                scores: m.fit(problem)?.scores(&problem.x_u),
                alpha_l: None,
                alpha_u: None,
                lambda: m.params().lambda,
            }),
        }
    }

    /// Parameters not in the row's α and λ columns, as `key=value` pairs (empty if none).
    pub fn describe(&self) -> String {
        match self {
            Method::Graph(g) => g.params().describe(),
            Method::Svmlin(m) => m.params().describe(),
            Method::SelfTraining(st) => st.params().describe(),
            Method::Select(s) => match s.policy {
                crate::selection::Policy::CrossValidation { folds } => format!("select=cv folds={folds} grid={}", s.grid.points),
                p => format!("select={} grid={}", p.name(), s.grid.points),
            },
            Method::Qlds(_) | Method::Spectral(_) | Method::SelectLambda(_) => String::new(),
        }
    }

    /// Whether the method handles more than two classes (the semi-supervised graph methods).
    pub fn is_multiclass(&self) -> bool {
        matches!(self, Method::Graph(g) if g.params().kind.uses_graph())
    }

    /// The λ policy label for result rows (`max_eig_all`, `fixed`, ... or `top_eig_unlabeled`).
    pub fn lambda_policy(&self) -> &'static str {
        match self {
            Method::Qlds(q) => q.params().lambda.name(),
            Method::Spectral(_) => "top_eig_unlabeled",
            Method::SelfTraining(st) => st.params().lambda.name(),
            Method::Select(s) => s.lambda.name(),
            Method::SelectLambda(_) => "cv",
            Method::Graph(_) => "fixed",
            Method::Svmlin(_) => "fixed",
        }
    }
}
