//! End-to-end checks of the `sslab` binary: determinism across thread counts and config
//! errors that name the file and line.

use std::path::{Path, PathBuf};
use std::process::Command;

const CONFIG: &str = r#"
[experiment]
name = "cli-test"
seed = 11
splits = 6

[[datasets]]
name = "g"
kind = "synthetic"
dim = 20
mean_norm = 1.5
labeled_per_class = 4
unlabeled_per_class = 60

[[datasets]]
name = "h"
kind = "synthetic"
dim = 30
mean_norm = 2.0
labeled = 9
unlabeled = 101

[[methods]]
kind = "ls_svm"

[[methods]]
kind = "qlds"
alpha_l = 0.3
alpha_u = 1.0

[[methods]]
kind = "spectral"
"#;

fn sslab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sslab")).args(args).output().unwrap()
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sslab-cli-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The results CSV without the timing column (the last one).
fn results_without_timing(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().map(|l| l.rsplit_once(',').unwrap().0.to_string()).collect()
}

#[test]
fn a_fit_above_the_memory_limit_is_a_failed_row() {
    let dir = temp_dir("memory");
    let cfg = dir.join("c.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    let out = dir.join("out");
    // Dataset g (d = 20, 128 points) needs ~81 KB per QLDS-family fit, h (d = 30, 110 points) ~122 KB.
    let o = Command::new(env!("CARGO_BIN_EXE_sslab"))
        .args(["run", cfg.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"])
        .env("SSLAB_MEMORY_LIMIT", "100K")
        .output()
        .unwrap();
    // Exit code 3: the outputs are written, but some fits failed.
    assert_eq!(o.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&o.stderr).contains("fits failed"));
    let csv = std::fs::read_to_string(out.join("cli-test/results.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert!(
        rows.iter()
            .filter(|l| l.contains(",h,"))
            .all(|l| l.contains(",failed,") && l.contains("above the memory limit")),
        "{csv}"
    );
    assert!(rows.iter().filter(|l| l.contains(",g,")).all(|l| l.contains(",ok,")), "{csv}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn one_very_wide_sparse_file_fails_its_own_fits_not_the_run() {
    // An SVMlight row with index 4000000000 and no `features` key: QLDS would need a dense
    // 4·10⁹-wide matrix, SVMlin 4·10⁹-long weight vectors. Their rows become failed rows
    // naming the memory needed; the other dataset's rows are computed as usual.
    let dir = temp_dir("wide");
    let rows: String = (0..40)
        .map(|i| format!("{} 1:{}.5 2:{}\n", if i % 2 == 0 { "+1" } else { "-1" }, i % 7, i % 3))
        .collect();
    std::fs::write(dir.join("d.svm"), format!("{rows}+1 4000000000:1\n")).unwrap();
    let cfg = dir.join("c.toml");
    let config = format!(
        "[experiment]\nname = \"wide\"\nseed = 1\nsplits = 2\n\n[[datasets]]\nname = \"d\"\nkind = \"svmlight\"\npath = \"{}\"\nlabeled = 6\nunlabeled = 20\n\n[[datasets]]\nname = \"g\"\nkind = \"synthetic\"\ndim = 5\nmean_norm = 2\nlabeled = 6\nunlabeled = 20\n\n[[methods]]\nkind = \"ls_svm\"\n\n[[methods]]\nkind = \"linear_svm\"\n",
        dir.join("d.svm").display()
    );
    std::fs::write(&cfg, config).unwrap();
    let out = dir.join("out");
    let o = sslab(&["run", cfg.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"]);
    assert_eq!(o.status.code(), Some(3), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(out.join("wide/results.csv")).unwrap();
    for line in csv.lines().skip(1) {
        let want = if line.contains(",d,") { ",failed," } else { ",ok," };
        assert!(line.contains(want), "{line}");
        assert!(!line.contains(",d,") || line.contains("above the memory limit"), "{line}");
    }
    assert_eq!(csv.lines().count(), 9);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn results_are_identical_with_one_or_two_threads() {
    let dir = temp_dir("threads");
    let cfg = dir.join("c.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.join(format!("out{threads}"));
        let o = sslab(&[
            "run",
            cfg.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--threads",
            threads,
            "--quiet",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        outputs.push(results_without_timing(&out.join("cli-test/results.csv")));
    }
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[0].len(), 1 + 2 * 6 * 3);
    assert!(outputs[0][0].starts_with("experiment,config_hash,dataset,split"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_config_is_an_error_naming_file_and_line() {
    let dir = temp_dir("bad");
    let cfg = dir.join("bad.toml");
    std::fs::write(&cfg, CONFIG.replace("alpha_u = 1.0", "alpha_u = 2.0")).unwrap();
    let o = sslab(&["validate", cfg.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.toml:29:") && err.contains("alpha_u"), "{err}");
    let o = sslab(&["validate", dir.join("missing.toml").to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.toml"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resume_keeps_finished_rows_and_completes_the_rest() {
    let dir = temp_dir("resume");
    let cfg = dir.join("c.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    let out = dir.join("out");
    let run = |extra: &[&str]| {
        let mut args =
            vec!["run", cfg.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"];
        args.extend_from_slice(extra);
        let o = sslab(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run(&[]);
    let full = results_without_timing(&out.join("cli-test/results.csv"));
    // Simulate a run killed mid-way: keep 7 complete rows and half of the 8th.
    let log = out.join("cli-test/rows.log");
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut = format!("{}\n{}", lines[..7].join("\n"), &lines[7][..lines[7].len() / 2]);
    std::fs::write(&log, cut).unwrap();
    run(&["--resume"]);
    assert_eq!(results_without_timing(&out.join("cli-test/results.csv")), full);
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), full.len() - 1);
    // A duplicated log line (e.g. two runs into one folder before the lock) is dropped.
    // (The last line is dropped too, so that the resumed run has a fit to do.)
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let (first, kept) = (lines[0], lines[..lines.len() - 1].join("\n"));
    std::fs::write(&log, format!("{kept}\n{first}\n")).unwrap();
    run(&["--resume"]);
    assert_eq!(results_without_timing(&out.join("cli-test/results.csv")), full);
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), full.len() - 1);
    // A log from another config is refused.
    std::fs::write(&cfg, CONFIG.replace("seed = 11", "seed = 12")).unwrap();
    let o = sslab(&[
        "run",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--resume",
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("another config"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failing_method_is_recorded_and_the_run_goes_on() {
    let dir = temp_dir("fail");
    let cfg = dir.join("c.toml");
    // λ far below the top eigenvalue makes GB-SSL's system indefinite.
    let text = format!("{CONFIG}\n[[methods]]\nkind = \"gb_ssl\"\nlambda = 1e-9\n");
    std::fs::write(&cfg, text).unwrap();
    let out = dir.join("out");
    let o = sslab(&["run", cfg.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"]);
    assert_eq!(o.status.code(), Some(3), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("12 of 48 fits failed"));
    let csv = std::fs::read_to_string(out.join("cli-test/results.csv")).unwrap();
    let failed = csv.lines().filter(|l| l.contains(",failed,")).count();
    assert_eq!(failed, 2 * 6);
    assert!(csv.contains("not positive definite"));
    let ok = csv.lines().filter(|l| l.contains(",ok,")).count();
    assert_eq!(ok, 2 * 6 * 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn split_indices_are_persisted_and_checked_on_resume() {
    let dir = temp_dir("splits");
    let data = dir.join("tiny.svm");
    let lines: String = (0..40)
        .map(|i| {
            format!("{} 1:{} 2:{}\n", if i % 2 == 0 { "+1" } else { "-1" }, i % 7, (i * 3) % 5 + 1)
        })
        .collect();
    std::fs::write(&data, lines).unwrap();
    let cfg = dir.join("c.toml");
    let config = format!(
        "[experiment]\nname = \"s\"\nseed = 5\nsplits = 3\n\n[[datasets]]\nname = \"tiny\"\nkind = \"svmlight\"\npath = \"{}\"\nlabeled_per_class = 2\nunlabeled_per_class = 10\n\n[[methods]]\nkind = \"ls_svm\"\n",
        data.display()
    );
    std::fs::write(&cfg, config).unwrap();
    let out = dir.join("out");
    let run = |extra: &[&str]| {
        let mut args =
            vec!["run", cfg.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"];
        args.extend_from_slice(extra);
        sslab(&args)
    };
    assert!(run(&[]).status.success());
    let splits = out.join("s/splits/tiny.csv");
    let text = std::fs::read_to_string(&splits).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[1].split(',').nth(1).unwrap().split(' ').count(), 4);
    std::fs::write(out.join("s/rows.log"), "").unwrap();
    assert!(run(&["--resume"]).status.success());
    std::fs::write(out.join("s/rows.log"), "").unwrap();
    std::fs::write(&splits, text.replacen("0,", "0,39 ", 1)).unwrap();
    let o = run(&["--resume"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("splits on disk differ"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shares_reports_the_run_errors_and_shares_that_add_up() {
    // The per-split error `shares` prints equals the run's result rows; predicted shares
    // add up to 100 and the true shares are those of the split (60 + 60 unlabeled).
    let dir = temp_dir("shares");
    let cfg = dir.join("c.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    let out = dir.join("out");
    let o = sslab(&["run", cfg.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = std::fs::read_to_string(out.join("cli-test/results.csv")).unwrap();
    let o = sslab(&[
        "shares",
        cfg.to_str().unwrap(),
        "--dataset",
        "g",
        "--method",
        "LS-SVM",
        "--splits",
        "3",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("split ")).collect();
    assert_eq!(lines.len(), 3, "{text}");
    for (s, line) in lines.iter().enumerate() {
        let error: f64 =
            line.split("error ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        let row = rows
            .lines()
            .find(|r| r.contains(&format!(",g,{s},")) && r.contains(",LS-SVM,"))
            .unwrap();
        let want: f64 = row.split(',').nth(12).unwrap().parse().unwrap();
        assert!((error - 100.0 * want).abs() < 0.006, "split {s}: {error} vs {want}");
        let cells: Vec<(f64, f64)> = line
            .split("shares ")
            .nth(1)
            .unwrap()
            .split(", mean")
            .next()
            .unwrap()
            .split(' ')
            .map(|c| {
                let (p, t) = c.split_once('/').unwrap();
                (p.parse().unwrap(), t.parse().unwrap())
            })
            .collect();
        assert_eq!(cells.len(), 2);
        assert!(
            (cells[0].0 + cells[1].0 - 100.0).abs() < 0.11 && cells.iter().all(|c| c.1 == 50.0),
            "{line}"
        );
    }
    assert!(!sslab(&["shares", cfg.to_str().unwrap(), "--method", "nope"]).status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn validate_reads_no_data_file_and_run_names_its_bad_line() {
    let dir = temp_dir("unread");
    // Exists, so the config checks; not SVMlight, which only reading finds out.
    let data = dir.join("d.svm");
    std::fs::write(&data, "1 1:0.5\n-1 1:oops\n").unwrap();
    let cfg = dir.join("c.toml");
    let src = format!(
        "[experiment]\nname = \"unread\"\nseed = 1\nsplits = 2\n\n[[datasets]]\nname = \"d\"\nkind = \"svmlight\"\npath = \"{}\"\nlabeled = 1\nunlabeled = 1\n\n[[methods]]\nkind = \"ls_svm\"\n",
        data.display()
    );
    std::fs::write(&cfg, src).unwrap();
    let o = sslab(&["validate", cfg.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains(": ok ("));
    let out = dir.join("out");
    let o = sslab(&["run", cfg.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"]);
    let msg = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(msg.contains("c.toml:9: datasets[0].path: ") && msg.contains("d.svm:2:"), "{msg}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn no_help_text_cites_the_projects_own_shared_folder() {
    let top = String::from_utf8(sslab(&["--help"]).stdout).unwrap();
    let commands: Vec<&str> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(commands.len() > 20, "{top}");
    let mut help = vec![top.clone()];
    for c in commands {
        help.push(String::from_utf8(sslab(&[c, "--help"]).stdout).unwrap());
    }
    help.push(String::from_utf8(sslab(&["data", "fetch", "--help"]).stdout).unwrap());
    for text in help {
        assert!(!text.contains("../shared"), "{text}");
    }
}

#[test]
fn errors_carry_no_internal_module_prefix() {
    let dir = temp_dir("prefix");
    let cfg = dir.join("c.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    let out = dir.join("out");
    let run = || sslab(&["run", cfg.to_str().unwrap(), "--out", out.to_str().unwrap(), "-q"]);
    assert!(run().status.success());
    let err = String::from_utf8(run().stderr).unwrap();
    assert!(err.starts_with("error: ") && err.contains("holds a finished run"), "{err}");
    assert!(!err.contains("error: data:"), "{err}");
}
