//! The experiment protocol: per-split seeds and draws, the parallel runner, shards of a run
//! and their merge, and the result rows.

mod draw;
pub mod estimate;
mod fit;
mod lock;
mod log;
mod merge;
pub mod models;
mod prepare;
pub mod progress;
mod results;
mod runner;
mod scores;
mod seeds;
pub mod shard;
mod slurm;
pub mod splits;
pub mod status;
pub mod tune;

pub use draw::{draw, draw_for, split_problem};
pub use lock::copy_config;
pub use merge::merge;
#[cfg(test)]
pub(crate) use results::test_row;
pub use results::{ResultRow, check_failed, read_results, write_results};
pub use runner::{RunOptions, finish_rows, run};
pub use scores::write_scores;
pub use seeds::derive_seed;
pub use shard::Shard;
pub use slurm::{SlurmJob, SlurmOptions};

#[cfg(test)]
mod reported_tests;
#[cfg(test)]
mod tests;
