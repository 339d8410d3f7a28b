//! Spectral clustering as the λ → λ_max(C_u) limit of QLDS(0, 1): score ∝ u_maxᵀx, the
//! projection on the top eigenvector of C_u, its sign oriented by the labeled data. The
//! variants (no centring, the covariance of all points, no orientation) exist to test
//! readings of the QLDS paper's Table 2 column 3 (configs/ablations/).

use ndarray::{Array1, ArrayView2};

use super::Moments;
use crate::data::Problem;
use crate::engine::{Linear, Model};
use crate::error::Result;
use faer::Mat;

use crate::linalg::{SymEigen, gram, sym_eigen};

/// Spectral clustering; the default is the λ → λ_max(C_u) limit of QLDS(0, 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spectral {
    /// Centre the points with the global mean (else raw second moments and scores).
    pub center: bool,
    /// The top eigenvector of X_uᵀX_u/n (false: of XᵀX/n over all points).
    pub unlabeled_only: bool,
    /// Orient the sign by the labeled points (else the eigensolver's sign).
    pub orient: bool,
}

impl Default for Spectral {
    fn default() -> Self {
        Spectral { center: true, unlabeled_only: true, orient: true }
    }
}

/// The oriented top eigenvector and the centring mean (zero without centring).
#[derive(Debug, Clone)]
pub struct FittedSpectral {
    /// Unit top eigenvector of C_u, oriented so that labeled points score with their label.
    pub direction: Array1<f64>,
    pub mean: Array1<f64>,
    /// λ_max(C_u).
    pub top_eigenvalue: f64,
}

impl Spectral {
    /// Fits on a problem.
    pub fn fit(&self, problem: &Problem) -> Result<FittedSpectral> {
        self.fit_prepared(&Moments::new(problem)?)
    }

    /// Fits from precomputed moments.
    pub fn fit_prepared(&self, prep: &Moments) -> Result<FittedSpectral> {
        Ok(self.fit_eigen(
            prep,
            &sym_eigen(self.matrix(prep).as_ref(), "eigen-decomposition of the spectral matrix")?,
        ))
    }

    /// The matrix whose top eigenvector is taken: C_u by default.
    pub fn matrix(&self, prep: &Moments) -> Mat<f64> {
        let n = prep.n() as f64;
        let raw = |x: &ndarray::Array2<f64>| if self.center { x.clone() } else { x + &prep.mean };
        let mut m = gram(&raw(&prep.x_u).view(), 1.0 / n);
        if !self.unlabeled_only {
            m += gram(&raw(&prep.x_l).view(), 1.0 / n);
        }
        m
    }

    /// Fits from the moments and the eigen-decomposition of [`matrix`](Self::matrix).
    pub fn fit_eigen(&self, prep: &Moments, eig: &SymEigen) -> FittedSpectral {
        let top = eig.values.len() - 1;
        let mut direction = Array1::from_iter(eig.vectors.col(top).iter().copied());
        // Orientation: Σ_i y_i uᵀx_i over the labeled points should be ≥ 0.
        let agreement: f64 = (0..prep.dim()).map(|j| direction[j] * prep.rhs[(j, 0)]).sum();
        if self.orient && agreement < 0.0 {
            direction.mapv_inplace(|v| -v);
        }
        let mean = if self.center { prep.mean.clone() } else { Array1::zeros(prep.dim()) };
        FittedSpectral { direction, mean, top_eigenvalue: eig.values[top] }
    }

    /// The non-default settings as `key=value` pairs (empty for the default).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.center {
            parts.push("center=false");
        }
        if !self.unlabeled_only {
            parts.push("matrix=all");
        }
        if !self.orient {
            parts.push("orient=false");
        }
        parts.join(" ")
    }
}

impl FittedSpectral {
    /// Projection of the centred rows of `x` on the oriented top eigenvector.
    pub fn scores(&self, x: ArrayView2<f64>) -> Array1<f64> {
        x.dot(&self.direction) - self.mean.dot(&self.direction)
    }

    /// The model of [`scores`](Self::scores): (xᵀu − meanᵀu), scale 1.
    pub fn model(&self) -> Model {
        Model::Linear(Linear::centred(self.direction.clone(), self.mean.clone(), 1.0))
    }
}
