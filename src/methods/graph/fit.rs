//! Fitting a binary graph or kernel method: prepare kernel and graph, run the method.

use ndarray::{Array1, ArrayViewMut1};

use super::binary::{cheeger, lap_rls, lap_svm, rls, svm, tv};
use super::prepared::Prepared;
use super::{GraphKind, GraphMethod};
use crate::data::Problem;
use crate::error::{Error, Result};

/// Transductive scores of a fitted method (sign = predicted label).
#[derive(Debug, Clone)]
pub struct FittedGraph {
    /// Scores of all N points, the labeled ones first (the unlabeled ones after the
    /// method's decision rule).
    pub scores: Vec<f64>,
    pub n_labeled: usize,
    /// The RBF width s actually used.
    pub kernel_width: f64,
}

/// A binary fit's raw scores on all N points (labeled first) and, for the kinds that have
/// one, their kernel expansion.
#[derive(Debug, Clone)]
pub struct RawFit {
    pub scores: Vec<f64>,
    pub expansion: Option<Expansion>,
}

/// Raw scores f(x) = Σᵢ coefᵢ K(xᵢ, x) + bias over the first coef.len() points (RLS and
/// SVM: the labeled ones; the others: all N). TV: the RKHS variable f of the last
/// f-step, which the scores g (a graph ROF solution) equal only at the splitting's
/// convergence.
#[derive(Debug, Clone)]
pub struct Expansion {
    pub coef: Vec<f64>,
    pub bias: f64,
}

impl RawFit {
    /// Scores with no kernel expansion (Cheeger, the Nyström kernel, TV's `tv_project = "fhg"`).
    pub fn scores_only(scores: Vec<f64>) -> Self {
        RawFit { scores, expansion: None }
    }

    /// Scores `f` = Σ coefᵢ K(xᵢ, ·) + `bias` on the fit's points.
    pub fn expanded(scores: Vec<f64>, coef: Vec<f64>, bias: f64) -> Self {
        RawFit { scores, expansion: Some(Expansion { coef, bias }) }
    }
}

impl FittedGraph {
    /// Scores of the unlabeled points.
    pub fn unlabeled_scores(&self) -> Array1<f64> {
        Array1::from(self.scores[self.n_labeled..].to_vec())
    }
}

impl GraphMethod {
    /// Builds the kernel (and the graph when used), runs the method and applies its
    /// decision rule to the unlabeled scores.
    pub fn fit(&self, problem: &Problem) -> Result<FittedGraph> {
        let p = self.params();
        let graph = p.kind.uses_graph().then_some(&p.graph);
        let prep = Prepared::new(problem, &p.kernel, graph)?;
        let mut scores = self.fit_prepared(&prep)?.scores;
        p.decision.binary(ArrayViewMut1::from(&mut scores[prep.n_labeled..]), &prep.y)?;
        Ok(FittedGraph { scores, n_labeled: prep.n_labeled, kernel_width: prep.gram.width })
    }

    /// Raw scores of all points and their expansion from a prepared kernel and graph (built
    /// with this method's kernel and graph settings).
    pub fn fit_prepared(&self, prep: &Prepared) -> Result<RawFit> {
        let p = self.params();
        if prep.n_labeled == 0 {
            return Err(Error::Data("graph methods need at least one labeled point".into()));
        }
        match p.kind {
            GraphKind::Rls => rls::rls(prep, p),
            GraphKind::Svm => svm::svm(prep, p),
            GraphKind::LapRls => lap_rls::lap_rls(prep, p),
            GraphKind::LapSvm => lap_svm::lap_svm(prep, p),
            GraphKind::TvRls => tv::tv_rls(prep, p),
            GraphKind::TvSvm => tv::tv_svm(prep, p),
            GraphKind::CheegerRls => cheeger::cheeger_rls(prep, p),
            GraphKind::CheegerSvm => cheeger::cheeger_svm(prep, p),
        }
    }
}
