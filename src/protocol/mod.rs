//! The experiment protocol: split sizes, per-split seeds, the parallel runner and the
//! result rows it writes.

mod graph_cache;
mod log;
mod results;
mod runner;
mod seeds;
mod sizes;
pub mod splits;

pub use results::{ResultRow, read_results, write_results};
#[cfg(test)]
pub(crate) use results::test_row;
pub use runner::{RunOptions, run, split_problem};
pub use seeds::derive_seed;
pub use sizes::Sizes;
