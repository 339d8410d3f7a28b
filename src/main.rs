//! The `sslab` command line: parse arguments and dispatch to one file per subcommand
//! (`src/cli/`); errors go to stderr with a non-zero exit code.

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use cli::*;

#[derive(Parser)]
#[command(name = "sslab", version, about = "Semi-supervised classification experiments")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a config without running it.
    Validate(validate::Args),
    /// Run every (dataset, split, method) of a config; writes OUT/<name>/results.csv and
    /// OUT/<name>/summary.md.
    Run(run::Args),
    /// Merge the row logs of a sharded run (OUT/<name>) into results.csv and summary.md.
    Merge(merge::Args),
    /// Write SLURM scripts running a config as a job array of shards and a merge job.
    Slurm(slurm::Args),
    /// Tables from result files: OUT/NAME.{md,tex,csv}, and OUT/NAME_vs_paper.md with
    /// --published.
    Table(table::Args),
    /// Curves of error (or selected α) against the number of labeled examples, one per
    /// method, over the datasets whose name starts with --prefix (PNG).
    PlotCurve(plot_curve::Args),
    /// Histogram of one method's unlabeled scores on one split, per true class (PNG).
    PlotScores(plot_scores::Args),
    /// Per split: error, share of unlabeled points predicted as each class beside the true
    /// share, and the mean unlabeled score of one method on one dataset.
    Shares(shares::Args),
    /// Monte-Carlo check of the theory on spec §5's grid (120 settings): writes a CSV with
    /// theory and empirical mean/std/error per setting and a PNG of theory against simulation.
    TheoryCheck(theory_check::Args),
    /// Fig. 5: theoretical gain of theory-tuned QLDS over LS-SVM against the labeled count
    /// per class and ‖μ₁ − μ₂‖ (μ₁ = −μ₂); a heatmap PNG and a CSV.
    PhaseDiagram(phase_diagram::Args),
    /// Fig. 4: error of the theory-chosen QLDS when the unlabeled class shares are assumed
    /// equal to the (balanced) labeled ones, against knowing them; a line chart and a CSV.
    Proportions(proportions::Args),
    /// A theory study (phase-diagram, proportions, theory-check) with its options in a
    /// config file's `[study]` table.
    Study(study::Args),
    /// Running-time table (mean ± std of fit_seconds per dataset and method, in ms) of a
    /// results.csv written by `run`.
    Times(times::Args),
    /// Theoretical score means m_1, m_2, spread σ and error of QLDS (isotropic Theorem 1).
    Theory(theory::Args),
    /// How well the theory describes a QLDS method's scores on every split of a config, per
    /// estimate of the setting: fit.csv, summary.csv and summary.md in --out.
    TheoryFit(theory_fit::Args),
    /// Registered datasets (configs/datasets.toml): fetch them into the data directory
    /// (`$SSLAB_DATA_DIR`, default `data/`) or list them.
    Data {
        #[command(subcommand)]
        command: data::Command,
    },
}

/// Runs one subcommand.
fn dispatch(command: Command) -> sslab::Result<()> {
    match command {
        Command::Validate(a) => validate::run(a),
        Command::Run(a) => run::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Slurm(a) => slurm::run(a),
        Command::Table(a) => table::run(a),
        Command::PlotCurve(a) => plot_curve::run(a),
        Command::PlotScores(a) => plot_scores::run(a),
        Command::Shares(a) => shares::run(a),
        Command::TheoryCheck(a) => theory_check::run(a),
        Command::PhaseDiagram(a) => phase_diagram::run(a),
        Command::Proportions(a) => proportions::run(a),
        Command::Study(a) => {
            let (argv, lines) = study::command_line(&a.config)?;
            let cli = Cli::try_parse_from(argv)
                .map_err(|e| study::option_error(&a.config, &lines, &e))?;
            dispatch(cli.command)
        }
        Command::Times(a) => times::run(a),
        Command::Theory(a) => theory::run(a),
        Command::TheoryFit(a) => theory_fit::run(a),
        Command::Data { command } => data::run(command),
    }
}

fn main() -> ExitCode {
    // A closed pipe (`sslab table … | head`) ends the process quietly, as for other tools.
    #[cfg(unix)]
    // SAFETY: restoring the default action of a signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let result = dispatch(Cli::parse().command);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
