//! The `sslab` command line: parse arguments, call the library, map errors to exit codes.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use sslab::config::{self, Experiment};
use sslab::data::registry::Registry;
use sslab::data::{fetch, load};
use sslab::protocol::{self, RunOptions};
use sslab::report::{self, figures, tables};
use sslab::{Error, Result};

#[derive(Parser)]
#[command(name = "sslab", version, about = "Semi-supervised classification experiments")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a config without running it.
    Validate { config: PathBuf },
    /// Run every (dataset, split, method) of a config; writes OUT/<name>/results.csv and
    /// OUT/<name>/summary.md.
    Run {
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
    },
    /// Histogram of one method's unlabeled scores on one split, per true class (PNG).
    PlotScores {
        config: PathBuf,
        /// Dataset name (default: the config's first).
        #[arg(long)]
        dataset: Option<String>,
        /// Method name (default: the config's first).
        #[arg(long)]
        method: Option<String>,
        #[arg(long, default_value_t = 0)]
        split: usize,
        #[arg(long, default_value_t = 40)]
        bins: usize,
        /// Output PNG.
        #[arg(long)]
        out: PathBuf,
    },
    /// Registered datasets (configs/datasets.toml): fetch them into the data directory
    /// (`$SSLAB_DATA_DIR`, default `data/`) or list them.
    Data {
        #[command(subcommand)]
        command: DataCommand,
    },
}

#[derive(Subcommand)]
enum DataCommand {
    /// Copy (from a mirror) or download the files of NAMES (default: all), checking sha256.
    Fetch {
        names: Vec<String>,
        /// Mirror directory (default: $SSLAB_DATA_MIRROR, else ../shared/data if it exists).
        #[arg(long)]
        mirror: Option<PathBuf>,
    },
    /// Show every registered dataset and whether its files are present and intact.
    List,
}

fn main() -> ExitCode {
    match dispatch(Cli::parse().command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn dispatch(command: Command) -> Result<()> {
    match command {
        Command::Validate { config } => {
            let exp = config::load(&config)?;
            println!(
                "{}: ok (experiment `{}`, {} datasets × {} splits × {} methods, hash {})",
                config.display(),
                exp.name,
                exp.datasets.len(),
                exp.splits,
                exp.methods.len(),
                exp.hash
            );
            Ok(())
        }
        Command::Run { config, out, threads, quiet } => {
            let exp = config::load(&config)?;
            let dir = out.join(&exp.name);
            std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
            let rows = protocol::run(&exp, &RunOptions { threads, progress: !quiet })?;
            let csv = dir.join("results.csv");
            protocol::write_results(&csv, &rows)?;
            let md = tables::markdown(&tables::summary(&rows)?, &report::stamp(&exp.hash))?;
            let md_path = dir.join("summary.md");
            write(&md_path, &format!("# {}\n\n{md}", exp.name))?;
            println!("{md}\nwrote {} and {}", csv.display(), md_path.display());
            Ok(())
        }
        Command::PlotScores { config, dataset, method, split, bins, out } => {
            let exp = config::load(&config)?;
            plot_scores(&exp, dataset.as_deref(), method.as_deref(), split, bins, &out)
        }
        Command::Data { command } => data(command),
    }
}

fn data(command: DataCommand) -> Result<()> {
    let reg = Registry::builtin()?;
    let dest = load::data_dir();
    match command {
        DataCommand::Fetch { names, mirror } => {
            let mirror = fetch::mirror(mirror);
            for (file, outcome) in fetch::fetch(&reg, &names, &dest, mirror.as_deref())? {
                let how = match outcome {
                    fetch::Outcome::Present => "present",
                    fetch::Outcome::Copied => "copied",
                    fetch::Outcome::Downloaded => "downloaded",
                };
                println!("{how:>10}  {}", dest.join(file).display());
            }
            Ok(())
        }
        DataCommand::List => {
            println!("| dataset | format | features | classes | parts | files present | description |\n|---|---|---|---|---|---|---|");
            for (name, e) in &reg.datasets {
                let files = e.files();
                let mut present = 0;
                for f in &files {
                    let entry = reg.files.get(*f).ok_or_else(|| Error::Data(format!("no [files] entry for `{f}`")))?;
                    present += usize::from(fetch::is_present(f, entry, &dest)?);
                }
                let parts: Vec<&str> = e.parts.iter().map(|p| p.name.as_str()).collect();
                println!(
                    "| {name} | {} | {} | {} | {} | {present}/{} | {} |",
                    format!("{:?}", e.format).to_lowercase(),
                    e.features,
                    e.class_names.join(" "),
                    parts.join(" "),
                    files.len(),
                    e.description
                );
            }
            println!("\ndata directory: {}", dest.display());
            Ok(())
        }
    }
}

fn plot_scores(
    exp: &Experiment,
    dataset: Option<&str>,
    method: Option<&str>,
    split: usize,
    bins: usize,
    out: &Path,
) -> Result<()> {
    let pick = |name: Option<&str>, names: Vec<&str>, what: &str| -> Result<usize> {
        match name {
            None => Ok(0),
            Some(n) => names.iter().position(|m| *m == n).ok_or_else(|| {
                Error::Data(format!("no {what} `{n}` in {} (have: {})", exp.path.display(), names.join(", ")))
            }),
        }
    };
    let d = pick(dataset, exp.datasets.iter().map(|d| d.name.as_str()).collect(), "dataset")?;
    let m = pick(method, exp.methods.iter().map(|m| m.name.as_str()).collect(), "method")?;
    if split >= exp.splits {
        return Err(Error::Data(format!("split {split} does not exist ({} splits)", exp.splits)));
    }
    let (spec, method) = (&exp.datasets[d], &exp.methods[m]);
    let problem = protocol::split_problem(spec, exp.seed, split)?;
    let outcome = method.method.run(&problem)?;
    let error = sslab::data::error_rate(outcome.scores.view(), problem.y_u.view());
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    }
    let hist = figures::ScoreHistogram {
        scores: outcome.scores.as_slice().unwrap_or(&[]),
        labels: problem.y_u.as_slice().unwrap_or(&[]),
        title: format!("{} on {} (split {split}): error {:.2}%", method.name, spec.name, 100.0 * error),
        stamp: report::stamp(&exp.hash),
        bins,
    };
    figures::score_histogram(&hist, out)?;
    println!("wrote {}", out.display());
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|e| Error::io(path, e))
}
