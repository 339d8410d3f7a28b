//! What a fit returns before its decision rule: the raw scores of all points and, for the
//! kinds that have one, their kernel expansion (binary: [`RawFit`]; more classes:
//! [`RawMulticlass`]).

use faer::Mat;

use super::build::Landmarks;

/// A binary fit's raw scores on all N points (labeled first) and, for the kinds that have
/// one, their kernel expansion.
#[derive(Debug, Clone)]
pub struct RawFit {
    pub scores: Vec<f64>,
    pub expansion: Option<Expansion>,
}

/// Raw scores f(x) = Σᵢ coefᵢ K(xᵢ, x) + bias over the first coef.len() points (RLS and
/// SVM: the labeled ones; the others: all N) or over the Nyström landmarks. TV: the RKHS
/// variable f of the last f-step, which the scores g (a graph ROF solution) equal only at
/// the splitting's convergence.
#[derive(Debug, Clone)]
pub struct Expansion {
    pub coef: Vec<f64>,
    pub bias: f64,
    /// Over the landmarks of the Nyström kernel (`Gram::landmarks`), not the fit's points.
    pub landmarks: bool,
}

impl RawFit {
    /// Scores with no kernel expansion (Cheeger; TV after no iteration).
    pub fn scores_only(scores: Vec<f64>) -> Self {
        RawFit { scores, expansion: None }
    }

    /// Scores `f` = Σ coefᵢ K(xᵢ, ·) + `bias` on the fit's points.
    pub fn expanded(scores: Vec<f64>, coef: Vec<f64>, bias: f64) -> Self {
        RawFit { scores, expansion: Some(Expansion { coef, bias, landmarks: false }) }
    }

    /// Scores `f` = Z w + `bias` of the Nyström kernel: the expansion over its landmarks
    /// (coefficients W w).
    pub fn over_landmarks(scores: Vec<f64>, landmarks: &Landmarks, w: &[f64], bias: f64) -> Self {
        let coef = landmarks.coef(w);
        RawFit { scores, expansion: Some(Expansion { coef, bias, landmarks: true }) }
    }
}

/// A multi-class fit's raw scores F (N × c) on all N points (labeled first) and, for the
/// kinds with a kernel expansion (all but Cheeger), its coefficients a (N × c): the RKHS
/// variable F = K a over all N points, no bias (the scores themselves).
#[derive(Debug, Clone)]
pub struct RawMulticlass {
    pub scores: Mat<f64>,
    pub coef: Option<Mat<f64>>,
}
