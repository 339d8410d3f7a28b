//! The QLDS closed form and the fitted linear scorer.

use faer::{ColMut, Mat};
use ndarray::{Array1, ArrayView2};
use rayon::prelude::*;

use super::{Moments, Qlds};
use crate::data::Problem;
use crate::engine::{Linear, Model};
use crate::error::Result;
use crate::linalg::{clear_upper_simd, column, row_dots, spd_solve_in_place, to_array1};

/// The smallest dimension whose system is formed by several threads.
const PARALLEL_DIM: usize = 512;

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
    /// Fits on a problem (centring, C_l, C_u, λ, Cholesky solve); the system is formed in
    /// place of C_u, whose moments are not kept.
    pub fn fit(&self, problem: &Problem) -> Result<FittedQlds> {
        let mut prep = Moments::for_fit(problem)?;
        let lambda = prep.lambda(self.params().lambda)?;
        let c_u = std::mem::replace(&mut prep.c_u, Mat::new());
        self.solve(&prep, lambda, c_u)
    }

    /// Fits from precomputed moments, so a grid of parameters shares one [`Moments`].
    pub fn fit_prepared(&self, prep: &Moments) -> Result<FittedQlds> {
        let lambda = prep.lambda(self.params().lambda)?;
        self.solve(prep, lambda, prep.c_u.clone())
    }

    /// Solves (λI + α_l C_l − α_u C_u) ω = rhs with `a` = C_u on entry: its lower triangle
    /// becomes the system's, column by column, and then the Cholesky factor (the solve reads
    /// no other entry; the strict upper triangle is zeroed, as the factorisation needs).
    fn solve(&self, prep: &Moments, lambda: f64, mut a: Mat<f64>) -> Result<FittedQlds> {
        let p = self.params();
        let d = prep.dim();
        let form = |(j, col): (usize, ColMut<'_, f64>)| {
            let l = column(prep.c_l.as_ref(), j);
            let out = col.try_as_col_major_mut().expect("contiguous").as_slice_mut();
            out[..j].fill(0.0);
            for i in j..d {
                out[i] = p.alpha_l * l[i] - p.alpha_u * out[i];
            }
            out[j] += lambda;
        };
        // Entry by entry, so the columns may be shared among threads.
        let columns = a.col_iter_mut().enumerate();
        if d >= PARALLEL_DIM && rayon::current_num_threads() > 1 {
            columns.collect::<Vec<_>>().into_par_iter().with_min_len(16).for_each(form);
        } else {
            columns.for_each(form);
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
        (row_dots(x, self.omega.view()) - shift) / (self.n as f64).sqrt()
    }

    /// Predicted labels ±1 (a score of 0 predicts +1).
    pub fn predict(&self, x: ArrayView2<f64>) -> Array1<f64> {
        self.scores(x).mapv(|s| if s >= 0.0 { 1.0 } else { -1.0 })
    }
}
