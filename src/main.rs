//! The `sslab` command line: parse arguments, call the library, map errors to exit codes.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use sslab::config::{self, Experiment};
use sslab::methods::qlds::{LambdaPolicy, QldsParams};
use sslab::data::Problem;
use sslab::methods::{Method, Outcome};
use sslab::selection::{self, Grid};
use sslab::theory::Setting;
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
        /// Keep the rows of an interrupted run of the same config and run only the rest.
        #[arg(long)]
        resume: bool,
    },
    /// Tables from result files: OUT/NAME.{md,tex,csv}, and OUT/NAME_vs_paper.md with
    /// --published.
    Table {
        /// One or more results.csv files (their rows are pooled).
        #[arg(required = true)]
        results: Vec<PathBuf>,
        /// Base name of the outputs.
        #[arg(long)]
        name: String,
        #[arg(long, default_value = "results/tables")]
        out: PathBuf,
        /// A published-numbers file (configs/published/*.csv) to compare with.
        #[arg(long)]
        published: Option<PathBuf>,
        /// Only these methods, in this order (comma-separated); significance is computed
        /// among them.
        #[arg(long, value_delimiter = ',')]
        methods: Option<Vec<String>>,
        /// What the cells summarise: error (in %) or prbep (in %, higher is better).
        #[arg(long, default_value = "error", value_parser = ["error", "prbep"])]
        value: String,
    },
    /// Curves of error (or selected α) against the number of labeled examples, one per
    /// method, over the datasets whose name starts with --prefix (PNG).
    PlotCurve {
        /// One or more results.csv files.
        #[arg(required = true)]
        results: Vec<PathBuf>,
        #[arg(long)]
        prefix: String,
        /// What to plot: error (in %), alpha_l or alpha_u.
        #[arg(long, default_value = "error", value_parser = ["error", "alpha_l", "alpha_u"])]
        value: String,
        #[arg(long)]
        title: Option<String>,
        #[arg(long)]
        out: PathBuf,
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
        /// Overlay the theoretical Gaussians N(m_j, σ²) (QLDS methods on synthetic data with
        /// identity covariances; at the α the method used).
        #[arg(long)]
        theory: bool,
        /// Output PNG.
        #[arg(long)]
        out: PathBuf,
    },
    /// Monte-Carlo check of the theory on spec §5's grid (120 settings): writes a CSV with
    /// theory and empirical mean/std/error per setting and a PNG of theory against simulation.
    TheoryCheck {
        /// Independent draws per setting.
        #[arg(long, default_value_t = 5)]
        draws: usize,
        #[arg(long, default_value_t = 2023)]
        seed: u64,
        /// `max_eig_all` or `max_eig_unlabeled`.
        #[arg(long, default_value = "max_eig_all")]
        lambda: String,
        #[arg(long, default_value = "results/theory_check.csv")]
        out: PathBuf,
        #[arg(long, default_value = "figures/theory_check.png")]
        figure: PathBuf,
    },
    /// Fig. 5: theoretical gain of theory-tuned QLDS over LS-SVM against the labeled count
    /// per class and ‖μ₁ − μ₂‖ (μ₁ = −μ₂); a heatmap PNG and a CSV.
    PhaseDiagram {
        #[arg(long, default_value_t = 100)]
        dim: usize,
        #[arg(long, default_value_t = 1000)]
        unlabeled_per_class: usize,
        #[arg(long, value_delimiter = ',', default_value = "2,5,10,20,50,100")]
        labeled_per_class: Vec<usize>,
        #[arg(long, value_delimiter = ',', default_value = "0.5,1,1.5,2,2.5,3,4")]
        distances: Vec<f64>,
        /// Grid points per α axis.
        #[arg(long, default_value_t = 20)]
        grid: usize,
        /// Cells checked by simulation, `NL:DIST` pairs (e.g. `5:2,50:2`); written to
        /// `<csv stem>_spot_checks.csv`.
        #[arg(long, value_delimiter = ',')]
        spot_checks: Vec<String>,
        /// Draws per spot check.
        #[arg(long, default_value_t = 10)]
        draws: usize,
        #[arg(long)]
        csv: PathBuf,
        #[arg(long)]
        out: PathBuf,
    },
    /// Fig. 4: error of the theory-chosen QLDS when the unlabeled class shares are assumed
    /// equal to the (balanced) labeled ones, against knowing them; a line chart and a CSV.
    Proportions {
        #[arg(long, default_value_t = 100)]
        dim: usize,
        #[arg(long, default_value_t = 50)]
        labeled_per_class: usize,
        /// Total unlabeled points.
        #[arg(long, default_value_t = 2000)]
        unlabeled: usize,
        #[arg(long, default_value_t = 1.0)]
        mean_norm: f64,
        /// Shares of class +1 among the unlabeled points.
        #[arg(long, value_delimiter = ',', default_value = "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9")]
        shares: Vec<f64>,
        #[arg(long, default_value_t = 20)]
        grid: usize,
        #[arg(long)]
        csv: PathBuf,
        #[arg(long)]
        out: PathBuf,
    },
    /// Running-time table (mean ± std of fit_seconds per dataset and method, in ms) of a
    /// results.csv written by `run`.
    Times {
        results: PathBuf,
        /// Output Markdown file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Theoretical score means m_1, m_2, spread σ and error of QLDS (isotropic Theorem 1).
    Theory(TheoryArgs),
    /// Registered datasets (configs/datasets.toml): fetch them into the data directory
    /// (`$SSLAB_DATA_DIR`, default `data/`) or list them.
    Data {
        #[command(subcommand)]
        command: DataCommand,
    },
}

/// `sslab theory`: the setting, the parameters and the output format.
#[derive(clap::Args)]
struct TheoryArgs {
    /// Dimension d.
    #[arg(long)]
    dim: usize,
    /// Labeled counts per class, `N` or `N1,N2`.
    #[arg(long, value_parser = per_class)]
    labeled: [usize; 2],
    /// Unlabeled counts per class, `N` or `N1,N2`.
    #[arg(long, value_parser = per_class)]
    unlabeled: [usize; 2],
    /// ‖μ‖ with μ₁ = −μ₂ (or give --g).
    #[arg(long, conflicts_with = "g", required_unless_present = "g")]
    mean_norm: Option<f64>,
    /// G = MᵀM as `G11,G12,G22` (write `--g=2.25,-2.25,2.25` when it starts with a minus).
    #[arg(long, value_parser = three_numbers, allow_hyphen_values = true)]
    g: Option<[f64; 3]>,
    #[arg(long)]
    alpha_l: f64,
    #[arg(long)]
    alpha_u: f64,
    /// `max_eig_all`, `max_eig_unlabeled` (evaluated at (1+ε)·theoretical edge) or a number.
    #[arg(long, default_value = "max_eig_all")]
    lambda: String,
    #[arg(long, default_value_t = LambdaPolicy::EPSILON)]
    epsilon: f64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

fn three_numbers(s: &str) -> std::result::Result<[f64; 3], String> {
    let v: Vec<f64> = s.split(',').map(|p| p.trim().parse::<f64>().map_err(|e| format!("`{p}`: {e}"))).collect::<std::result::Result<_, _>>()?;
    <[f64; 3]>::try_from(v).map_err(|_| "expected G11,G12,G22".to_string())
}

fn per_class(s: &str) -> std::result::Result<[usize; 2], String> {
    let parts: Vec<&str> = s.split(',').collect();
    let num = |p: &str| p.trim().parse::<usize>().map_err(|e| format!("`{p}`: {e}"));
    match parts.as_slice() {
        [n] => Ok([num(n)?; 2]),
        [a, b] => Ok([num(a)?, num(b)?]),
        _ => Err("expected N or N1,N2".into()),
    }
}

#[derive(Subcommand)]
enum DataCommand {
    /// Copy (from a mirror) or download the original files of NAMES (default: all), checking sha256.
    Fetch {
        names: Vec<String>,
        /// Mirror directory, tried first; then $SSLAB_DATA_MIRROR, ../shared/data, the public original.
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
        Command::Run { config, out, threads, quiet, resume } => {
            let exp = config::load(&config)?;
            let dir = out.join(&exp.name);
            std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
            let options = RunOptions { threads, progress: !quiet, resume };
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
            println!("wall time {wall:.1} s, peak memory {peak}, {} threads", threads.unwrap_or_else(rayon::current_num_threads));
            let failed: Vec<&protocol::ResultRow> = rows.iter().filter(|r| !r.is_ok()).collect();
            if let Some(first) = failed.first() {
                eprintln!(
                    "warning: {} of {} fits failed (recorded in results.csv); first: {} on {} split {}: {}",
                    failed.len(), rows.len(), first.method, first.dataset, first.split, first.message
                );
            }
            Ok(())
        }
        Command::Table { results, name, out, published, methods, value } => {
            let measure = if value == "prbep" { tables::PRBEP } else { tables::ERROR };
            table(&results, &name, &out, published.as_deref(), methods.as_deref(), measure)
        }
        Command::PlotCurve { results, prefix, value, title, out } => {
            let rows = read_all(&results)?;
            let (pick, y_label): (fn(&protocol::ResultRow) -> Option<f64>, &str) = match value.as_str() {
                "alpha_l" => (|r| r.alpha_l, "selected α_l (mean over splits)"),
                "alpha_u" => (|r| r.alpha_u, "selected α_u (mean over splits)"),
                _ => (tables::error_percent, "error on unlabeled points (%)"),
            };
            let curves = figures::curves::by_labeled(&rows, &prefix, pick)?;
            let plot = figures::curves::CurvePlot {
                curves: &curves,
                title: title.unwrap_or_else(|| format!("{prefix}: {value}")),
                x_label: "number of labeled examples".into(),
                y_label: y_label.into(),
                stamp: report::stamp(&hashes(&rows)),
            };
            create_parent(&out)?;
            figures::curves::draw(&plot, &out)?;
            println!("wrote {}", out.display());
            Ok(())
        }
        Command::PlotScores { config, dataset, method, split, bins, theory, out } => {
            let exp = config::load(&config)?;
            plot_scores(&exp, (dataset.as_deref(), method.as_deref()), split, bins, theory, &out)
        }
        Command::Theory(args) => theory(&args),
        Command::PhaseDiagram { dim, unlabeled_per_class, labeled_per_class, distances, grid, spot_checks, draws, csv, out } => {
            let grid = Grid { points: grid };
            let points = selection::phase_diagram(dim, unlabeled_per_class, &labeled_per_class, &distances, &grid, LambdaPolicy::default())?;
            report::write_csv(&csv, &points)?;
            let spots = spot_checks
                .iter()
                .map(|s| {
                    let bad = || Error::param("spot_checks", format!("expected NL:DIST, got `{s}`"));
                    let (nl, dist) = s.split_once(':').ok_or_else(bad)?;
                    let (nl, dist) = (nl.trim().parse().map_err(|_| bad())?, dist.trim().parse().map_err(|_| bad())?);
                    let check = selection::spot_check(dim, unlabeled_per_class, nl, dist, &grid, draws, 2023)?;
                    let theory = points.iter().find(|p| p.labeled_per_class == nl && p.distance == dist);
                    println!(
                        "spot check n_l = {nl}, distance {dist}: simulated gain {:.1} pp (LS-SVM {:.1}%, QLDS(th) {:.1}%), theory {}",
                        100.0 * check.gain, 100.0 * check.ls_svm_error, 100.0 * check.tuned_error,
                        theory.map_or("not on the grid".into(), |p| format!("{:.1} pp", 100.0 * p.gain))
                    );
                    Ok(check)
                })
                .collect::<Result<Vec<_>>>()?;
            if !spots.is_empty() {
                let stem = csv.file_stem().and_then(|s| s.to_str()).unwrap_or("phase");
                report::write_csv(&csv.with_file_name(format!("{stem}_spot_checks.csv")), &spots)?;
            }
            let values: Vec<Vec<f64>> = distances
                .iter()
                .map(|d| labeled_per_class.iter().map(|n| points.iter().find(|p| p.labeled_per_class == *n && p.distance == *d).map_or(f64::NAN, |p| 100.0 * p.gain)).collect())
                .collect();
            let stamp = format!("d = {dim}, {unlabeled_per_class} unlabeled per class, {}×{} grid · {}", grid.points, grid.points, report::stamp("none (CLI)"));
            figures::heatmap(
                &figures::Heatmap {
                    values: &values,
                    x_labels: &labeled_per_class.iter().map(|n| n.to_string()).collect::<Vec<_>>(),
                    y_labels: &distances.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
                    x_desc: "labeled points per class",
                    y_desc: "‖μ₁ − μ₂‖",
                    format: |v| format!("{v:.1}"),
                    title: "Theory: error of LS-SVM minus error of QLDS(th) (percentage points)".into(),
                    stamp,
                },
                &out,
            )?;
            println!("wrote {} and {}", csv.display(), out.display());
            Ok(())
        }
        Command::Proportions { dim, labeled_per_class, unlabeled, mean_norm, shares, grid, csv, out } => {
            let grid = Grid { points: grid };
            let points = selection::proportion_study(dim, labeled_per_class, unlabeled, mean_norm, &shares, &grid, LambdaPolicy::default())?;
            report::write_csv(&csv, &points)?;
            let curve = |label: &str, error: fn(&selection::ProportionPoint) -> f64| figures::curves::Curve {
                label: label.into(),
                points: points.iter().map(|p| (p.unlabeled_share, 100.0 * error(p), 0.0)).collect(),
            };
            let curves = [
                curve("α chosen assuming unlabeled shares = labeled shares", |p| p.assumed_error),
                curve("α chosen knowing the unlabeled shares", |p| p.known_error),
            ];
            let stamp = format!("d = {dim}, {labeled_per_class} labeled per class, {unlabeled} unlabeled, ‖μ‖ = {mean_norm} · {}", report::stamp("none (CLI)"));
            let plot = figures::curves::CurvePlot {
                curves: &curves,
                title: "QLDS(th) under class-proportion mismatch".into(),
                x_label: "share of class +1 among unlabeled points".into(),
                y_label: "theoretical error (%)".into(),
                stamp,
            };
            figures::curves::draw(&plot, &out)?;
            println!("wrote {} and {}", csv.display(), out.display());
            Ok(())
        }
        Command::Times { results, out } => {
            let rows = protocol::read_results(&results)?;
            let hash = rows.first().map_or("none", |r| r.config_hash.as_str());
            let md = report::times::times_markdown(&rows, &report::stamp(hash));
            write(&out, &md)?;
            println!("{md}\nwrote {}", out.display());
            Ok(())
        }
        Command::TheoryCheck { draws, seed, lambda, out, figure } => theory_check(draws, seed, &lambda, &out, &figure),
        Command::Data { command } => data(command),
    }
}

fn data(command: DataCommand) -> Result<()> {
    let reg = Registry::builtin()?;
    let dest = load::data_dir();
    match command {
        DataCommand::Fetch { names, mirror } => {
            for (file, outcome) in fetch::fetch(&reg, &names, &dest, &fetch::mirrors(mirror))? {
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

fn theory_check(draws: usize, seed: u64, lambda: &str, out: &Path, figure: &Path) -> Result<()> {
    let policy = match lambda {
        "max_eig_all" => LambdaPolicy::default(),
        "max_eig_unlabeled" => LambdaPolicy::MaxEigUnlabeled { epsilon: LambdaPolicy::EPSILON },
        other => return Err(Error::param("lambda", format!("expected max_eig_all or max_eig_unlabeled, got `{other}`"))),
    };
    faer::set_global_parallelism(faer::Par::Seq);
    let rows = sslab::theory::run_check(&sslab::theory::spec_grid(), policy, draws, seed, true)?;
    for path in [out, figure] {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
    }
    report::write_csv(out, &rows)?;
    let points: Vec<_> = rows
        .iter()
        .filter_map(|r| r.theory_error.map(|t| figures::ErrorPair { theory: t, empirical: r.empirical_error, empirical_std: r.empirical_error_std }))
        .collect();
    let count = |f: fn(&sslab::theory::CheckRow) -> bool| rows.iter().filter(|r| f(r)).count();
    let title = format!("QLDS theory vs simulation: {} settings × {draws} draws, λ: {lambda}", rows.len());
    let stamp = report::stamp(&format!("theory-check seed {seed}"));
    figures::theory_check(&points, &title, &stamp, figure)?;
    println!(
        "{} settings: theory valid {}, error within 0.02: {}, m and σ within 10%: {}, m/σ within 10%: {}\nwrote {} and {}",
        rows.len(),
        count(|r| r.theory_valid),
        count(|r| r.error_within_002),
        count(|r| r.moments_within_10pct),
        count(|r| r.ratio_within_10pct),
        out.display(),
        figure.display()
    );
    Ok(())
}

fn theory(a: &TheoryArgs) -> Result<()> {
    let setting = match (&a.g, a.mean_norm) {
        (Some(g), _) => Setting::new(a.dim, a.labeled, a.unlabeled, [[g[0], g[1]], [g[1], g[2]]])?,
        (None, Some(norm)) => Setting::symmetric(a.dim, a.labeled, a.unlabeled, norm)?,
        (None, None) => return Err(Error::param("mean_norm", "give --mean-norm or --g")),
    };
    let policy = match a.lambda.as_str() {
        "max_eig_all" => LambdaPolicy::MaxEigAll { epsilon: a.epsilon },
        "max_eig_unlabeled" => LambdaPolicy::MaxEigUnlabeled { epsilon: a.epsilon },
        other => LambdaPolicy::Fixed(other.parse().map_err(|_| {
            Error::param("lambda", format!("expected max_eig_all, max_eig_unlabeled or a number, got `{other}`"))
        })?),
    };
    QldsParams { alpha_l: a.alpha_l, alpha_u: a.alpha_u, lambda: policy }.check()?;
    let lambda = sslab::theory::theory_lambda(&setting, policy, 1.0)?;
    let result = sslab::theory::predict(&setting, a.alpha_l, a.alpha_u, lambda);
    let json = |v: f64| if v.is_finite() { format!("{v}") } else { "null".into() };
    match (&result, a.json) {
        (Ok(p), true) => println!(
            "{{\"valid\": true, \"m_1\": {}, \"m_2\": {}, \"sigma\": {}, \"error\": {}, \"delta\": {}, \"lambda\": {}}}",
            json(p.m[0]), json(p.m[1]), json(p.sigma), json(p.error), json(p.delta), json(lambda)
        ),
        (Err(why), true) => println!("{{\"valid\": false, \"reason\": \"{why}\", \"lambda\": {}}}", json(lambda)),
        (Ok(p), false) => println!(
            "λ = {lambda:.6} ({})\nm_1 = {:.6}\nm_2 = {:.6}\nσ   = {:.6}\nerror = {:.6}\nvalid: yes (δ = {:.6})",
            policy.name(), p.m[0], p.m[1], p.sigma, p.error, p.delta
        ),
        (Err(why), false) => println!("λ = {lambda:.6} ({})\nvalid: no ({why})", policy.name()),
    }
    Ok(())
}

fn plot_scores(exp: &Experiment, (dataset, method): (Option<&str>, Option<&str>), split: usize, bins: usize, theory: bool, out: &Path) -> Result<()> {
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
    create_parent(out)?;
    let hist = figures::ScoreHistogram {
        scores: outcome.scores.as_slice().unwrap_or(&[]),
        labels: problem.y_u.as_slice().unwrap_or(&[]),
        title: match (outcome.alpha_l, outcome.alpha_u) {
            (Some(al), Some(au)) => format!("{} (α_l = {al:.2}, α_u = {au:.2}) on {}, split {split}: error {:.2}%", method.name, spec.name, 100.0 * error),
            _ => format!("{} on {} (split {split}): error {:.2}%", method.name, spec.name, 100.0 * error),
        },
        stamp: report::stamp(&exp.hash),
        bins,
        gaussians: if theory { Some(theory_gaussians(spec, &method.method, &problem, &outcome)?) } else { None },
    };
    figures::score_histogram(&hist, out)?;
    println!("wrote {}", out.display());
    Ok(())
}

/// Rows of several results files, pooled.
fn read_all(results: &[PathBuf]) -> Result<Vec<protocol::ResultRow>> {
    let mut rows = Vec::new();
    for path in results {
        rows.extend(protocol::read_results(path)?);
    }
    Ok(rows)
}

/// The distinct config hashes of `rows`, joined with `+` (for stamps).
fn hashes(rows: &[protocol::ResultRow]) -> String {
    let mut h: Vec<&str> = rows.iter().map(|r| r.config_hash.as_str()).collect();
    h.sort();
    h.dedup();
    h.join("+")
}

/// Creates the parent folder of an output file.
fn create_parent(out: &Path) -> Result<()> {
    match out.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) => std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e)),
        None => Ok(()),
    }
}

fn table(results: &[PathBuf], name: &str, out: &Path, published: Option<&Path>, methods: Option<&[String]>, measure: tables::Measure) -> Result<()> {
    let mut rows = read_all(results)?;
    if let Some(list) = methods {
        if let Some(missing) = list.iter().find(|m| !rows.iter().any(|r| &r.method == *m)) {
            return Err(Error::Data(format!("no rows for method `{missing}` in the results")));
        }
        rows.retain(|r| list.contains(&r.method));
        rows.sort_by_key(|r| list.iter().position(|m| *m == r.method));
    }
    let t = tables::build(&rows, measure, &report::stamp(&hashes(&rows)))?;
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let md = tables::markdown(&t);
    write(&out.join(format!("{name}.md")), &md)?;
    write(&out.join(format!("{name}.tex")), &tables::latex(&t))?;
    write(&out.join(format!("{name}.csv")), &tables::csv(&t)?)?;
    println!("{md}");
    if let Some(p) = published {
        let cmp = report::compare::markdown(&t, &report::compare::load_published(p)?, &p.display().to_string());
        write(&out.join(format!("{name}_vs_paper.md")), &cmp)?;
        println!("{cmp}");
    }
    println!("wrote {}/{name}.{{md,tex,csv}}", out.display());
    Ok(())
}

/// N(m_j, σ²) of Theorem 1 for the α and λ policy a QLDS method used on a split: with the
/// true class means on synthetic data, with the setting estimated from the labeled points
/// (as QLDS(th) does, rescaled to unit within-class variance) on data read from files.
fn theory_gaussians(spec: &config::DatasetSpec, method: &Method, problem: &Problem, outcome: &Outcome) -> Result<[(f64, f64); 2]> {
    let policy = match method {
        Method::Qlds(q) => q.params().lambda,
        Method::Select(s) => s.lambda,
        _ => return Err(Error::param("theory", "the overlay needs a QLDS method (fixed or selected α)")),
    };
    let (al, au) = (outcome.alpha_l.unwrap_or(0.0), outcome.alpha_u.unwrap_or(0.0));
    let count = |y: &ndarray::Array1<f64>| {
        let (pos, neg) = sslab::data::class_counts(y.view());
        [pos, neg]
    };
    let (setting, variance) = match &spec.source {
        config::DataSource::Synthetic(mixture) => (Setting::from_mixture(mixture, count(&problem.y_l), count(&problem.y_u))?, 1.0),
        _ => {
            let prep = sslab::methods::qlds::Prepared::new(problem)?;
            let est = sslab::theory::estimate_setting(&prep, sslab::theory::Scale::LabeledWithin)?;
            (est.setting, est.variance)
        }
    };
    let lambda = sslab::theory::theory_lambda(&setting, policy, variance)?;
    let p = sslab::theory::predict(&setting, al, au, lambda)
        .map_err(|why| Error::Data(format!("theory at ({al}, {au}) has no value: {why}")))?;
    Ok([(p.m[0], p.sigma), (p.m[1], p.sigma)])
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|e| Error::io(path, e))
}

/// Peak resident memory of this process (Linux `VmHWM`), in MiB.
fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = status.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?;
    kb.parse::<f64>().ok().map(|kb| kb / 1024.0)
}
