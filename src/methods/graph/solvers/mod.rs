//! Solvers the methods share: the SVM dual QP and its per-iteration SVM step, the graph ROF
//! (total-variation) problem, the Euclidean projection onto the simplex and the smoother
//! M = K(λI + rK + γLK)⁻¹, and its low-rank form for a Nyström kernel.

pub(crate) mod low_rank;
mod qp;
mod rof;
mod rof_lanes;
mod simplex;
pub(crate) mod smoother;
pub(crate) mod svm_step;

pub use qp::{DualQp, QpSettings, QpSolution};
pub use rof::{EdgeOperator, RofReport, RofSettings, RofWorkspace};
pub use simplex::project_simplex;
