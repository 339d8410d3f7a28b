//! The QLDS closed form and the fitted linear scorer.

use faer::Mat;
use ndarray::{Array1, ArrayView2};

use super::{Moments, Qlds};
use crate::data::Problem;
use crate::engine::{Linear, Model};
use crate::error::Result;
use crate::linalg::{clear_upper_simd, column, spd_solve_in_place, to_array1};

/// A fitted QLDS classifier: f(x) = ωᵀ(x − mean)/√n.
#[derive(Debug, Clone)]
pub struct FittedQlds {
    pub omega: Array1<f64>,
    pub mean: Array1<f64>,
    /// The λ actually used.
    pub lambda: f64,
    /// n = n_l + n_u of the training problem.
    pub n: usize,
}

impl Qlds {
    /// Fits on a problem (centring, C_l, C_u, λ, Cholesky solve).
    pub fn fit(&self, problem: &Problem) -> Result<FittedQlds> {
        self.fit_prepared(&Moments::for_fit(problem)?)
    }

    /// Fits from precomputed moments, so a grid of parameters shares one [`Moments`].
    pub fn fit_prepared(&self, prep: &Moments) -> Result<FittedQlds> {
        let p = self.params();
        let lambda = prep.lambda(p.lambda)?;
        let d = prep.dim();
        // The lower triangle only (the Cholesky solve reads no other, factoring it in place),
        // column by column.
        let mut a = Mat::<f64>::zeros(d, d);
        for j in 0..d {
            let (l, u) = (column(prep.c_l.as_ref(), j), column(prep.c_u.as_ref(), j));
            let out = a.col_mut(j).try_as_col_major_mut().expect("contiguous").as_slice_mut();
            for i in j..d {
                out[i] = p.alpha_l * l[i] - p.alpha_u * u[i];
            }
            out[j] += lambda;
        }
        let mut omega = prep.rhs.clone();
        spd_solve_in_place(a.as_mut(), &mut omega, "QLDS system λI + α_l C_l − α_u C_u")?;
        Ok(FittedQlds {
            omega: to_array1(&omega.col(0).to_owned()),
            mean: prep.mean.clone(),
            lambda,
            n: prep.n(),
        })
    }
}

impl FittedQlds {
    /// The model f(x) = (xᵀω − meanᵀω)/√n, the arithmetic of [`scores`](Self::scores).
    pub fn model(&self) -> Model {
        Model::Linear(Linear::centred(
            self.omega.clone(),
            self.mean.clone(),
            (self.n as f64).sqrt(),
        ))
    }

    /// Scores f(x) of each row of `x` (raw, uncentred features).
    pub fn scores(&self, x: ArrayView2<f64>) -> Array1<f64> {
        // The dot products are scalar code after faer's solve (see `clear_upper_simd`).
        clear_upper_simd();
        let shift = self.mean.dot(&self.omega);
        (x.dot(&self.omega) - shift) / (self.n as f64).sqrt()
    }

    /// Predicted labels ±1 (a score of 0 predicts +1).
    pub fn predict(&self, x: ArrayView2<f64>) -> Array1<f64> {
        self.scores(x).mapv(|s| if s >= 0.0 { 1.0 } else { -1.0 })
    }
}
