//! Graph and kernel methods of the TV-SVM paper (Bresson & Zhang 2012): building blocks
//! (`build/`: kNN graph, Laplacian, RBF kernel), shared solvers (`solvers/`: SVM dual QP,
//! graph ROF, simplex projection, smoother) and the binary methods (`binary/`) RLS, SVM,
//! Lap-RLS, Lap-SVM, TV-RLS, TV-SVM, Cheeger-RLS, Cheeger-SVM, with multi-class versions
//! of the six semi-supervised ones (`multiclass.rs`).

mod binary;
mod build;
mod decision;
mod family;
mod fit;
mod method;
mod multiclass;
mod params;
mod prepared;
mod raw;
mod solvers;

pub use build::{
    Gram, KernelMatrix, KnnGraph, RbfKernel, SymGraph, Weighting, laplacian, laplacian_times,
    nearest,
};
pub use decision::Decision;
pub use family::GraphFamily;
pub use fit::FittedGraph;
pub use params::{GraphKind, GraphMethod, GraphParams};
pub use prepared::Prepared;
pub(crate) use prepared::{median, normalise, sign};
pub use raw::{Expansion, RawFit, RawMulticlass};
pub use solvers::{
    DualQp, EdgeOperator, QpSettings, QpSolution, RofReport, RofSettings, RofWorkspace,
    project_simplex,
};

#[cfg(test)]
mod tests;
