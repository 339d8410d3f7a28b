//! `kind = "command"`: a Python program (examples/methods/nearest_mean.py, numpy) gives the
//! rows the same rule computed here in Rust gives on the same splits; its `params` sweep and
//! tune; every failure mode is a `failed` row with its reason and the run goes on; a killed
//! run resumes to the same results and shards merge to them. Skipped (saying why) without a
//! Python with numpy: `$SSLAB_PYTHON`, ~/.cache/sslab-py-venv/bin/python, or python3.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use ndarray::Array2;
use sslab::config::parse;
use sslab::data::Problem;
use sslab::protocol::{RunOptions, draw, run};

use crate::common::python;

fn example(name: &str) -> String {
    format!("{}/examples/methods/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn config(py: &str, methods: &str) -> String {
    format!(
        r#"
[experiment]
name = "cmd"
seed = 11
splits = 3

[[datasets]]
name = "g"
kind = "synthetic"
dim = 5
mean_norm = 1.5
labeled_per_class = 4
unlabeled = 60
test = {{ per_class = 20 }}

[[methods]]
kind = "command"
name = "NM-py"
argv = ["{py}", "{nm}"]
shrink = {{ sweep = [0.0, 0.5] }}
{methods}"#,
        nm = example("nearest_mean.py")
    )
}

/// Nearest class mean with means shrunk towards their average, per-class scores −‖x − m_c‖².
fn nearest_mean(p: &Problem, shrink: f64, x: &Array2<f64>) -> Array2<f64> {
    let x_l = p.x_l.to_dense();
    let c = p.n_classes;
    let mut means = Array2::<f64>::zeros((c, p.dim()));
    for k in 0..c {
        let rows: Vec<usize> = (0..p.n_labeled()).filter(|&i| p.classes_l[i] == k).collect();
        for &i in &rows {
            let mut m = means.row_mut(k);
            m += &(&x_l.row(i) / rows.len() as f64);
        }
    }
    let avg = means.mean_axis(ndarray::Axis(0)).unwrap();
    let means = &avg + &((&means - &avg) * (1.0 - shrink));
    Array2::from_shape_fn((x.nrows(), c), |(i, k)| {
        -(&x.row(i) - &means.row(k)).mapv(|v| v * v).sum()
    })
}

/// Error of per-class scores (the first maximum predicts) against class ids.
fn error(s: &Array2<f64>, truth: &[usize]) -> f64 {
    let wrong = sslab::engine::argmax_rows(s).iter().zip(truth).filter(|(a, b)| a != b).count();
    wrong as f64 / truth.len() as f64
}

fn tempdir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sslab-cmdtest-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_python_nearest_mean_gives_the_rows_of_the_same_rule_in_rust() {
    let Some(py) = python(false) else {
        return eprintln!("SKIPPED: no Python with numpy (set SSLAB_PYTHON)");
    };
    let tuned = "\n[[methods]]\nkind = \"command\"\nname = \"NM-tuned\"\nargv = [\"{PY}\", \"{NM}\"]\ntune = { shrink = [0.0, 0.9], seed = 5, splits = 2 }\n"
        .replace("{PY}", &py)
        .replace("{NM}", &example("nearest_mean.py"));
    let exp = parse(&config(&py, &tuned), Path::new("cmd.toml")).unwrap();
    let names: Vec<&str> = exp.methods.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["NM-py[shrink=0.0]", "NM-py[shrink=0.5]", "NM-tuned"]);
    let dir = tempdir("rule");
    let rows = run(&exp, &RunOptions::default(), &dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(rows.len(), 9);
    for r in &rows {
        assert_eq!((r.status.as_str(), r.kind.as_str()), ("ok", "command"), "{r:?}");
        let shrink: f64 = match r.method.as_str() {
            "NM-tuned" => {
                r.params.trim_start_matches("shrink=").split(' ').next().unwrap().parse().unwrap()
            }
            m => m[13..16].parse().unwrap(),
        };
        let drawn = draw(&exp.datasets[0], exp.seed, r.split).unwrap();
        let p = &drawn.problem;
        let direct = error(&nearest_mean(p, shrink, &p.x_u.to_dense()), &p.classes_u);
        let test = drawn.test.as_ref().unwrap();
        let direct_test = error(&nearest_mean(p, shrink, &test.x.to_dense()), &test.classes);
        assert_eq!((r.error, r.test_error), (direct, Some(direct_test)), "{r:?}");
        assert!(r.prbep.is_finite() && r.fit_seconds > 0.0, "{r:?}");
    }
    let t = rows.iter().find(|r| r.method == "NM-tuned").unwrap();
    assert!(t.params.contains("tuned=shrink:"), "{}", t.params);
}

#[test]
fn each_failure_is_a_failed_row_with_its_reason_and_the_run_goes_on() {
    let Some(py) = python(false) else {
        return eprintln!("SKIPPED: no Python with numpy (set SSLAB_PYTHON)");
    };
    let dir = tempdir("fail");
    let script = dir.join("fail.py");
    std::fs::write(
        &script,
        r#"import json, sys, time
d = sys.argv[1]
info = json.load(open(f"{d}/split.json"))
mode, n = info["params"]["mode"], info["n_unlabeled"]
if mode == "threads":
    import os
    names = ["OMP", "OPENBLAS", "MKL", "VECLIB_MAXIMUM", "NUMEXPR"]
    print("threads", *[os.environ.get(f"{v}_NUM_THREADS", os.environ.get(v + "_THREADS")) for v in names], file=sys.stderr)
print(f"failing on purpose: {mode}", file=sys.stderr)
import numpy as np
if mode in ("exit", "threads"):
    sys.exit(3)
if mode == "sleep":
    time.sleep(30)
scores = {"nan": np.full(n, np.nan), "shape": np.zeros(n + 1), "classes": np.zeros((n, 3))}
if mode in scores:
    np.save(f"{d}/scores.npy", scores[mode])
if mode == "no_test":
    np.save(f"{d}/scores.npy", np.zeros(n))
"#,
    )
    .unwrap();
    let mut methods = String::new();
    for mode in ["exit", "threads", "sleep", "missing", "nan", "shape", "classes", "no_test"] {
        let timeout = if mode == "sleep" { "timeout = 3\n" } else { "" };
        methods.push_str(&format!(
            "\n[[methods]]\nkind = \"command\"\nname = \"{mode}\"\nargv = [\"{py}\", \"{}\"]\nmode = \"{mode}\"\n{timeout}",
            script.display()
        ));
    }
    let src = config(&py, &methods).replace("splits = 3", "splits = 1");
    let exp = parse(&src, Path::new("cmd.toml")).unwrap();
    let start = std::time::Instant::now();
    let rows = run(&exp, &RunOptions::default(), &dir).unwrap();
    assert!(start.elapsed() < Duration::from_secs(25), "the timeout kills the sleeper");
    std::fs::remove_dir_all(&dir).unwrap();
    let reason = |m: &str| match m {
        "exit" | "threads" => "exited with status 3",
        "sleep" => "timed out after 3 s",
        "missing" => "the program wrote no scores.npy",
        "nan" => "scores.npy: row 0 holds NaN (NaN or infinite)",
        "shape" => "scores.npy has shape (61,), expected (60,), (60, 1) or (60, 2)",
        "classes" => "scores.npy has shape (60, 3), expected (60,), (60, 1) or (60, 2)",
        _ => "the program wrote no test_scores.npy",
    };
    assert_eq!(rows.len(), 10);
    for r in &rows {
        if r.method.starts_with("NM-py") {
            assert_eq!(r.status, "ok", "{r:?}");
            continue;
        }
        assert_eq!(r.status, "failed", "{r:?}");
        assert!(r.message.contains(reason(&r.method)), "{}: {}", r.method, r.message);
        assert!(r.message.contains("fail.py"), "names the command: {}", r.message);
        if r.method == "threads"
            && ["OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"]
                .iter()
                .all(|v| std::env::var_os(v).is_none())
        {
            // Each numeric library's pool is set to one thread (the run's tasks fill the cores).
            assert!(r.message.contains("stderr: threads 1 1 1 1 1 | "), "{}", r.message);
        }
        let tail = format!("failing on purpose: {}", r.method);
        assert!(
            r.message.contains("; stderr: ") && r.message.ends_with(&tail),
            "{}: {}",
            r.method,
            r.message
        );
    }
}

#[test]
fn its_keys_are_checked_at_their_line() {
    let bad = |methods: &str| {
        parse(
            &config("/bin/true", methods).replace("splits = 3", "splits = 1"),
            Path::new("c.toml"),
        )
        .unwrap_err()
        .to_string()
    };
    let e = bad("\n[[methods]]\nkind = \"command\"\nk = 3\n");
    assert!(e.starts_with("c.toml:22: methods[2].argv: required"), "{e}");
    let e = bad("\n[[methods]]\nkind = \"command\"\nargv = [\"no-such-program-x\"]\n");
    assert!(e.contains("methods[2].argv: program `no-such-program-x` not found"), "{e}");
    let e = bad("\n[[methods]]\nkind = \"command\"\nargv = [\"true\"]\ntimeout = 0\n");
    assert!(e.starts_with("c.toml:25: methods[2].timeout: must be > 0 seconds"), "{e}");
    let e = bad("\n[[methods]]\nkind = \"command\"\nargv = [\"true\"]\ntimeout = 1e300\n");
    assert!(e.starts_with("c.toml:25: methods[2].timeout: must be > 0 seconds and at most"), "{e}");
    let e =
        bad("\n[[methods]]\nkind = \"command\"\nargv = [\"true\"]\nk = 1\nparams = { k = 2 }\n");
    assert!(e.starts_with("c.toml:26: methods[2].params: `k` is given twice"), "{e}");
    // A `params` table is the same as its keys written in the entry.
    let src = config(
        "/bin/true",
        "\n[[methods]]\nkind = \"command\"\nargv = [\"true\"]\nk = 1\nparams = { s = \"a\" }\n",
    );
    let exp = parse(&src, Path::new("c.toml")).unwrap();
    assert_eq!(exp.methods[2].method.params(), "k=1 s=a");
}

/// `sslab run` with `extra` arguments; the `results.csv` lines without `fit_seconds`.
fn sslab_run(cfg: &Path, out: &Path, extra: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_sslab"))
        .args(["run", cfg.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"])
        .args(["--threads", "1"])
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn finish(child: std::process::Child) {
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// results.csv without the timing column `fit_seconds` (no field of these rows is quoted).
fn without_timing(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let at = text.lines().next().unwrap().split(',').position(|c| c == "fit_seconds").unwrap();
    let fields = |l: &str| {
        l.split(',').enumerate().filter(|(i, _)| *i != at).map(|(_, f)| f.to_string()).collect()
    };
    text.lines().map(fields).collect()
}

/// Over 30 s: run by `make test-long`, not `make test`.
mod long {
    use super::*;

    #[test]
    #[ignore = "long (over 30 s): make test-long runs it"]
    fn a_killed_run_resumes_to_the_same_results_and_shards_merge_to_them() {
        let Some(py) = python(false) else {
            return eprintln!("SKIPPED: no Python with numpy (set SSLAB_PYTHON)");
        };
        let dir = tempdir("resume");
        let slow = dir.join("slow.py");
        let nm = example("nearest_mean.py");
        std::fs::write(&slow, format!("import time\ntime.sleep(0.2)\nexec(open({nm:?}).read())\n"))
            .unwrap();
        let methods = format!(
            "\n[[methods]]\nkind = \"command\"\nname = \"slow\"\nargv = [\"{py}\", \"{}\"]\n",
            slow.display()
        );
        let cfg = dir.join("c.toml");
        std::fs::write(&cfg, config(&py, &methods).replace("splits = 3", "splits = 6")).unwrap();
        let (whole, killed, sharded) = (dir.join("whole"), dir.join("killed"), dir.join("sharded"));
        finish(sslab_run(&cfg, &whole, &[]));
        let expected = without_timing(&whole.join("cmd/results.csv"));
        assert_eq!(expected.len(), 1 + 6 * 3);
        // Killed once two rows are logged, then resumed.
        let mut child = sslab_run(&cfg, &killed, &[]);
        let log = killed.join("cmd/rows.log");
        while std::fs::read_to_string(&log).map_or(0, |t| t.lines().count()) < 2 {
            std::thread::sleep(Duration::from_millis(5));
        }
        let killed_pid = child.id();
        child.kill().unwrap();
        child.wait().unwrap();
        let logged = std::fs::read_to_string(&log).unwrap().lines().count();
        assert!(logged < 18, "killed before the end ({logged} rows)");
        finish(sslab_run(&cfg, &killed, &["--resume"]));
        assert_eq!(without_timing(&killed.join("cmd/results.csv")), expected);
        // The killed run's split folder (its program died with it) was removed by the resume.
        let prefix = format!("sslab-command-{killed_pid}-");
        let left = std::fs::read_dir(std::env::temp_dir())
            .unwrap()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with(&prefix));
        assert!(!left, "a folder of the killed run is left in the temporary directory");
        for i in 1..=2 {
            finish(sslab_run(&cfg, &sharded, &["--shard", &format!("{i}/2")]));
        }
        let merged = Command::new(env!("CARGO_BIN_EXE_sslab"))
            .args(["merge", sharded.join("cmd").to_str().unwrap()])
            .output()
            .unwrap();
        assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
        assert_eq!(without_timing(&sharded.join("cmd/results.csv")), expected);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
