//! Sparse symmetric weight matrices W (CSR rows, no diagonal), the graphs of the methods.

use crate::error::{Error, Result};

/// A symmetric non-negative weight matrix in CSR form: row i holds its neighbours sorted
/// by index with their weights; w_ij = w_ji, no self loops.
#[derive(Debug, Clone, PartialEq)]
pub struct SymGraph {
    indptr: Vec<usize>,
    indices: Vec<usize>,
    weights: Vec<f64>,
    /// The Laplacian's diagonal when it is not the degrees (the normalised graph's).
    diagonal: Option<Vec<f64>>,
}

impl SymGraph {
    /// Builds from undirected edges (i, j, w), i ≠ j; a pair given twice keeps the larger
    /// weight. Fails on self loops, indices ≥ n, or weights that are negative or not finite.
    pub fn from_edges(
        n: usize,
        edges: impl IntoIterator<Item = (usize, usize, f64)>,
    ) -> Result<Self> {
        let mut rows: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
        for (i, j, w) in edges {
            if i >= n || j >= n || i == j {
                return Err(Error::Data(format!(
                    "graph edge ({i}, {j}) is a self loop or out of 0..{n}"
                )));
            }
            if !(w.is_finite() && w >= 0.0) {
                return Err(Error::Data(format!("graph edge ({i}, {j}) has weight {w}")));
            }
            rows[i].push((j, w));
            rows[j].push((i, w));
        }
        let mut indptr = Vec::with_capacity(n + 1);
        let mut indices = Vec::new();
        let mut weights = Vec::new();
        indptr.push(0);
        for mut row in rows {
            row.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
            row.dedup_by_key(|e| e.0);
            for (j, w) in row {
                indices.push(j);
                weights.push(w);
            }
            indptr.push(indices.len());
        }
        Ok(SymGraph { indptr, indices, weights, diagonal: None })
    }

    /// Number of nodes.
    pub fn n(&self) -> usize {
        self.indptr.len() - 1
    }

    /// Number of stored entries (each undirected edge twice).
    pub fn nnz(&self) -> usize {
        self.indices.len()
    }

    /// Neighbours of node i with their weights.
    pub fn row(&self, i: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let r = self.indptr[i]..self.indptr[i + 1];
        self.indices[r.clone()].iter().copied().zip(self.weights[r].iter().copied())
    }

    /// Degrees d_i = Σ_j w_ij.
    pub fn degrees(&self) -> Vec<f64> {
        (0..self.n()).map(|i| self.row(i).map(|(_, w)| w).sum()).collect()
    }

    /// The diagonal of the graph's Laplacian: the degrees, or 1 (0 for an isolated node)
    /// for a [`normalized`](Self::normalized) graph.
    pub fn laplacian_diagonal(&self) -> Vec<f64> {
        self.diagonal.clone().unwrap_or_else(|| self.degrees())
    }

    /// The graph whose Laplacian D − W is the symmetric-normalised I − D^{-1/2} W D^{-1/2}
    /// of this one: weights w_ij / √(d_i d_j), diagonal 1 where d_i > 0.
    pub fn normalized(&self) -> SymGraph {
        let d = self.degrees();
        let scale: Vec<f64> =
            d.iter().map(|v| if *v > 0.0 { 1.0 / v.sqrt() } else { 0.0 }).collect();
        let mut weights = self.weights.clone();
        for i in 0..self.n() {
            for k in self.indptr[i]..self.indptr[i + 1] {
                weights[k] *= scale[i] * scale[self.indices[k]];
            }
        }
        let diagonal = d.iter().map(|v| if *v > 0.0 { 1.0 } else { 0.0 }).collect();
        SymGraph {
            indptr: self.indptr.clone(),
            indices: self.indices.clone(),
            weights,
            diagonal: Some(diagonal),
        }
    }

    /// Each undirected edge once, as (i, j, w_ij) with i < j.
    pub fn edges(&self) -> Vec<(usize, usize, f64)> {
        (0..self.n())
            .flat_map(|i| self.row(i).filter(move |(j, _)| *j > i).map(move |(j, w)| (i, j, w)))
            .collect()
    }

    /// The weight w_ij (0 when i and j are not adjacent).
    pub fn weight(&self, i: usize, j: usize) -> f64 {
        let r = self.indptr[i]..self.indptr[i + 1];
        match self.indices[r.clone()].binary_search(&j) {
            Ok(k) => self.weights[r.start + k],
            Err(_) => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_dedups_and_rejects_bad_edges() {
        let g = SymGraph::from_edges(3, [(0, 1, 0.5), (1, 0, 0.7), (2, 1, 1.0)]).unwrap();
        assert_eq!(g.nnz(), 4);
        assert_eq!(g.weight(0, 1), 0.7);
        assert_eq!(g.weight(1, 0), 0.7);
        assert_eq!(g.weight(0, 2), 0.0);
        assert_eq!(g.degrees(), vec![0.7, 1.7, 1.0]);
        assert_eq!(g.edges(), vec![(0, 1, 0.7), (1, 2, 1.0)]);
        assert!(SymGraph::from_edges(3, [(1, 1, 1.0)]).is_err());
        assert!(SymGraph::from_edges(3, [(0, 3, 1.0)]).is_err());
        assert!(SymGraph::from_edges(3, [(0, 1, f64::NAN)]).is_err());
    }
}
