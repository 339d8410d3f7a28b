//! Graph-only methods on a sparse kNN graph, for datasets far beyond a dense N × N kernel:
//! Laplace learning, Poisson learning, label spreading and label propagation, binary and
//! multi-class. The graph (`graph.rs`, CSR with `u32` indices and `f32` weights) is built
//! once per dataset (`knn.rs`) and shared by every split and method of a run (`method.rs`).

mod family;
mod graph;
mod graph_file;
mod knn;
mod laplace;
mod method;
mod nn_descent;
mod operator;
mod params;
mod poisson;
mod seeds;
mod spreading;

pub use family::SparseGraphFamily;
pub use graph::{Graph, Symmetrise};
pub use graph_file::{cached, read_npz};
pub use knn::{EXACT_UP_TO, KnnSpec, KnnWeights, Search};
pub use laplace::{CgSettings, laplace};
pub use nn_descent::{nn_descent, recall};
pub use params::{GraphSource, SparseGraphMethod, SparseKind, SparseParams};
pub use poisson::poisson;
pub use seeds::Seeds;
pub use spreading::{IterSettings, label_propagation, label_spreading};

#[cfg(test)]
mod tests;
