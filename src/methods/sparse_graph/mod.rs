//! Graph-only methods on a sparse kNN graph, for datasets far beyond a dense N × N kernel:
//! Laplace learning, Poisson learning, label spreading and label propagation, and the TV-SVM
//! paper's Lap-RLS, TV-RLS and Cheeger-RLS with the function on the nodes (`lap_rls.rs`,
//! `tv_rls.rs`, `cheeger.rs`; the weighted graph ROF in `rof.rs`), binary and multi-class.
//! The graph (`graph.rs`, CSR with `u32` indices and `f32` weights) is built once per dataset
//! (`knn.rs`) and shared by every split and method of a run (`method.rs`); `solve.rs` runs
//! any kind on it.

mod aggregates;
mod cheeger;
mod deflation;
mod family;
mod graph;
mod graph_file;
mod knn;
mod lap_rls;
mod laplace;
mod method;
mod nn_descent;
mod operator;
mod params;
mod poisson;
mod rof;
mod seeds;
mod solve;
mod spreading;
mod tv_rls;

pub use crate::engine::KnnWeights;
pub use aggregates::Aggregates;
pub use cheeger::{CheegerSettings, cheeger_rls};
pub use family::SparseGraphFamily;
pub use graph::{Graph, Symmetrise};
pub use graph_file::{cached, read_npz};
pub use knn::{EXACT_UP_TO, KnnSpec, Search};
pub use lap_rls::{RlsWeights, lap_rls};
pub use laplace::{CgSettings, laplace};
pub use nn_descent::{nn_descent, recall};
pub use params::{GraphSource, SparseGraphMethod, SparseKind, SparseParams};
pub use poisson::poisson;
pub use rof::{RofDual, RofProblem, solve_rof, total_variation};
pub use seeds::{Seeds, SignedLabels};
pub use solve::{NodeScores, node_scores};
pub use spreading::{IterSettings, label_propagation, label_spreading};
pub use tv_rls::tv_rls;

#[cfg(test)]
mod tests;
