//! Thin helpers over faer, one file per operation: views between ndarray and faer,
//! Gram matrices (a register-tiled kernel with faer's bits, centring on the way), symmetric
//! eigen-decompositions (a Lanczos top eigenvalue) and Cholesky solves, row passes for gradients, several vectors' products with one symmetric matrix (faer's
//! bits, or from its lower triangle only), a symmetric matrix kept as its lower tiles for
//! repeated products with faer's bits, the exact ranking of rows by distance to a row or a
//! point (kNN lists),
//! the vector-register reset faer's kernels need and kernels run on the widest vector unit,
//! conjugate gradients on a block of right-hand sides.

mod block_cg;
mod cholesky;
mod eigen;
mod gram;
#[cfg(target_arch = "x86_64")]
mod groups;
mod knn_rank;
mod lanczos;
mod mat_vec;
#[cfg(target_arch = "x86_64")]
mod row_blocks;
mod row_pass;
pub mod simd;
mod sym_mul;
mod sym_packed;
mod sym_products;
mod syrk;
mod syrk_tile;
mod unrolled;
mod view;
mod width;

pub use block_cg::{CG_CHUNK, CgOperator, CgReport, block_cg, sum_parts};
pub use cholesky::{spd_solve, spd_solve_in_place};
pub use eigen::{SymEigen, sym_eigen, top_eigenvalue, top_eigenvalue_of_sum};
pub use gram::{centred_grams, gram};
pub use knn_rank::{rank, rank_query};
pub use mat_vec::{mat_vec, row_dots};
pub use row_pass::{row_pass, row_pass_many};
pub use simd::{Kernel, Level, clear_upper_simd, widest};
pub use sym_mul::sym_mul;
pub use sym_packed::SymPacked;
pub use sym_products::add_sym_products;
pub use view::{column, to_array1, to_array2, view};
pub use width::{block, block_mut, column_blocks};
