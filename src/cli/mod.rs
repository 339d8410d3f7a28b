//! The subcommands of `sslab`, one file each: its arguments and what it does.

mod command;
pub mod data;
pub mod merge;
pub mod output;
pub mod phase_diagram;
pub mod plot_curve;
pub mod plot_losses;
pub mod plot_scores;
pub mod plot_tuning;
pub mod predict;
pub mod proportions;
pub mod report;
pub mod run;
pub mod shares;
pub mod slurm;
pub mod status;
pub mod study;
pub mod table;
pub mod theory;
pub mod theory_check;
pub mod theory_fit;
pub mod theory_multiclass;
pub mod times;
pub mod validate;

use std::path::PathBuf;

pub use command::{Cli, dispatch};

use sslab::config::Experiment;
use sslab::{Error, Result};

/// A config and one of its datasets and methods (the first of each by default).
#[derive(clap::Args)]
pub struct Pick {
    config: PathBuf,
    /// Dataset name (default: the config's first).
    #[arg(long)]
    dataset: Option<String>,
    /// Method name (default: the config's first).
    #[arg(long)]
    method: Option<String>,
}

impl Pick {
    /// The loaded config and the indices of the chosen dataset and method.
    pub fn load(&self) -> Result<(Experiment, usize, usize)> {
        let exp = sslab::config::load(&self.config)?;
        let d = index(
            &exp,
            &self.dataset,
            exp.datasets.iter().map(|d| d.name.as_str()).collect(),
            "dataset",
        )?;
        let m = index(
            &exp,
            &self.method,
            exp.methods.iter().map(|m| m.name.as_str()).collect(),
            "method",
        )?;
        Ok((exp, d, m))
    }
}

/// A count of at least 1 (for `--threads`).
pub fn at_least_one(s: &str) -> std::result::Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("must be at least 1 (leave it out to use all cores)".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("expected a whole number: {e}")),
    }
}

/// The index of the dataset or method called `name` in `names` (the first when `None`).
fn index(exp: &Experiment, name: &Option<String>, names: Vec<&str>, what: &str) -> Result<usize> {
    match name {
        None => Ok(0),
        Some(n) => names.iter().position(|m| m == n).ok_or_else(|| {
            Error::Data(format!(
                "no {what} `{n}` in {}{} (have: {})",
                exp.path.display(),
                sslab::support::suggest::did_you_mean(n, names.iter().copied()),
                names.join(", ")
            ))
        }),
    }
}
