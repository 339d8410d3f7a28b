//! `sslab run`: every (dataset, split, method) of a config into OUT/<name>/results.csv and
//! OUT/<name>/summary.md, with wall time and peak memory; with `--shard I/N` only that
//! shard's share, into its own row log, for `sslab merge`. Exit code 3 when any fit failed
//! (the outputs are written all the same).

use std::path::{Path, PathBuf};

use sslab::config::Experiment;
use sslab::protocol::status::{self, Previous};
use sslab::protocol::{self, RunOptions, Shard};
use sslab::support::memory::human;
use sslab::support::{address_space, interrupt};
use sslab::{Error, Result, config};

use super::output::write_run;

#[derive(clap::Args)]
pub struct Args {
    /// The config file (TOML).
    config: PathBuf,
    /// Output folder: the run writes OUT/<experiment name>/.
    #[arg(short, long, default_value = "results")]
    out: PathBuf,
    /// Worker threads, at least 1 (default: all cores, or $RAYON_NUM_THREADS). Results do not
    /// depend on it.
    #[arg(short = 'j', long, value_parser = super::at_least_one)]
    threads: Option<usize>,
    /// No progress output (neither the bar on a terminal nor the progress lines elsewhere).
    #[arg(short, long)]
    quiet: bool,
    /// Keep the rows of an interrupted run of the same config and run only the rest.
    #[arg(long)]
    resume: bool,
    /// Run again into a folder that holds a finished or interrupted run of this config,
    /// replacing its rows.
    #[arg(long, conflicts_with = "resume")]
    force: bool,
    /// Run only shard I of N (1 ≤ I ≤ N): its rows go to OUT/<name>/rows.shard-I-of-N.log;
    /// `sslab merge OUT/<name>` writes results.csv once every shard is done.
    #[arg(long)]
    shard: Option<Shard>,
}

pub fn run(a: Args) -> Result<()> {
    let mut exp = config::load(&a.config)?;
    let dir = a.out.join(&exp.name);
    std::fs::create_dir_all(&dir).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => Error::Data(format!(
            "{}: cannot create the run folder: a path on the way exists but is not a folder (a dangling symlink?)",
            dir.display()
        )),
        _ => Error::io(&dir, e),
    })?;
    if !a.force && refuse_or_skip(&dir, &exp, &a)? {
        return Ok(());
    }
    let asked = a.threads.unwrap_or_else(rayon::current_num_threads);
    let (threads, fewer) = address_space::workers(asked);
    if let Some((free, each)) = fewer {
        eprintln!(
            "warning: {asked} threads asked, {threads} run: the address-space cap (ulimit -v) leaves {} and each worker reserves {} (its stack and faer's matrix-product buffers)",
            human(free),
            human(each)
        );
    }
    let options =
        RunOptions { threads: Some(threads), progress: !a.quiet, resume: a.resume, shard: a.shard };
    interrupt_note(&a, &dir);
    let started = std::time::Instant::now();
    let rows = protocol::run(&exp, &options, &dir)?;
    let wall = started.elapsed().as_secs_f64();
    // The outputs need the rows only: the datasets' rows are freed before the tables are
    // built, so that the run's peak memory is its fits'.
    exp.datasets.clear();
    match a.shard {
        Some(s) => println!(
            "shard {}/{}: {} rows in {}; merge with `sslab merge {}`",
            s.index,
            s.count,
            rows.len(),
            dir.join(s.log_name()).display(),
            dir.display()
        ),
        None => write_run(&exp, &rows, &[dir.join("rows.log")], &dir)?,
    }
    let peak = peak_memory_mib().map_or("n/a".to_string(), |m| format!("{m:.0} MiB"));
    println!("wall time {wall:.1} s, peak memory {peak}, {threads} threads");
    protocol::check_failed(&rows)
}

/// Whether an earlier run of this config in `dir` leaves nothing to do (with `--resume`, a
/// finished run); an error when it would be overwritten without `--force`.
fn refuse_or_skip(dir: &Path, exp: &Experiment, a: &Args) -> Result<bool> {
    let what = a.shard.map_or("run".to_string(), |s| format!("shard {}/{}", s.index, s.count));
    match status::previous(exp, dir, a.shard)? {
        Previous::Nothing => Ok(false),
        Previous::Finished { total } if a.resume => {
            println!(
                "{}: the {what} of this config is finished ({total} fits); nothing to do (--force runs it again)",
                dir.display()
            );
            Ok(true)
        }
        Previous::Partial { .. } if a.resume => Ok(false),
        Previous::Finished { total } => Err(Error::Data(format!(
            "{}: holds a finished {what} of this config ({total} fits); --force runs it again and replaces it, or choose another --out",
            dir.display()
        ))),
        Previous::Partial { done, total } => Err(Error::Data(format!(
            "{}: holds an interrupted {what} of this config ({done} of {total} fits done); --resume completes it, --force starts it over",
            dir.display()
        ))),
    }
}

/// What Ctrl-C prints: the fits kept in the row log and the command that runs the rest
/// (from the run folder's config copy, written before any fit).
fn interrupt_note(a: &Args, dir: &Path) {
    let log = a.shard.map_or_else(|| "rows.log".to_string(), |s| s.log_name());
    interrupt::set_note(
        "\ninterrupted: ".to_string(),
        format!(
            " fits kept in {}; `{}` runs the rest\n",
            dir.join(log).display(),
            status::command(dir, a.shard)
        ),
    );
}

/// Peak resident memory of this process (Linux `VmHWM`), in MiB.
fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = status.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?;
    kb.parse::<f64>().ok().map(|kb| kb / 1024.0)
}
