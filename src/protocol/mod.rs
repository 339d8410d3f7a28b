//! The experiment protocol: per-split seeds and draws, the parallel runner, shards of a run
//! and their merge, and the result rows.

mod atomic;
mod draw;
mod lock;
mod log;
mod merge;
mod results;
mod runner;
mod seeds;
pub mod shard;
mod slurm;
pub mod splits;
pub mod tune;

pub use draw::{draw, split_problem};
pub use merge::merge;
#[cfg(test)]
pub(crate) use results::test_row;
pub use results::{ResultRow, read_results, write_results};
pub use runner::{RunOptions, finish_rows, run};
pub use seeds::derive_seed;
pub use shard::Shard;
pub use slurm::SlurmJob;

#[cfg(test)]
mod reported_tests;
#[cfg(test)]
mod tests;
