//! The subcommands of `sslab`, one file each: its arguments and what it does.

pub mod data;
pub mod merge;
pub mod output;
pub mod phase_diagram;
pub mod plot_curve;
pub mod plot_scores;
pub mod proportions;
pub mod run;
pub mod shares;
pub mod slurm;
pub mod study;
pub mod table;
pub mod theory;
pub mod theory_check;
pub mod times;
pub mod validate;

use sslab::config::Experiment;
use sslab::{Error, Result};

/// The index of the dataset or method called `name` in `names` (the first when `None`).
pub fn pick(exp: &Experiment, name: &Option<String>, names: Vec<&str>, what: &str) -> Result<usize> {
    match name {
        None => Ok(0),
        Some(n) => names
            .iter()
            .position(|m| m == n)
            .ok_or_else(|| Error::Data(format!("no {what} `{n}` in {} (have: {})", exp.path.display(), names.join(", ")))),
    }
}
