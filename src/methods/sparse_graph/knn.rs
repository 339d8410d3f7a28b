//! The kNN graph of a dataset's rows: the k nearest other rows of each row, weighted, then
//! symmetrised. The search is exact (the graph family's f32-candidate search,
//! `graph::nearest`) up to [`EXACT_UP_TO`] rows and NN-descent above (`nn_descent.rs`),
//! whose recall is then measured on a sample and kept with the graph. The graph is the same
//! for any number of threads.

use ndarray::ArrayView2;

use super::nn_descent::{nn_descent, recall};
use super::{Graph, Symmetrise};
use crate::engine::KnnWeights;
use crate::error::{Error, Result};
use crate::methods::graph::nearest;

/// `search = "auto"` is exact up to this many rows.
pub const EXACT_UP_TO: usize = 100_000;
/// Rows whose exact neighbours measure an approximate graph's recall.
const RECALL_SAMPLES: usize = 500;
/// NN-descent's start lists are drawn from this seed: the graph is a function of the data.
const SEARCH_SEED: u64 = 0x5EED;

/// How the neighbours are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Search {
    /// Exact up to [`EXACT_UP_TO`] rows, NN-descent above.
    #[default]
    Auto,
    Exact,
    NnDescent,
}

impl Search {
    /// Every search, in config order.
    pub const ALL: [Search; 3] = [Search::Auto, Search::Exact, Search::NnDescent];

    /// The config spelling (`auto`, `exact`, `nn_descent`).
    pub fn name(&self) -> &'static str {
        match self {
            Search::Auto => "auto",
            Search::Exact => "exact",
            Search::NnDescent => "nn_descent",
        }
    }

    /// Whether `n` rows are searched exactly.
    pub fn exact(&self, n: usize) -> bool {
        match self {
            Search::Auto => n <= EXACT_UP_TO,
            Search::Exact => true,
            Search::NnDescent => false,
        }
    }
}

/// How a kNN graph is built: k nearest other points (GraphLearning's `knn(X, k)` counts the
/// same k; scikit-learn's `n_neighbors` counts the point itself, so it is k + 1), weights,
/// symmetrisation and search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnnSpec {
    pub k: usize,
    pub weights: KnnWeights,
    pub symmetrise: Symmetrise,
    pub search: Search,
}

impl Default for KnnSpec {
    /// GraphLearning's defaults: k = 10, its Gaussian weights, (W + Wᵀ)/2.
    fn default() -> Self {
        KnnSpec {
            k: 10,
            weights: KnnWeights::KnnGaussian,
            symmetrise: Symmetrise::Mean,
            search: Search::Auto,
        }
    }
}

impl KnnSpec {
    /// A short text naming every setting (cache keys, result notes).
    pub fn describe(&self) -> String {
        format!(
            "k={} weighting={} symmetrise={}",
            self.k,
            self.weights.name(),
            self.symmetrise.name()
        )
    }

    /// The graph of the rows of `x` (needs more than k rows); an approximate one carries
    /// its measured recall.
    pub fn build(&self, x: ArrayView2<f64>) -> Result<Graph> {
        let (neighbours, sq) = self.lists(x)?;
        let graph = self.from_lists(x.nrows(), &neighbours, &sq)?;
        Ok(match self.search.exact(x.nrows()) {
            true => graph,
            false => graph.with_recall(recall(x, &neighbours, self.k, RECALL_SAMPLES)),
        })
    }

    /// The k nearest other rows of each row and their squared distances, nearest first
    /// (row-major n × k, ties broken by index).
    pub fn lists(&self, x: ArrayView2<f64>) -> Result<(Vec<usize>, Vec<f64>)> {
        let n = x.nrows();
        if self.k == 0 || n <= self.k {
            return Err(Error::Data(format!(
                "kNN graph needs 1 ≤ k < number of points, got k = {} for {n} points",
                self.k
            )));
        }
        Ok(match self.search.exact(n) {
            true => nearest(x, self.k),
            false => nn_descent(x, self.k, SEARCH_SEED),
        })
    }

    /// The graph of given neighbour lists (row-major n × k indices and squared distances,
    /// nearest first), weighted and symmetrised.
    pub fn from_lists(&self, n: usize, neighbours: &[usize], sq: &[f64]) -> Result<Graph> {
        let k = self.k;
        if neighbours.len() != n * k || sq.len() != n * k {
            return Err(Error::Data(format!(
                "kNN lists: {} indices and {} distances for {n} rows of k = {k}",
                neighbours.len(),
                sq.len()
            )));
        }
        let kth: Vec<f64> = (0..n).map(|i| sq[i * k + k - 1]).collect();
        let edges = (0..n * k).map(|e| {
            let (i, j) = (e / k, neighbours[e]);
            (i, j, self.weights.weight(sq[e], kth[i], kth[j]) as f32)
        });
        Graph::from_directed(n, edges, self.symmetrise)
    }
}
