//! The experiment protocol: per-split seeds and draws, the parallel runner and the result
//! rows it writes.

mod draw;
mod log;
mod results;
mod runner;
mod seeds;
pub mod splits;

pub use draw::{draw, split_problem};
pub use results::{ResultRow, read_results, write_results};
#[cfg(test)]
pub(crate) use results::test_row;
pub use runner::{RunOptions, run};
pub use seeds::derive_seed;

#[cfg(test)]
mod tests;
