//! What a fit leaves to score new rows: a [`Model`] of the training rows' feature space,
//! scoring any rows of that width (binary: one column; more classes: one column per class,
//! the same [`Scores`] as the fit's). The runner scores a split's test rows through it;
//! `save_models` writes it as `.npz` ([`file`]) and `sslab predict` reads it back. Linear
//! models here, the graph-only methods' neighbours rule in [`neighbours`], the RKHS graph
//! methods' kernel expansion in [`kernel`].

pub mod file;
pub mod kernel;
pub mod neighbours;
pub mod one_vs_rest;

use ndarray::{Array1, Array2, ArrayView2};
use rayon::prelude::*;

pub use kernel::{KernelExpansion, PointRule};
pub use neighbours::{KnnWeights, Neighbours};

use super::Scores;
use crate::data::{Csr, Features};
use crate::error::{Error, Result};
pub use one_vs_rest::OneVsRest;

/// Rows of dense input one task of a model's scoring takes.
const ROWS_PER_TASK: usize = 2048;

/// A fitted model.
#[derive(Debug, Clone, PartialEq)]
pub enum Model {
    /// Linear scores of the raw rows (the learned centring inside).
    Linear(Linear),
    /// One binary model per class, class k against the rest.
    OneVsRest(OneVsRest),
    /// The weighted mean of the scores of the nearest fit rows (graph-only methods).
    Neighbours(Neighbours),
    /// A kernel expansion over the fit's rows (RKHS graph methods).
    Kernel(KernelExpansion),
}

/// Linear scores, column k: f_k(x) = (x·w_k − c·w_k)/s + b_k, with the weights W (d × K),
/// the centre c learned from the training rows (none: no centring), a scale s and a bias b_k.
/// Dense rows multiply as ndarray's dot (each row's products in its unrolled order, rows in
/// parallel), sparse rows by their non-zeros in column order.
#[derive(Debug, Clone, PartialEq)]
pub struct Linear {
    pub weights: Array2<f64>,
    pub center: Option<Array1<f64>>,
    pub scale: f64,
    pub bias: Array1<f64>,
}

/// Rows a model scores: a dense view (no copy) or a CSR matrix.
#[derive(Debug, Clone, Copy)]
pub enum Rows<'a> {
    Dense(ArrayView2<'a, f64>),
    Sparse(&'a Csr),
}

impl<'a> From<&'a Features> for Rows<'a> {
    fn from(x: &'a Features) -> Self {
        match x {
            Features::Dense(x) => Rows::Dense(x.view()),
            Features::Sparse(x) => Rows::Sparse(x),
        }
    }
}

impl Rows<'_> {
    fn shape(&self) -> (usize, usize) {
        match self {
            Rows::Dense(x) => x.dim(),
            Rows::Sparse(x) => (x.nrows(), x.ncols()),
        }
    }
}

impl Model {
    /// The number of features a row must have.
    pub fn dim(&self) -> usize {
        match self {
            Model::Linear(m) => m.weights.nrows(),
            Model::OneVsRest(m) => m.models[0].dim(),
            Model::Neighbours(m) => m.dim(),
            Model::Kernel(m) => m.dim(),
        }
    }

    /// The number of score columns (1 for two classes, else one per class).
    pub fn columns(&self) -> usize {
        match self {
            Model::Linear(m) => m.weights.ncols(),
            Model::OneVsRest(m) => m.models.len(),
            Model::Neighbours(m) => m.scores.ncols(),
            Model::Kernel(m) => m.coef.ncols(),
        }
    }

    /// Scores of the rows of `x` (binary with one column, per class with more).
    pub fn score<'a>(&self, x: impl Into<Rows<'a>>) -> Result<Scores> {
        let x = x.into();
        let width = x.shape().1;
        if width != self.dim() {
            return Err(Error::Data(format!(
                "rows of {width} features, the model expects {}",
                self.dim()
            )));
        }
        match self {
            Model::Linear(m) => Ok(m.score(x)),
            Model::OneVsRest(m) => m.score(x),
            Model::Neighbours(m) => Ok(m.score(x)),
            Model::Kernel(m) => Ok(m.score(x)),
        }
    }
}

impl Linear {
    /// Binary scores x·w + b.
    pub fn affine(weights: Array1<f64>, bias: f64) -> Self {
        let d = weights.len();
        Linear {
            weights: weights.into_shape_with_order((d, 1)).expect("d × 1"),
            center: None,
            scale: 1.0,
            bias: Array1::from_elem(1, bias),
        }
    }

    /// Binary scores (x·w − c·w)/s of the rows centred at `center`.
    pub fn centred(weights: Array1<f64>, center: Array1<f64>, scale: f64) -> Self {
        Linear {
            center: Some(center),
            scale,
            bias: Array1::zeros(1),
            ..Linear::affine(weights, 0.0)
        }
    }

    /// Column `k`'s scores of the rows of `x`, which have the model's width.
    pub fn column(&self, x: Rows, k: usize) -> Array1<f64> {
        let w = self.weights.column(k);
        let mut out = match x {
            // ndarray's x.dot(&w) row by row (row · w, times 1), on the pool's threads.
            Rows::Dense(x) => {
                let mut o = vec![0.0; x.nrows()];
                o.par_chunks_mut(ROWS_PER_TASK).enumerate().for_each(|(c, chunk)| {
                    for (i, v) in chunk.iter_mut().enumerate() {
                        *v = x.row(c * ROWS_PER_TASK + i).dot(&w);
                    }
                });
                Array1::from(o)
            }
            Rows::Sparse(x) => {
                let mut o = Array1::zeros(x.nrows());
                x.mul_vec(w, o.view_mut());
                o
            }
        };
        if let Some(c) = &self.center {
            out -= c.dot(&w);
        }
        out /= self.scale;
        out += self.bias[k];
        out
    }

    fn score(&self, x: Rows) -> Scores {
        match self.weights.ncols() {
            1 => Scores::Binary(self.column(x, 0)),
            k => {
                let mut s = Array2::zeros((x.shape().0, k));
                for j in 0..k {
                    s.column_mut(j).assign(&self.column(x, j));
                }
                Scores::PerClass(s)
            }
        }
    }
}
