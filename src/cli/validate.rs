//! `sslab validate`: check a config without running it.

use std::path::PathBuf;

use sslab::Result;
use sslab::config;

#[derive(clap::Args)]
pub struct Args {
    config: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    let exp = config::load(&a.config)?;
    println!(
        "{}: ok (experiment `{}`, {} datasets × {} splits × {} methods, hash {})",
        a.config.display(),
        exp.name,
        exp.datasets.len(),
        exp.splits,
        exp.methods.len(),
        exp.hash
    );
    Ok(())
}
