//! `sslab times`: running-time table (mean ± std of fit_seconds per dataset and method, in
//! ms) of a results.csv written by `run`.

use std::path::PathBuf;

use sslab::report;
use sslab::{Result, protocol};

use super::output::write;

#[derive(clap::Args)]
pub struct Args {
    results: PathBuf,
    /// Output Markdown file.
    #[arg(short, long)]
    out: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    let rows = protocol::read_results(&a.results)?;
    let hash = rows.first().map_or("none", |r| r.config_hash.as_str());
    let md = report::times::times_markdown(&rows, &report::stamp(hash));
    write(&a.out, &md)?;
    println!("{md}\nwrote {}", a.out.display());
    Ok(())
}
