//! The sparse weighted graph of the graph-only methods: a symmetric weight matrix W in CSR
//! form with `u32` column indices and `f32` weights (8 bytes per stored entry), no self
//! loops. Built once per dataset (`knn.rs`) or read from a file (`graph_file.rs`).

use super::aggregates::{Aggregates, AggregatesCache};
use crate::error::{Error, Result};
use rayon::prelude::*;

/// Rows per parallel task of [`Graph::for_rows`].
const CHUNK: usize = 2048;

/// How directed kNN weights w_ij (j among i's neighbours) become a symmetric W.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Symmetrise {
    /// (W + Wᵀ)/2: an edge found from one side only keeps half its weight (GraphLearning).
    #[default]
    Mean,
    /// max(W, Wᵀ): the union of the lists, each edge at its larger weight.
    Max,
    /// min(W, Wᵀ) over edges found from both sides: the mutual kNN graph.
    Mutual,
    /// W as found: row i holds i's own neighbours (scikit-learn's `kneighbors_graph`); for
    /// label spreading and propagation only.
    None,
}

impl Symmetrise {
    /// Every rule, in config order.
    pub const ALL: [Symmetrise; 4] =
        [Symmetrise::Mean, Symmetrise::Max, Symmetrise::Mutual, Symmetrise::None];

    /// The config spelling (`mean`, `max`, `mutual`).
    pub fn name(&self) -> &'static str {
        match self {
            Symmetrise::Mean => "mean",
            Symmetrise::Max => "max",
            Symmetrise::Mutual => "mutual",
            Symmetrise::None => "none",
        }
    }
}

/// A non-negative weight matrix, symmetric unless built with [`Symmetrise::None`]: row i
/// holds its neighbours sorted by index.
#[derive(Debug, Clone, PartialEq)]
pub struct Graph {
    indptr: Vec<usize>,
    indices: Vec<u32>,
    weights: Vec<f32>,
    symmetric: bool,
    /// Recall@k of the neighbour lists it was built from against exact neighbours on a
    /// sample (approximate searches only).
    recall: Option<f64>,
    aggregates: AggregatesCache, // of the deflated solves, once computed
}

impl Graph {
    /// From directed weighted edges (i, j, w), i ≠ j, symmetrised by `rule`; a pair given
    /// twice in one direction keeps its larger weight. Fails on self loops, indices ≥ n,
    /// negative or non-finite weights, and more than 2³² nodes.
    pub fn from_directed(
        n: usize,
        edges: impl IntoIterator<Item = (usize, usize, f32)>,
        rule: Symmetrise,
    ) -> Result<Self> {
        if n > u32::MAX as usize {
            return Err(Error::Data(format!("a graph holds at most 2^32 nodes, got {n}")));
        }
        // Counting sort into rows, both directions, each entry tagged with its direction.
        let edges: Vec<(u32, u32, f32)> = edges
            .into_iter()
            .map(|(i, j, w)| {
                if i >= n || j >= n || i == j {
                    return Err(Error::Data(format!(
                        "graph edge ({i}, {j}) is a self loop or out of 0..{n}"
                    )));
                }
                if !(w.is_finite() && w >= 0.0) {
                    return Err(Error::Data(format!("graph edge ({i}, {j}) has weight {w}")));
                }
                Ok((i as u32, j as u32, w))
            })
            .collect::<Result<_>>()?;
        let both = rule != Symmetrise::None;
        let mut count = vec![0usize; n + 1];
        for &(i, j, _) in &edges {
            count[i as usize + 1] += 1;
            if both {
                count[j as usize + 1] += 1;
            }
        }
        for r in 0..n {
            count[r + 1] += count[r];
        }
        let mut next = count.clone();
        // (neighbour, weight, found from this row's side)
        let mut slots = vec![(0u32, 0f32, false); count[n]];
        for &(i, j, w) in &edges {
            slots[next[i as usize]] = (j, w, true);
            next[i as usize] += 1;
            if both {
                slots[next[j as usize]] = (i, w, false);
                next[j as usize] += 1;
            }
        }
        drop(edges);
        let mut indptr = Vec::with_capacity(n + 1);
        let mut indices = Vec::new();
        let mut weights = Vec::new();
        indptr.push(0);
        for r in 0..n {
            let row = &mut slots[count[r]..count[r + 1]];
            row.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
            let mut s = 0;
            while s < row.len() {
                let j = row[s].0;
                // The largest weight found from each side (0 when not found from it).
                let (mut out, mut inward) = (None::<f32>, None::<f32>);
                while s < row.len() && row[s].0 == j {
                    let (_, w, from_here) = row[s];
                    let side = if from_here { &mut out } else { &mut inward };
                    *side = Some(side.map_or(w, |v| v.max(w)));
                    s += 1;
                }
                let w = match rule {
                    Symmetrise::Mean => (out.unwrap_or(0.0) + inward.unwrap_or(0.0)) / 2.0,
                    Symmetrise::Max | Symmetrise::None => {
                        out.unwrap_or(0.0).max(inward.unwrap_or(0.0))
                    }
                    Symmetrise::Mutual => match (out, inward) {
                        (Some(a), Some(b)) => a.min(b),
                        _ => continue,
                    },
                };
                indices.push(j);
                weights.push(w);
            }
            indptr.push(indices.len());
        }
        Ok(Graph::assemble(indptr, indices, weights, both, None))
    }

    /// From the CSR arrays of a weight matrix (as scipy.sparse stores it), symmetrised by
    /// `rule` (a symmetric matrix stays as it is under `Max` and `Mean`); the diagonal and
    /// explicit zeros are dropped. Fails when the arrays are inconsistent.
    pub fn from_csr(
        indptr: &[usize],
        indices: &[u32],
        weights: &[f32],
        rule: Symmetrise,
    ) -> Result<Self> {
        let n = indptr.len().checked_sub(1).ok_or_else(|| Error::Data("empty indptr".into()))?;
        let bad = indptr[0] != 0
            || indptr.windows(2).any(|w| w[0] > w[1])
            || indptr[n] != indices.len()
            || indices.len() != weights.len();
        if bad {
            return Err(Error::Data(format!(
                "graph: indptr ({} entries) does not describe {} indices and {} weights",
                indptr.len(),
                indices.len(),
                weights.len()
            )));
        }
        let edges = (0..n).flat_map(|i| {
            (indptr[i]..indptr[i + 1])
                .map(move |e| (i, indices[e] as usize, weights[e]))
                .filter(|&(i, j, w)| i != j && w != 0.0)
        });
        Graph::from_directed(n, edges, rule)
    }

    /// From CSR arrays as [`csr`](Self::csr) gives them (None unless the row pointers run
    /// from 0 to the entries, every row's indices are increasing, below n and not its own,
    /// and every weight is finite and non-negative).
    pub fn from_parts(
        indptr: Vec<usize>,
        indices: Vec<u32>,
        weights: Vec<f32>,
        symmetric: bool,
    ) -> Option<Self> {
        let n = indptr.len().checked_sub(1)?;
        let ok = indptr[0] == 0
            && indptr[n] == indices.len()
            && indices.len() == weights.len()
            && indptr.windows(2).all(|w| w[0] <= w[1])
            && (0..n).all(|i| {
                let row = &indices[indptr[i]..indptr[i + 1]];
                row.windows(2).all(|w| w[0] < w[1])
                    && row.iter().all(|&j| (j as usize) < n && j as usize != i)
            })
            && weights.iter().all(|w| w.is_finite() && *w >= 0.0);
        ok.then_some(Graph::assemble(indptr, indices, weights, symmetric, None))
    }

    /// The same graph carrying the measured recall of its search.
    pub fn with_recall(mut self, recall: f64) -> Self {
        self.recall = Some(recall);
        self
    }

    /// Recall@k of an approximate search (None: exact or given).
    pub fn recall(&self) -> Option<f64> {
        self.recall
    }

    /// Whether W = Wᵀ (every rule but [`Symmetrise::None`]).
    pub fn is_symmetric(&self) -> bool {
        self.symmetric
    }

    /// A graph of these arrays, its aggregates not yet computed.
    fn assemble(
        indptr: Vec<usize>,
        indices: Vec<u32>,
        weights: Vec<f32>,
        symmetric: bool,
        recall: Option<f64>,
    ) -> Graph {
        Graph { indptr, indices, weights, symmetric, recall, aggregates: Default::default() }
    }

    /// The aggregates of Laplace and Poisson's deflated solves, computed once (`aggregates.rs`).
    pub fn aggregates(&self) -> &Aggregates {
        self.aggregates.get(self.n(), |i| self.row(i).0)
    }

    /// Number of nodes.
    pub fn n(&self) -> usize {
        self.indptr.len() - 1
    }

    /// Number of stored entries (each undirected edge twice).
    pub fn nnz(&self) -> usize {
        self.indices.len()
    }

    /// Row i: its neighbours (sorted) and their weights.
    pub fn row(&self, i: usize) -> (&[u32], &[f32]) {
        let (a, b) = (self.indptr[i], self.indptr[i + 1]);
        (&self.indices[a..b], &self.weights[a..b])
    }

    /// The degrees d_i = Σ_j w_ij, summed in f64 in index order.
    pub fn degrees(&self) -> Vec<f64> {
        (0..self.n()).map(|i| self.row(i).1.iter().map(|&w| w as f64).sum()).collect()
    }

    /// Bytes held by the three arrays.
    pub fn size_bytes(&self) -> usize {
        self.indptr.len() * 8 + self.indices.len() * 4 + self.weights.len() * 4
    }

    /// The CSR arrays (row pointers, column indices, weights).
    pub fn csr(&self) -> (&[usize], &[u32], &[f32]) {
        (&self.indptr, &self.indices, &self.weights)
    }

    /// The subgraph on `nodes` (in that order): node a of the result is `nodes[a]`.
    pub fn induced(&self, nodes: &[usize]) -> Result<Graph> {
        let rule = if self.symmetric { Symmetrise::Max } else { Symmetrise::None };
        let mut position = vec![u32::MAX; self.n()];
        for (a, &i) in nodes.iter().enumerate() {
            position[i] = a as u32;
        }
        let mut edges = Vec::new();
        for (a, &i) in nodes.iter().enumerate() {
            let (cols, ws) = self.row(i);
            for (&j, &w) in cols.iter().zip(ws) {
                let b = position[j as usize];
                if b != u32::MAX && (!self.symmetric || (a as u32) < b) {
                    edges.push((a, b as usize, w));
                }
            }
        }
        Graph::from_directed(nodes.len(), edges, rule)
    }

    /// Runs `f(i, neighbours, weights, out_i)` for every row i, where `out_i` is row i of the
    /// n × c row-major `out`; rows in fixed chunks on rayon (the result does not depend on
    /// the number of threads).
    pub fn for_rows(
        &self,
        c: usize,
        out: &mut [f64],
        f: impl Fn(usize, &[u32], &[f32], &mut [f64]) + Sync,
    ) {
        out.par_chunks_mut(CHUNK * c).enumerate().for_each(|(t, block)| {
            for (r, out_i) in block.chunks_mut(c).enumerate() {
                let i = t * CHUNK + r;
                let (cols, ws) = self.row(i);
                f(i, cols, ws, out_i);
            }
        });
    }

    /// Column sums Σ_i w_ij (the in-degrees of a directed graph; the degrees otherwise).
    pub fn column_sums(&self) -> Vec<f64> {
        let mut s = vec![0.0; self.n()];
        for (&j, &w) in self.indices.iter().zip(&self.weights) {
            s[j as usize] += w as f64;
        }
        s
    }

    /// The connected components (of the undirected graph W + Wᵀ): their number and each
    /// node's component, numbered in order of their smallest node.
    pub fn components(&self) -> (usize, Vec<u32>) {
        let n = self.n();
        let mut parent: Vec<u32> = (0..n as u32).collect();
        fn root(parent: &mut [u32], mut i: u32) -> u32 {
            while parent[i as usize] != i {
                let up = parent[parent[i as usize] as usize];
                parent[i as usize] = up;
                i = up;
            }
            i
        }
        for i in 0..n {
            for &j in self.row(i).0 {
                let (a, b) = (root(&mut parent, i as u32), root(&mut parent, j));
                if a != b {
                    parent[a.max(b) as usize] = a.min(b);
                }
            }
        }
        let mut label = vec![u32::MAX; n];
        let mut count = 0u32;
        for i in 0..n {
            let r = root(&mut parent, i as u32) as usize;
            if label[r] == u32::MAX {
                label[r] = count;
                count += 1;
            }
            label[i] = label[r];
        }
        (count as usize, label)
    }

    /// A breadth-first order of the nodes (from node 0, neighbours in index order, then from
    /// the first node not reached, ...): neighbours get nearby numbers, so that products over
    /// the graph read nearby memory.
    pub fn breadth_first(&self) -> Vec<usize> {
        let n = self.n();
        let mut seen = vec![false; n];
        let mut order = Vec::with_capacity(n);
        for start in 0..n {
            if seen[start] {
                continue;
            }
            seen[start] = true;
            order.push(start);
            let mut head = order.len() - 1;
            while head < order.len() {
                let i = order[head];
                head += 1;
                for &j in self.row(i).0 {
                    if !seen[j as usize] {
                        seen[j as usize] = true;
                        order.push(j as usize);
                    }
                }
            }
        }
        order
    }

    /// This graph renumbered breadth-first (products over it then read nearby memory), and
    /// each old node's new number.
    pub fn renumbered(&self) -> (Graph, Vec<usize>) {
        let order = self.breadth_first();
        let mut node = vec![0; order.len()];
        order.iter().enumerate().for_each(|(a, &r)| node[r] = a);
        (self.permuted(&order), node)
    }

    /// The same graph with node a of the result being node `order[a]` of this one (`order` a
    /// permutation of 0..n).
    pub fn permuted(&self, order: &[usize]) -> Graph {
        let mut position = vec![0u32; self.n()];
        for (a, &i) in order.iter().enumerate() {
            position[i] = a as u32;
        }
        let mut indptr = Vec::with_capacity(self.n() + 1);
        let mut indices = Vec::with_capacity(self.nnz());
        let mut weights = Vec::with_capacity(self.nnz());
        indptr.push(0);
        let mut row: Vec<(u32, f32)> = Vec::new();
        for &i in order {
            let (cols, ws) = self.row(i);
            row.clear();
            row.extend(cols.iter().zip(ws).map(|(&j, &w)| (position[j as usize], w)));
            row.sort_unstable_by_key(|e| e.0);
            indices.extend(row.iter().map(|e| e.0));
            weights.extend(row.iter().map(|e| e.1));
            indptr.push(indices.len());
        }
        Graph::assemble(indptr, indices, weights, self.symmetric, self.recall)
    }
}
