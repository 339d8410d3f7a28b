//! `sslab run`: every (dataset, split, method) of a config into OUT/<name>/results.csv and
//! OUT/<name>/summary.md, with wall time and peak memory.

use std::path::PathBuf;

use sslab::protocol::{self, RunOptions};
use sslab::report::{self, tables};
use sslab::{Error, Result, config};

use super::output::write;

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
}

pub fn run(a: Args) -> Result<()> {
    let exp = config::load(&a.config)?;
    let dir = a.out.join(&exp.name);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let options = RunOptions { threads: a.threads, progress: !a.quiet, resume: a.resume };
    let started = std::time::Instant::now();
    let rows = protocol::run(&exp, &options, &dir)?;
    let wall = started.elapsed().as_secs_f64();
    let csv = dir.join("results.csv");
    protocol::write_results(&csv, &rows)?;
    let md = tables::markdown(&tables::build(&rows, tables::ERROR, &report::stamp(&exp.hash))?);
    let md_path = dir.join("summary.md");
    write(&md_path, &format!("# {}\n\n{md}", exp.name))?;
    println!("{md}\nwrote {} and {}", csv.display(), md_path.display());
    let peak = peak_memory_mib().map_or("n/a".to_string(), |m| format!("{m:.0} MiB"));
    println!("wall time {wall:.1} s, peak memory {peak}, {} threads", a.threads.unwrap_or_else(rayon::current_num_threads));
    let failed: Vec<&protocol::ResultRow> = rows.iter().filter(|r| !r.is_ok()).collect();
    if let Some(first) = failed.first() {
        eprintln!(
            "warning: {} of {} fits failed (recorded in results.csv); first: {} on {} split {}: {}",
            failed.len(),
            rows.len(),
            first.method,
            first.dataset,
            first.split,
            first.message
        );
    }
    Ok(())
}

/// Peak resident memory of this process (Linux `VmHWM`), in MiB.
fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = status.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?;
    kb.parse::<f64>().ok().map(|kb| kb / 1024.0)
}
