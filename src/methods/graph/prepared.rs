//! What every method of one run shares: the stacked points (labeled first), the labels,
//! the kernel Gram matrix and (for the semi-supervised methods) the kNN graph.

use faer::linalg::matmul::matmul;
use faer::{Accum, ColMut, ColRef, MatRef};
use ndarray::{ArrayView2, Axis, concatenate};

use super::{Gram, KnnGraph, RbfKernel, SymGraph};
use crate::data::Problem;
use crate::error::{Error, Result};

/// Kernel and graph of one problem: N = n_l + n_u points, the first n_l labeled.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub n_labeled: usize,
    /// Labels of the labeled points (±1, or class ids as f64 for multi-class).
    pub y: Vec<f64>,
    pub gram: Gram,
    pub graph: Option<SymGraph>,
}

impl Prepared {
    /// Stacks [x_l; x_u], computes the Gram matrix and, when `graph` is given, the graph.
    pub fn new(problem: &Problem, kernel: &RbfKernel, graph: Option<&KnnGraph>) -> Result<Self> {
        let x = concatenate(Axis(0), &[problem.x_l.to_dense().view(), problem.x_u.to_dense().view()])
            .map_err(|e| Error::Data(format!("labeled and unlabeled rows differ in width: {e}")))?;
        Self::from_rows(x.view(), problem.y_l.to_vec(), kernel, graph)
    }

    /// From all rows `x`, the first `y.len()` of them labeled with `y`.
    pub fn from_rows(x: ArrayView2<f64>, y: Vec<f64>, kernel: &RbfKernel, graph: Option<&KnnGraph>) -> Result<Self> {
        if y.is_empty() || y.len() > x.nrows() {
            return Err(Error::Data(format!("{} labels for {} points (need at least one labeled point)", y.len(), x.nrows())));
        }
        Ok(Prepared {
            n_labeled: y.len(),
            y,
            gram: kernel.gram(x)?,
            graph: graph.map(|g| g.build(x)).transpose()?,
        })
    }

    /// Number of points N.
    pub fn n(&self) -> usize {
        self.gram.k.nrows()
    }

    /// The graph, or an error naming the method that needs it.
    pub fn graph(&self) -> Result<&SymGraph> {
        self.graph.as_ref().ok_or_else(|| Error::Data("this method needs the kNN graph".into()))
    }

    /// The labels padded with zeros to length N (the paper's y with J y = y).
    pub fn padded_labels(&self) -> Vec<f64> {
        let mut y = vec![0.0; self.n()];
        y[..self.n_labeled].copy_from_slice(&self.y);
        y
    }
}

/// out = A x.
pub(super) fn mat_vec(a: MatRef<'_, f64>, x: &[f64], out: &mut [f64]) {
    matmul(
        ColMut::from_slice_mut(out).as_mat_mut(),
        Accum::Replace,
        a,
        ColRef::from_slice(x).as_mat(),
        1.0,
        faer::get_global_parallelism(),
    );
}

/// √N · v / ‖v‖ (unit root-mean-square entries, the scale of ±1 labels); zero stays zero.
pub(super) fn normalise(v: &mut [f64]) {
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    if norm > 0.0 {
        let s = (v.len() as f64).sqrt() / norm;
        v.iter_mut().for_each(|x| *x *= s);
    }
}

/// The median (mean of the two middle values for even lengths); `work` is scratch.
pub(super) fn median(v: &[f64], work: &mut Vec<f64>) -> f64 {
    work.clear();
    work.extend_from_slice(v);
    let n = work.len();
    if n == 0 {
        return 0.0;
    }
    let (lo, hi, _) = work.select_nth_unstable_by(n / 2, f64::total_cmp);
    let upper = *hi;
    if n % 2 == 1 {
        upper
    } else {
        (lo.iter().copied().fold(f64::NEG_INFINITY, f64::max) + upper) / 2.0
    }
}
