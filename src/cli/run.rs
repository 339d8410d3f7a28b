//! `sslab run`: every (dataset, split, method) of a config into OUT/<name>/results.csv and
//! OUT/<name>/summary.md, with wall time and peak memory; with `--shard I/N` only that
//! shard's share, into its own row log, for `sslab merge`. Exit code 3 when any fit failed
//! (the outputs are written all the same).

use std::path::PathBuf;

use sslab::protocol::{self, RunOptions, Shard};
use sslab::{Error, Result, config};

use super::output::write_run;

#[derive(clap::Args)]
pub struct Args {
    config: PathBuf,
    /// Output folder.
    #[arg(long, default_value = "results")]
    out: PathBuf,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Do not draw the progress bar.
    #[arg(long)]
    quiet: bool,
    /// Keep the rows of an interrupted run of the same config and run only the rest.
    #[arg(long)]
    resume: bool,
    /// Run only shard I of N (1 ≤ I ≤ N): its rows go to OUT/<name>/rows.shard-I-of-N.log;
    /// `sslab merge OUT/<name>` writes results.csv once every shard is done.
    #[arg(long)]
    shard: Option<Shard>,
}

pub fn run(a: Args) -> Result<()> {
    let exp = config::load(&a.config)?;
    let dir = a.out.join(&exp.name);
    std::fs::create_dir_all(&dir).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => Error::Data(format!(
            "{}: cannot create the run folder: a path on the way exists but is not a folder (a dangling symlink?)",
            dir.display()
        )),
        _ => Error::io(&dir, e),
    })?;
    let options =
        RunOptions { threads: a.threads, progress: !a.quiet, resume: a.resume, shard: a.shard };
    let started = std::time::Instant::now();
    let rows = protocol::run(&exp, &options, &dir)?;
    let wall = started.elapsed().as_secs_f64();
    match a.shard {
        Some(s) => println!(
            "shard {}/{}: {} rows in {}; merge with `sslab merge {}`",
            s.index,
            s.count,
            rows.len(),
            dir.join(s.log_name()).display(),
            dir.display()
        ),
        None => write_run(&exp, &rows, &dir)?,
    }
    let peak = peak_memory_mib().map_or("n/a".to_string(), |m| format!("{m:.0} MiB"));
    println!(
        "wall time {wall:.1} s, peak memory {peak}, {} threads",
        a.threads.unwrap_or_else(rayon::current_num_threads)
    );
    protocol::check_failed(&rows)
}

/// Peak resident memory of this process (Linux `VmHWM`), in MiB.
fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = status.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?;
    kb.parse::<f64>().ok().map(|kb| kb / 1024.0)
}
