//! Graph and kernel methods of the TV-SVM paper (Bresson & Zhang 2012): building blocks
//! (kNN graph, Laplacian, RBF kernel, SVM dual QP, graph ROF, simplex projection).

mod distances;
mod kernel;
mod knn;
mod laplacian;
mod qp;
mod rof;
mod simplex;
mod sym_graph;

pub use kernel::{Gram, RbfKernel};
pub use knn::{KnnGraph, Weighting};
pub use laplacian::{laplacian, laplacian_times, total_variation};
pub use qp::{DualQp, QpSettings, QpSolution};
pub use rof::{EdgeOperator, RofReport, RofSettings, RofWorkspace};
pub use simplex::project_simplex;
pub use sym_graph::SymGraph;
