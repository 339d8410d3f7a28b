//! The guiding command line through the `sslab` binary: re-runs need `--force` (or say there
//! is nothing to do), `status` and `merge` name the shards to run, progress lines without a
//! terminal, `validate --estimate`, tuning at the edge of its grid, `plot-tuning`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CONFIG: &str = r#"
[experiment]
name = "wf"
seed = 3
splits = 4

[[datasets]]
name = "small"
kind = "synthetic"
dim = 8
mean_norm = 1.5
labeled_per_class = 3
unlabeled_per_class = 30

[[datasets]]
name = "large"
kind = "synthetic"
dim = 30
mean_norm = 2.0
labeled = 12
unlabeled = 200

[[methods]]
kind = "ls_svm"

[[methods]]
kind = "qlds"
select = "th"
grid = 4
"#;

fn sslab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sslab")).args(args).output().unwrap()
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into(), String::from_utf8_lossy(&o.stderr).into())
}

/// A fresh folder holding the config as c.toml.
fn setup(tag: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("sslab-workflow-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("c.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    (dir, cfg)
}

fn run(cfg: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["run", cfg.to_str().unwrap(), "--out", out.to_str().unwrap()];
    args.extend(extra);
    sslab(&args)
}

#[test]
fn a_finished_run_needs_force_and_resume_has_nothing_to_do() {
    let (dir, cfg) = setup("rerun");
    let out = dir.join("out");
    // Without a terminal (stderr is a pipe here) progress comes as lines.
    let o = run(&cfg, &out, &["--threads", "1"]);
    let (_, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("progress: 16/16 fits (100%), elapsed "), "{err}");
    let results = out.join("wf/results.csv");
    let before = std::fs::read_to_string(&results).unwrap();
    let o = run(&cfg, &out, &["--quiet"]);
    let (_, err) = text(&o);
    assert!(!o.status.success(), "a finished run is not overwritten");
    assert!(
        err.contains("holds a finished run of this config (16 fits); --force runs it again"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&results).unwrap(), before);
    let o = run(&cfg, &out, &["--quiet", "--resume"]);
    let (stdout, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(stdout.contains("the run of this config is finished (16 fits); nothing to do"));
    assert_eq!(std::fs::read_to_string(&results).unwrap(), before);
    assert!(run(&cfg, &out, &["--quiet", "--force"]).status.success());
    // An interrupted run: refused without --resume or --force, completed with --resume.
    let log = out.join("wf/rows.log");
    let rows = std::fs::read_to_string(&log).unwrap();
    let kept: Vec<&str> = rows.lines().take(3).collect();
    std::fs::write(&log, format!("{}\n", kept.join("\n"))).unwrap();
    std::fs::remove_file(&results).unwrap();
    let (_, err) = text(&run(&cfg, &out, &["--quiet"]));
    assert!(
        err.contains(
            "holds an interrupted run of this config (3 of 16 fits done); --resume completes it"
        ),
        "{err}"
    );
    assert!(run(&cfg, &out, &["--quiet", "--resume"]).status.success());
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 16);
    // Zero threads is refused before anything runs; so is --force with --resume.
    let (_, err) = text(&run(&cfg, &out, &["--threads", "0"]));
    assert!(
        err.contains("invalid value '0' for '--threads <THREADS>': must be at least 1"),
        "{err}"
    );
    assert!(!run(&cfg, &out, &["--force", "--resume"]).status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn status_and_merge_name_the_shards_to_run_and_their_commands() {
    let (dir, cfg) = setup("status");
    let out = dir.join("out");
    for shard in ["1/3", "3/3"] {
        let o = run(&cfg, &out, &["--quiet", "--shard", shard]);
        assert!(o.status.success(), "{}", text(&o).1);
    }
    let run_dir = out.join("wf");
    let command = format!(
        "sslab run {} --out {} --shard 2/3 --resume",
        run_dir.join("config.toml").display(),
        out.display()
    );
    let o = sslab(&["status", run_dir.to_str().unwrap()]);
    let (stdout, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let missing = 16
        - stdout
            .split("fits done")
            .next()
            .unwrap()
            .split(", ")
            .last()
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse::<usize>()
            .unwrap();
    assert!(stdout.contains("3 shards"), "{stdout}");
    assert!(stdout.contains("  shard 1/3: done ("), "{stdout}");
    assert!(
        stdout.contains(&format!("  shard 2/3: 0 of {missing} fits done, {missing} missing:")),
        "{stdout}"
    );
    assert!(stdout.contains(&format!("    complete with: {command}")), "{stdout}");
    let o = sslab(&["merge", run_dir.to_str().unwrap()]);
    let (_, err) = text(&o);
    assert!(!o.status.success());
    assert!(
        err.contains(&format!(
            "to complete it, run:\nshard 2/3 ({missing} fits missing): {command}"
        )),
        "{err}"
    );
    // The command as printed completes the run.
    let args: Vec<&str> = command.split(' ').skip(1).chain(["--quiet"]).collect();
    let o = sslab(&args);
    assert!(o.status.success(), "{}", text(&o).1);
    let (stdout, _) = text(&sslab(&["status", run_dir.to_str().unwrap()]));
    assert!(
        stdout.contains("16 of 16 fits done")
            && stdout.contains("every shard is done: `sslab merge"),
        "{stdout}"
    );
    assert!(sslab(&["merge", run_dir.to_str().unwrap()]).status.success());
    let (stdout, _) = text(&sslab(&["status", run_dir.to_str().unwrap()]));
    assert!(stdout.contains("results.csv written"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Σ fit_seconds of a committed results.csv.
fn measured_seconds(path: &Path) -> f64 {
    let mut r = csv::Reader::from_path(path).unwrap();
    let col = r.headers().unwrap().iter().position(|h| h == "fit_seconds").unwrap();
    r.records().map(|x| x.unwrap()[col].parse::<f64>().unwrap()).sum()
}

/// Seconds of one thread `validate --estimate --threads 2` gives for `config`.
fn estimated_seconds(config: &str) -> f64 {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join(config);
    let o = sslab(&["validate", path.to_str().unwrap(), "--estimate", "--threads", "2"]);
    let (stdout, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let line = stdout.lines().find(|l| l.starts_with("estimate: ")).expect(&stdout);
    assert!(line.contains(" on 2 threads ("), "{line}");
    line.rsplit_once('(').unwrap().1.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn the_estimate_is_within_a_factor_of_five_of_the_committed_quickstart_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let one = estimated_seconds("configs/quickstart.toml");
    let measured = measured_seconds(&root.join("results/quickstart/results.csv"));
    assert!(
        one / measured < 5.0 && measured / one < 5.0,
        "estimate {one} s, measured {measured} s"
    );
}

/// Selection methods count their folds and grid points: QLDS(cv) on qlds_table1 (10 folds
/// × 400 points) was under-estimated 50-fold when it counted one fit.
#[test]
fn the_estimate_of_qlds_table1_counts_the_cross_validation_fits() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let one = estimated_seconds("configs/qlds_table1.toml");
    let measured = measured_seconds(&root.join("results/qlds_table1/results.csv"));
    assert!(
        one / measured < 2.0 && measured / one < 2.0,
        "estimate {one} s, measured {measured} s"
    );
}

#[test]
fn a_choice_on_the_edge_of_its_grid_is_warned_marked_and_plotted() {
    let (dir, _) = setup("edge");
    let cfg = dir.join("t.toml");
    std::fs::write(
        &cfg,
        "[experiment]\nname = \"edge\"\nseed = 2\nsplits = 2\n\n[[datasets]]\nname = \"g\"\nkind = \"synthetic\"\ndim = 20\nmean_norm = 1.5\nlabeled_per_class = 4\nunlabeled_per_class = 100\n\n[[methods]]\nkind = \"qlds\"\nname = \"Q\"\ntune = { alpha_l = [1.0], alpha_u = [0.0, 0.25, 0.5, 1.0], seed = 5, splits = 2 }\n",
    )
    .unwrap();
    let out = dir.join("out");
    let o = run(&cfg, &out, &["--quiet"]);
    let (_, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let mut r = csv::Reader::from_path(out.join("edge/tuning.csv")).unwrap();
    let head: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    let errors: Vec<f64> = rows.iter().map(|x| x[col("error_percent")].parse().unwrap()).collect();
    assert!(errors.iter().all(|e| (0.0..=100.0).contains(e)));
    // The chosen row is the argmin; its edge column says whether α_u is the smallest or the
    // largest of the four values, and the warning says the same.
    let best = (0..rows.len()).fold(0, |b, i| if errors[i] < errors[b] { i } else { b });
    assert_eq!(&rows[best][col("chosen")], "true");
    let value = rows[best][col("alpha_u")].to_string();
    let expected = match value.as_str() {
        "0.0" => "alpha_u=smallest",
        "1.0" => "alpha_u=largest",
        _ => "",
    };
    assert_eq!(&rows[best][col("edge")], expected);
    let warned = err
        .contains(&format!("warning: tuning Q on g chose the edge of its grid (alpha_u = {value}"));
    assert_eq!(warned, !expected.is_empty(), "{err}");
    // α_l has one value: never an edge.
    assert!(!rows[best][col("edge")].contains("alpha_l"));
    let png = dir.join("tuning.png");
    let table = out.join("edge/tuning.csv");
    let o = sslab(&["plot-tuning", table.to_str().unwrap(), "-o", png.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o).1);
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    let o = sslab(&[
        "plot-tuning",
        table.to_str().unwrap(),
        "--method",
        "R",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(text(&o).1.contains("no rows for dataset `g` and method `R` (have: g / Q)"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_help_guides_version_names_the_commit_and_completions_are_written() {
    let (version, _) = text(&sslab(&["--version"]));
    assert!(
        version.starts_with(&format!("sslab {} (commit ", env!("CARGO_PKG_VERSION"))),
        "{version}"
    );
    let (help, _) = text(&sslab(&["--help"]));
    assert!(help.contains("experiments  validate, run, status, merge, slurm"), "{help}");
    for command in ["run", "table", "plot-curve", "slurm", "study"] {
        let (help, _) = text(&sslab(&[command, "--help"]));
        assert!(help.contains("Example"), "{command}: {help}");
    }
    let (help, _) = text(&sslab(&["run", "--help"]));
    for flag in ["-o, --out", "-j, --threads", "-q, --quiet", "default: all cores"] {
        assert!(help.contains(flag), "{flag}: {help}");
    }
    for (shell, mark) in
        [("bash", "_sslab()"), ("zsh", "#compdef sslab"), ("fish", "complete -c sslab")]
    {
        let (script, err) = text(&sslab(&["completions", shell]));
        assert!(script.contains(mark) && script.contains("plot-tuning"), "{shell}: {err}");
    }
}

#[test]
fn the_slurm_array_leaves_progress_lines_in_the_shard_logs() {
    let (dir, cfg) = setup("slurm");
    let out = dir.join("out");
    let o = sslab(&["slurm", cfg.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o).1);
    let array = std::fs::read_to_string(out.join("wf/slurm/array.sbatch")).unwrap();
    assert!(array.contains(" --resume\n") && !array.contains("--quiet"), "{array}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn misspelt_keys_kinds_and_names_get_a_suggestion() {
    let (dir, cfg) = setup("suggest");
    let cases = [
        (
            "kind = \"ls_svm\"",
            "kind = \"ls_svn\"",
            "unknown kind `ls_svn` (did you mean `ls_svm`?)",
        ),
        (
            "grid = 4",
            "gird = 4",
            "methods[1].gird: not a parameter of `qlds` (did you mean `grid`?)",
        ),
        (
            "mean_norm = 1.5",
            "mean_nrom = 1.5",
            "datasets[0].mean_nrom: not a key of a `synthetic` dataset (did you mean `mean_norm`?)",
        ),
        // A synthetic dataset has no `preprocess`: nothing close to suggest.
        (
            "mean_norm = 1.5",
            "preprocesss = [\"center\"]",
            "datasets[0].preprocesss: not a key of a `synthetic` dataset\n",
        ),
        (
            "kind = \"synthetic\"",
            "kind = \"synthetik\"",
            "unknown kind `synthetik` (did you mean `synthetic`?)",
        ),
    ];
    for (from, to, expected) in cases {
        std::fs::write(&cfg, CONFIG.replacen(from, to, 1)).unwrap();
        let (_, err) = text(&sslab(&["validate", cfg.to_str().unwrap()]));
        assert!(err.contains(expected), "{to}: {err}");
    }
    let (_, err) = text(&sslab(&["validate", cfg.to_str().unwrap()]));
    assert!(!err.contains("mean_norm`?"));
    std::fs::write(&cfg, CONFIG.replacen("mean_norm = 1.5", "mean_nrom = 1.5", 1)).unwrap();
    let (_, err) = text(&sslab(&["validate", cfg.to_str().unwrap()]));
    assert!(err.contains("(did you mean `mean_norm`?)"), "{err}");
    // Wrong types name the key and say the type in words.
    for (from, to, expected) in [
        (
            "mean_norm = 1.5",
            "mean_norm = \"one\"",
            ":11: datasets[0].mean_norm: expected a number, got the string \"one\"",
        ),
        ("splits = 4", "splits = [4]", ":5: splits: expected a whole number, got a list"),
        (
            "grid = 4",
            "grid = \"four\"",
            "methods[1].grid: expected a whole number, got the string \"four\"",
        ),
    ] {
        std::fs::write(&cfg, CONFIG.replacen(from, to, 1)).unwrap();
        let (_, err) = text(&sslab(&["validate", cfg.to_str().unwrap()]));
        assert!(err.contains(expected), "{to}: {err}");
    }
    std::fs::write(&cfg, CONFIG).unwrap();
    let o = sslab(&["shares", cfg.to_str().unwrap(), "--method", "LS-SVN", "--splits", "1"]);
    assert!(text(&o).1.contains("no method `LS-SVN` in"), "{}", text(&o).1);
    assert!(
        text(&o).1.contains("(did you mean `LS-SVM`?) (have: LS-SVM, QLDS(th))"),
        "{}",
        text(&o).1
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
