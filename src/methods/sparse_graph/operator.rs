//! A matrix diag(a) + V on a graph's sparsity pattern (V's entries in the graph's stored
//! order) applied to n × c row-major blocks, one pass over the stored entries per product,
//! on the widest vector unit with c fixed at compile time ([`by_width!`](crate::by_width)):
//! the preconditioned systems of Laplace and Poisson learning, and the steps of label
//! spreading and propagation.

use rayon::prelude::*;

use super::Graph;
use crate::by_width;
use crate::linalg::{CG_CHUNK, CgOperator, Kernel, block, column_blocks, sum_parts, widest};

/// diag(a) + V on the pattern of a graph (no diagonal: V alone).
#[derive(Debug, Clone)]
pub struct Operator<'g> {
    graph: &'g Graph,
    diag: Option<Vec<f64>>,
    values: Vec<f64>,
}

impl<'g> Operator<'g> {
    /// diag(a) + V with V's entries `values` in the graph's stored order.
    pub fn new(graph: &'g Graph, diag: Option<Vec<f64>>, values: Vec<f64>) -> Self {
        assert_eq!(values.len(), graph.nnz(), "one value per stored entry");
        Operator { graph, diag, values }
    }

    /// diag(a) − Ŵ with ŵ_ij = s_i w_ij s_j where `keep[i]` and `keep[j]` (zero elsewhere).
    pub fn scaled_laplacian(
        graph: &'g Graph,
        s: &[f64],
        keep: impl Fn(usize) -> bool,
        diag: Vec<f64>,
    ) -> Self {
        let (indptr, indices, w) = graph.csr();
        // −0.0, not 0.0: a + (−0.0)·p rounds as a − 0.0·p does, down to the sign of zero.
        let mut values = vec![-0.0; w.len()];
        for i in (0..graph.n()).filter(|&i| keep(i)) {
            for e in indptr[i]..indptr[i + 1] {
                let j = indices[e] as usize;
                if keep(j) {
                    values[e] = -(s[i] * w[e] as f64 * s[j]);
                }
            }
        }
        Operator::new(graph, Some(diag), values)
    }

    /// diag(a) + tV.
    pub fn times(mut self, t: f64) -> Self {
        self.values.iter_mut().for_each(|v| *v *= t);
        self
    }

    /// Row i: its diagonal entry (0 without a diagonal), its columns and V's entries there.
    pub fn row(&self, i: usize) -> (f64, &[u32], &[f64]) {
        let (indptr, indices, _) = self.graph.csr();
        let (a, b) = (indptr[i], indptr[i + 1]);
        (self.diag.as_ref().map_or(0.0, |d| d[i]), &indices[a..b], &self.values[a..b])
    }

    /// The number of rows.
    pub fn n(&self) -> usize {
        self.graph.n()
    }

    /// out = (diag(a) + V) p for n × c row-major blocks: out_i = a_i p_i (or 0), then
    /// + v_ij p_j for the stored j in order.
    pub fn apply(&self, c: usize, p: &[f64], out: &mut [f64]) {
        self.apply_dots(c, p, out);
    }
}

impl CgOperator for Operator<'_> {
    /// The product with its column sums Σ_i p_ij out_ij taken row by row as it goes.
    fn apply_dots(&self, c: usize, p: &[f64], out: &mut [f64]) -> Vec<f64> {
        if c == 0 {
            return Vec::new();
        }
        let parts = out
            .par_chunks_mut(CG_CHUNK * c)
            .enumerate()
            .map(|(t, out)| widest(Rows { op: self, c, first: t * CG_CHUNK, p, out }))
            .collect();
        sum_parts(parts, c)
    }
}

/// The rows `first..` of a product (as many as `out` holds) as a [`Kernel`].
struct Rows<'a, 'g> {
    op: &'a Operator<'g>,
    c: usize,
    first: usize,
    p: &'a [f64],
    out: &'a mut [f64],
}

impl Kernel for Rows<'_, '_> {
    type Output = Vec<f64>;
    #[inline(always)]
    fn run(self) -> Vec<f64> {
        let mut dots = vec![0.0; self.c];
        for (col, w) in column_blocks(self.c) {
            let dots = &mut dots[col..];
            by_width!(w, rows(self.op, self.c, col, self.first, self.p, &mut *self.out, dots));
        }
        dots
    }
}

/// Columns col..col + W of the rows: a_i p_i (or 0), then + v_ij p_j in stored order; their
/// sums Σ_i p_ik out_ik in row order into `dots`.
#[inline(always)]
fn rows<const W: usize>(
    op: &Operator,
    c: usize,
    col: usize,
    first: usize,
    p: &[f64],
    out: &mut [f64],
    dots: &mut [f64],
) {
    let (indptr, indices, _) = op.graph.csr();
    let mut sums = [0.0; W];
    for (r, out) in out.chunks_exact_mut(c).enumerate() {
        let i = first + r;
        let pi = block::<W>(p, i * c + col);
        let mut acc = [0.0; W];
        if let Some(diag) = &op.diag {
            for k in 0..W {
                acc[k] = diag[i] * pi[k];
            }
        }
        let (a, b) = (indptr[i], indptr[i + 1]);
        for (&j, &v) in indices[a..b].iter().zip(&op.values[a..b]) {
            let pj = block::<W>(p, j as usize * c + col);
            for k in 0..W {
                acc[k] += v * pj[k];
            }
        }
        for k in 0..W {
            sums[k] += pi[k] * acc[k];
        }
        out[col..col + W].copy_from_slice(&acc);
    }
    dots[..W].copy_from_slice(&sums);
}
