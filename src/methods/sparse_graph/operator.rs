//! A symmetric operator A = diag(a) − Ŵ on a graph's sparsity pattern, with Ŵ the graph's
//! weights rescaled once (ŵ_ij = s_i w_ij s_j, zero on dropped rows and columns), applied to
//! n × c row-major blocks: the preconditioned systems of Laplace and Poisson learning in one
//! kernel, one pass over the stored entries per product, on the widest vector unit with c
//! fixed at compile time ([`by_width!`](crate::by_width)).

use rayon::prelude::*;

use super::Graph;
use crate::by_width;
use crate::linalg::{Kernel, column_blocks, widest};

/// Rows per parallel task of a product.
const CHUNK: usize = 2048;

/// diag(a) − Ŵ on the pattern of a graph.
#[derive(Debug, Clone)]
pub struct Operator<'g> {
    graph: &'g Graph,
    diag: Vec<f64>,
    weights: Vec<f64>,
}

impl<'g> Operator<'g> {
    /// ŵ_ij = s_i w_ij s_j where `keep[i]` and `keep[j]` (zero elsewhere), and the diagonal
    /// `diag`.
    pub fn new(graph: &'g Graph, s: &[f64], keep: impl Fn(usize) -> bool, diag: Vec<f64>) -> Self {
        let (indptr, indices, w) = graph.csr();
        let mut weights = vec![0.0; w.len()];
        for i in (0..graph.n()).filter(|&i| keep(i)) {
            for e in indptr[i]..indptr[i + 1] {
                let j = indices[e] as usize;
                if keep(j) {
                    weights[e] = s[i] * w[e] as f64 * s[j];
                }
            }
        }
        Operator { graph, diag, weights }
    }

    /// out = A p for n × c row-major blocks: out_i = a_i p_i, then −ŵ_ij p_j for the stored
    /// j in order.
    pub fn apply(&self, c: usize, p: &[f64], out: &mut [f64]) {
        if c == 0 {
            return;
        }
        out.par_chunks_mut(CHUNK * c).enumerate().for_each(|(t, out)| {
            widest(Rows { op: self, c, first: t * CHUNK, p, out });
        });
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
    type Output = ();
    #[inline(always)]
    fn run(self) {
        for (col, w) in column_blocks(self.c) {
            by_width!(w, rows(self.op, self.c, col, self.first, self.p, &mut *self.out));
        }
    }
}

/// Columns col..col + W of the rows: a_i p_i, then −ŵ_ij p_j in stored order.
#[inline(always)]
fn rows<const W: usize>(
    op: &Operator,
    c: usize,
    col: usize,
    first: usize,
    p: &[f64],
    out: &mut [f64],
) {
    let (indptr, indices, _) = op.graph.csr();
    let block =
        |j: usize| -> &[f64; W] { p[j * c + col..j * c + col + W].try_into().expect("W entries") };
    for (r, out) in out.chunks_exact_mut(c).enumerate() {
        let i = first + r;
        let (d, pi) = (op.diag[i], block(i));
        let mut acc = [0.0; W];
        for k in 0..W {
            acc[k] = d * pi[k];
        }
        let (a, b) = (indptr[i], indptr[i + 1]);
        for (&j, &w) in indices[a..b].iter().zip(&op.weights[a..b]) {
            let pj = block(j as usize);
            for k in 0..W {
                acc[k] -= w * pj[k];
            }
        }
        out[col..col + W].copy_from_slice(&acc);
    }
}
