//! The subcommands as clap parses them, and their dispatch to one file each.

use clap::{CommandFactory, Parser, Subcommand};

use super::*;

// The `sslab` command line (no doc comment: clap would take it as the long help).
#[derive(Parser)]
#[command(
    name = "sslab",
    version,
    about = "Semi-supervised classification experiments",
    after_help = "Commands by task:\n  experiments  validate, run, status, merge, slurm\n  results      report, table, plot-curve, plot-tuning, plot-scores, shares, times\n  models       predict\n  theory       theory, theory-fit, theory-check, phase-diagram, proportions, study\n  data         data\n  shell        completions\n\nExample: sslab run configs/quickstart.toml -o results -j 2; `sslab help run` for more."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Check a config without running it.
    Validate(validate::Args),
    /// Run every (dataset, split, method) of a config; writes OUT/<name>/results.csv and
    /// OUT/<name>/summary.md.
    #[command(
        after_help = "Examples:\n  sslab run configs/quickstart.toml                 # into results/quickstart/\n  sslab run my.toml -o scratch -j 2 -q              # 2 threads, no progress output\n  sslab run my.toml --resume                        # complete an interrupted run\n  sslab run my.toml --force                         # run a finished config again\n  sslab run my.toml --shard 1/4                     # one shard; then `sslab merge`"
    )]
    Run(run::Args),
    /// Fits done and missing in a run folder (OUT/<name>), per shard, with the command that
    /// completes each unfinished shard.
    Status(status::Args),
    /// Merge the row logs of a sharded run (OUT/<name>) into results.csv and summary.md.
    Merge(merge::Args),
    /// Write SLURM scripts running a config as a job array of shards and a merge job.
    #[command(
        after_help = "Example:\n  sslab slurm my.toml --shards 8 --cpus 4 --time 02:00:00 -o /shared/results\n  bash /shared/results/<name>/slurm/submit.sh\n  sslab status /shared/results/<name>                # while it runs"
    )]
    Slurm(slurm::Args),
    /// A static HTML site of run folders (index, reproduction scorecard, a page per run)
    /// that opens offline.
    #[command(
        after_help = "Examples:\n  sslab report                                      # every run under results/ into out/report/\n  sslab report results/quickstart --out /tmp/site"
    )]
    Report(report::Args),
    /// Tables from result files: OUT/NAME.{md,tex,csv}, and OUT/NAME_vs_paper.md with
    /// --published.
    #[command(
        after_help = "Examples:\n  sslab table results/quickstart/results.csv --name quickstart\n  sslab table results/qlds_table2/results.csv --name t2 --methods 'LS-SVM,QLDS(th)' \\\n      --published configs/published/qlds_table2.csv"
    )]
    Table(table::Args),
    /// Curves of error (or selected α) against the number of labeled examples, one per
    /// method, over the datasets whose name starts with --prefix (PNG).
    #[command(
        after_help = "Example:\n  sslab plot-curve results/qlds_curves/results.csv --x labeled_per_class --prefix books- \\\n      --value alpha_l -o figures/books_alpha_l.png"
    )]
    PlotCurve(plot_curve::Args),
    /// The SVMlin paper's loss figures: Fig. 1 (TSVM's l2 loss on labeled and unlabeled
    /// points) and Fig. 2 (the DA loss for several temperatures T).
    PlotLosses(plot_losses::Args),
    /// Mean tuning error over the grid of one dataset and method of a tuning.csv, the chosen
    /// point ringed (PNG).
    PlotTuning(plot_tuning::Args),
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
    #[command(
        after_help = "Example:\n  sslab study configs/qlds_fig5_phase.toml          # [study] command = \"phase-diagram\""
    )]
    Study(study::Args),
    /// Scores the rows of a csv, npy or SVMlight file with a model saved by a run with
    /// `save_models = true`.
    #[command(
        after_help = "Example:\n  sslab predict results/quick/models/g/0/QLDS.npz new.csv --out scores.csv"
    )]
    Predict(predict::Args),
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
    /// Shell completions on stdout, e.g. `sslab completions bash > ~/.local/share/bash-completion/completions/sslab`.
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
}

/// Runs one subcommand.
pub fn dispatch(command: Command) -> sslab::Result<()> {
    // A forced instruction set (`SSLAB_SIMD`) is checked before any work.
    sslab::linalg::simd::forced()?;
    match command {
        Command::Validate(a) => validate::run(a),
        Command::Run(a) => run::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Status(a) => status::run(a),
        Command::Slurm(a) => slurm::run(a),
        Command::Report(a) => report::run(a),
        Command::Table(a) => table::run(a),
        Command::PlotCurve(a) => plot_curve::run(a),
        Command::PlotLosses(a) => plot_losses::run(a),
        Command::PlotScores(a) => plot_scores::run(a),
        Command::PlotTuning(a) => plot_tuning::run(a),
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
        Command::Predict(a) => predict::run(a),
        Command::Times(a) => times::run(a),
        Command::Theory(a) => theory::run(a),
        Command::TheoryFit(a) => theory_fit::run(a),
        Command::Data { command } => data::run(command),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "sslab", &mut std::io::stdout());
            Ok(())
        }
    }
}
