//! Building blocks of the graph and kernel methods: pairwise distances, nearest neighbours,
//! the kNN graph and its symmetric storage, the graph Laplacian and the RBF kernel (dense
//! or Nyström).

mod candidates;
mod distances;
mod kernel;
mod knn;
mod laplacian;
mod nearest;
#[cfg(test)]
mod nearest_tests;
mod nystrom;
mod sym_graph;

pub use kernel::{Gram, KernelMatrix, RbfKernel};
pub use knn::{KnnGraph, Weighting};
pub use laplacian::{laplacian, laplacian_times};
pub use nearest::nearest;
pub use nystrom::Landmarks;
pub use sym_graph::SymGraph;
