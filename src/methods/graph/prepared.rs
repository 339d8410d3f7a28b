//! What every method of one run shares: the stacked points (labeled first), the labels,
//! the kernel Gram matrix (or its Nyström factor) and (for the semi-supervised methods) the
//! kNN graph.

use faer::Mat;
use ndarray::{ArrayView2, Axis, concatenate};

use super::{Gram, KernelMatrix, KnnGraph, RbfKernel, SymGraph};
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
    /// Label-independent smoothers K(λI + rK + γLK)⁻¹ keyed by (λ, r, γ), see
    /// [`Prepared::add_smoother`].
    pub(super) smoothers: Vec<((f64, f64, f64), Mat<f64>)>,
}

impl Prepared {
    /// Stacks [x_l; x_u], computes the Gram matrix and, when `graph` is given, the graph.
    pub fn new(problem: &Problem, kernel: &RbfKernel, graph: Option<&KnnGraph>) -> Result<Self> {
        let x = concatenate(
            Axis(0),
            &[problem.x_l.to_dense().view(), problem.x_u.to_dense().view()],
        )
        .map_err(|e| Error::Data(format!("labeled and unlabeled rows differ in width: {e}")))?;
        Self::from_rows(x.view(), problem.y_l.to_vec(), kernel, graph)
    }

    /// From all rows `x`, the first `y.len()` of them labeled with `y` (none: a base to
    /// [`reorder`](Self::reorder) for each draw of labeled points).
    pub fn from_rows(
        x: ArrayView2<f64>,
        y: Vec<f64>,
        kernel: &RbfKernel,
        graph: Option<&KnnGraph>,
    ) -> Result<Self> {
        if y.len() > x.nrows() {
            return Err(Error::Data(format!("{} labels for {} points", y.len(), x.nrows())));
        }
        Ok(Prepared {
            n_labeled: y.len(),
            y,
            gram: kernel.gram(x)?,
            graph: graph.map(|g| g.build(x)).transpose()?,
            smoothers: Vec::new(),
        })
    }

    /// The same points taken in `order` (a permutation of 0..N), the first `y.len()`
    /// labeled with `y`: kernel (or the rows of its factor) and graph are permuted, not
    /// recomputed (no smoothers).
    pub fn reorder(&self, order: &[usize], y: Vec<f64>) -> Result<Prepared> {
        let n = self.n();
        let mut position = vec![usize::MAX; n];
        for (new, &old) in order.iter().enumerate() {
            if old >= n || position[old] != usize::MAX {
                return Err(Error::Data(format!("reorder: not a permutation of 0..{n}")));
            }
            position[old] = new;
        }
        if order.len() != n || y.len() > n {
            return Err(Error::Data(format!(
                "reorder: {} indices and {} labels for {n} points",
                order.len(),
                y.len()
            )));
        }
        let graph = match &self.graph {
            Some(g) => Some(SymGraph::from_edges(
                n,
                g.edges().into_iter().map(|(i, j, w)| (position[i], position[j], w)),
            )?),
            None => None,
        };
        Ok(Prepared {
            n_labeled: y.len(),
            y,
            gram: Gram {
                k: match &self.gram.k {
                    KernelMatrix::Dense(k) => KernelMatrix::Dense(permute(k, order)),
                    KernelMatrix::LowRank(z, l) => KernelMatrix::LowRank(
                        Mat::from_fn(n, z.ncols(), |i, j| z[(order[i], j)]),
                        l.clone(),
                    ),
                },
                width: self.gram.width,
            },
            graph,
            smoothers: Vec::new(),
        })
    }

    /// Keeps the smoother K(λI + rK + γLK)⁻¹ for `key` = (λ, r, γ), given as `m` for the
    /// points in their original order and taken in `order` (as by [`reorder`](Self::reorder)):
    /// methods asking for the same key reuse it.
    pub fn add_smoother(&mut self, key: (f64, f64, f64), m: &Mat<f64>, order: &[usize]) {
        self.smoothers.push((key, permute(m, order)));
    }

    /// The cached smoother for (λ, r, γ), if any.
    pub fn cached_smoother(&self, lambda: f64, r: f64, gamma: f64) -> Option<&Mat<f64>> {
        self.smoothers.iter().find(|(key, _)| *key == (lambda, r, gamma)).map(|(_, m)| m)
    }

    /// Number of points N.
    pub fn n(&self) -> usize {
        self.gram.n()
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

/// P M Pᵀ for the permutation `order`: entry (i, j) is m[order[i], order[j]].
fn permute(m: &Mat<f64>, order: &[usize]) -> Mat<f64> {
    Mat::from_fn(order.len(), order.len(), |i, j| m[(order[i], order[j])])
}

/// √N · v / ‖v‖ (unit root-mean-square entries, the scale of ±1 labels); zero stays zero.
pub(crate) fn normalise(v: &mut [f64]) {
    normalise_to(v, (v.len() as f64).sqrt());
}

/// Rescales v to Euclidean norm `target` (left as is when zero); returns the factor.
pub(super) fn normalise_to(v: &mut [f64], target: f64) -> f64 {
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    if norm > 0.0 {
        let s = target / norm;
        v.iter_mut().for_each(|x| *x *= s);
        return s;
    }
    1.0
}

/// The median (mean of the two middle values for even lengths); `work` is scratch.
pub(crate) fn median(v: &[f64], work: &mut Vec<f64>) -> f64 {
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

/// The sign of v: 1, −1, or 0 at 0 (unlike `f64::signum`).
pub(crate) fn sign(v: f64) -> f64 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        0.0
    }
}
