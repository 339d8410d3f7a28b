//! Thin helpers over faer, one file per operation: views between ndarray and faer,
//! Gram matrices, symmetric eigen-decompositions (a Lanczos top eigenvalue) and Cholesky
//! solves.

mod cholesky;
mod eigen;
mod gram;
mod lanczos;
mod simd;
mod view;

pub use cholesky::spd_solve;
pub use eigen::{SymEigen, sym_eigen, top_eigenvalue};
pub use gram::gram;
pub use simd::clear_upper_simd;
pub use view::{to_array1, to_array2, view};
