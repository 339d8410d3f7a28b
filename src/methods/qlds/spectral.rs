//! Spectral clustering as the λ → λ_max(C_u) limit of QLDS(0, 1): score ∝ u_maxᵀx, the
//! projection on the top eigenvector of C_u, its sign oriented by the labeled data.

use ndarray::{Array1, ArrayView2};

use super::Prepared;
use crate::data::Problem;
use crate::error::Result;
use crate::linalg::{SymEigen, sym_eigen};

/// Spectral clustering on the unlabeled covariance (no parameters).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spectral;

/// The oriented top eigenvector of C_u and the centring mean.
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
        self.fit_prepared(&Prepared::new(problem)?)
    }

    /// Fits from precomputed moments.
    pub fn fit_prepared(&self, prep: &Prepared) -> Result<FittedSpectral> {
        Ok(self.fit_eigen(prep, &sym_eigen(prep.c_u.as_ref(), "eigen-decomposition of C_u")?))
    }

    /// Fits from the moments and the eigen-decomposition of C_u already made.
    pub fn fit_eigen(&self, prep: &Prepared, eig: &SymEigen) -> FittedSpectral {
        let top = eig.values.len() - 1;
        let mut direction = Array1::from_iter(eig.vectors.col(top).iter().copied());
        // Orientation: Σ_i y_i uᵀx_i over the labeled points should be ≥ 0.
        let agreement: f64 = (0..prep.dim()).map(|j| direction[j] * prep.rhs[(j, 0)]).sum();
        if agreement < 0.0 {
            direction.mapv_inplace(|v| -v);
        }
        FittedSpectral {
            direction,
            mean: prep.mean.clone(),
            top_eigenvalue: eig.values[top],
        }
    }
}

impl FittedSpectral {
    /// Projection of the centred rows of `x` on the oriented top eigenvector.
    pub fn scores(&self, x: ArrayView2<f64>) -> Array1<f64> {
        x.dot(&self.direction) - self.mean.dot(&self.direction)
    }
}
