//! Fitting a binary graph or kernel method: prepare kernel and graph, run the method.

use ndarray::{Array1, ArrayViewMut1};

use super::binary::{cheeger, lap_rls, lap_svm, rls, svm, tv};
use super::prepared::Prepared;
use super::raw::RawFit;
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
