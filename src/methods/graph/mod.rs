//! Graph and kernel methods of the TV-SVM paper (Bresson & Zhang 2012): building blocks
//! (kNN graph, Laplacian, RBF kernel, SVM dual QP, graph ROF, simplex projection) and
//! the binary methods RLS, SVM, Lap-RLS, Lap-SVM, TV-RLS, TV-SVM, Cheeger-RLS, Cheeger-SVM,
//! with multi-class versions of the six semi-supervised ones.

mod cheeger;
mod decision;
mod distances;
mod family;
mod fit;
mod kernel;
mod knn;
mod lap_rls;
mod lap_svm;
mod laplacian;
mod method;
mod multiclass;
mod nearest;
mod params;
mod prepared;
mod qp;
mod rls;
mod rof;
mod simplex;
mod smoother;
mod svm;
mod svm_step;
mod sym_graph;
mod tv;

pub use decision::Decision;
pub use family::GraphFamily;
pub use fit::FittedGraph;
pub use kernel::{Gram, RbfKernel};
pub use knn::{KnnGraph, Weighting};
pub use laplacian::{laplacian, laplacian_times};
pub use params::{GraphKind, GraphMethod, GraphParams};
pub use prepared::Prepared;
pub use qp::{DualQp, QpSettings, QpSolution};
pub use rof::{EdgeOperator, RofReport, RofSettings, RofWorkspace};
pub use simplex::project_simplex;
pub use sym_graph::SymGraph;

#[cfg(test)]
mod tests;
