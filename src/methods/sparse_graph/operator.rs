//! A symmetric operator A = diag(a) − Ŵ on a graph's sparsity pattern, with Ŵ the graph's
//! weights rescaled once (ŵ_ij = s_i w_ij s_j, zero on dropped rows and columns), applied to
//! n × c row-major blocks: the preconditioned systems of Laplace and Poisson learning in one
//! kernel, one pass over the stored entries per product.

use super::Graph;

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

    /// out = A p for n × c row-major blocks.
    pub fn apply(&self, c: usize, p: &[f64], out: &mut [f64]) {
        let (indptr, indices, _) = self.graph.csr();
        self.graph.for_rows(c, out, |i, _, _, out| {
            for (o, &v) in out.iter_mut().zip(&p[i * c..(i + 1) * c]) {
                *o = self.diag[i] * v;
            }
            let (a, b) = (indptr[i], indptr[i + 1]);
            for (&j, &w) in indices[a..b].iter().zip(&self.weights[a..b]) {
                let pj = &p[j as usize * c..(j as usize + 1) * c];
                for (o, &v) in out.iter_mut().zip(pj) {
                    *o -= w * v;
                }
            }
        });
    }
}
