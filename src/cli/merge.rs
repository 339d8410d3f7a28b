//! `sslab merge`: the row logs of a sharded run into results.csv and summary.md, as an
//! unsharded run writes them (exit code 3 when fits failed, as `sslab run`); exits non-zero, listing them, when tasks are missing or twice.

use std::path::PathBuf;

use sslab::Result;
use sslab::protocol::{self, status};

use super::output::write_run;

#[derive(clap::Args)]
pub struct Args {
    /// The run folder (OUT/<name>) the shards wrote into.
    dir: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    let (exp, rows) = protocol::merge(&a.dir)?;
    write_run(&exp, &rows, &status::logs(&a.dir)?, &a.dir)?;
    protocol::check_failed(&rows)
}
