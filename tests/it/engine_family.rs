//! A method family that lives only in this test, proving the "Adding a method" steps of
//! CONTRIBUTING.md: a new family needs its own code and one registry entry, nothing else; a
//! value its fits report under a new name becomes a results.csv column of that name.

use std::path::Path;

use ndarray::Array1;
use sslab::config::parse_with;
use sslab::data::kinds::KINDS;
use sslab::engine::{Checked, Entry, Family, Fitted, Method, Split};
use sslab::methods::FAMILIES;
use sslab::protocol::{RunOptions, read_results, run, split_problem, write_results};
use sslab::{Error, Result};

/// Nearest class mean of the labeled rows: f(x) = ‖x − m₋‖² − ‖x − m₊‖², with the means
/// shrunk towards their midpoint by `shrink` ∈ [0, 1).
struct MeansFamily;

#[derive(Debug)]
struct NearestMean {
    shrink: f64,
}

impl Family for MeansFamily {
    fn kinds(&self) -> &'static [&'static str] {
        &["nearest_mean"]
    }

    fn check(&self, entry: &Entry) -> Result<Checked> {
        entry.only(&["shrink"])?;
        let shrink = entry.f64("shrink")?.unwrap_or(0.0);
        if !(0.0..1.0).contains(&shrink) {
            return Err(entry.error("shrink", format!("must lie in [0, 1), got {shrink}")));
        }
        Ok(Checked::new(format!("NM({shrink})"), NearestMean { shrink }))
    }
}

impl Method for NearestMean {
    fn params(&self) -> String {
        format!("shrink={}", self.shrink)
    }

    fn fit(&self, split: &Split) -> Result<Fitted> {
        // A stand-in for a refused allocation deep inside a solver.
        assert!(self.shrink < 0.9, "cannot allocate");
        Ok(Fitted::binary(scores(split.problem, self.shrink)?).with("shrink", self.shrink))
    }
}

/// The scores, by an explicit loop over rows.
fn scores(p: &sslab::data::Problem, shrink: f64) -> Result<Array1<f64>> {
    let (x_l, x_u) = (p.x_l.to_dense(), p.x_u.to_dense());
    let mean = |sign: f64| -> Result<Array1<f64>> {
        let rows: Vec<usize> = (0..p.n_labeled()).filter(|&i| p.y_l[i] == sign).collect();
        if rows.is_empty() {
            return Err(Error::Data("a class has no labeled row".into()));
        }
        Ok(rows.iter().map(|&i| x_l.row(i).to_owned()).fold(Array1::zeros(p.dim()), |a, r| a + r)
            / rows.len() as f64)
    };
    let (pos, neg) = (mean(1.0)?, mean(-1.0)?);
    let mid = (&pos + &neg) / 2.0;
    let (pos, neg) = (&mid + (&pos - &mid) * (1.0 - shrink), &mid + (&neg - &mid) * (1.0 - shrink));
    Ok(x_u
        .rows()
        .into_iter()
        .map(|x| (&x - &neg).mapv(|v| v * v).sum() - (&x - &pos).mapv(|v| v * v).sum())
        .collect())
}

const CONFIG: &str = r#"
[experiment]
name = "means"
seed = 5
splits = 3

[[datasets]]
name = "g"
kind = "synthetic"
dim = 4
mean_norm = 2.0
labeled_per_class = 3
unlabeled = 40

[[methods]]
kind = "nearest_mean"
shrink = 0.5

[[methods]]
kind = "ls_svm"
"#;

fn families() -> Vec<&'static dyn Family> {
    FAMILIES.iter().copied().chain([&MeansFamily as &dyn Family]).collect()
}

#[test]
fn a_family_defined_outside_the_crate_runs_through_the_runner() {
    let exp = parse_with(CONFIG, Path::new("means.toml"), &families(), KINDS).unwrap();
    assert_eq!(exp.methods[0].name, "NM(0.5)");
    let dir = tempdir("run");
    let rows = run(&exp, &RunOptions::default(), &dir).unwrap();
    let csv = dir.join("results.csv");
    write_results(&csv, &rows).unwrap();
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.lines().next().unwrap().contains(",lambda,shrink,error,"), "{text}");
    assert_eq!(read_results(&csv).unwrap().len(), 6);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(rows.len(), 6);
    for r in rows.iter().filter(|r| r.method == "NM(0.5)") {
        let p = split_problem(&exp.datasets[0], exp.seed, r.split).unwrap();
        let direct = sslab::data::error_rate(scores(&p, 0.5).unwrap().view(), p.y_u.view());
        assert_eq!(
            (r.status.as_str(), r.kind.as_str(), r.params.as_str()),
            ("ok", "nearest_mean", "shrink=0.5")
        );
        assert!((r.error - direct).abs() < 1e-12, "{} vs {direct}", r.error);
        // It reports no λ: the parameter columns stay empty; `shrink` has its own column.
        assert_eq!((r.lambda_policy.as_str(), r.lambda, r.alpha_l), ("", None, None));
        assert_eq!(r.reported, [("shrink".to_string(), "0.5".to_string())]);
    }
    let ls_svm = rows.iter().find(|r| r.method == "LS-SVM").unwrap();
    assert!(ls_svm.reported.is_empty() && ls_svm.lambda_policy == "max_eig_all");
}

#[test]
fn its_keys_are_checked_with_file_and_line() {
    let e = parse_with(
        &CONFIG.replace("shrink = 0.5", "shrink = 1.5"),
        Path::new("means.toml"),
        &families(),
        KINDS,
    )
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("means.toml:17: methods[0].shrink: must lie in [0, 1)"), "{e}");
    let e = parse_with(
        &CONFIG.replace("shrink = 0.5", "k = 3"),
        Path::new("means.toml"),
        &families(),
        KINDS,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("methods[0].k: not a parameter of `nearest_mean`"), "{e}");
    let e = sslab::config::parse(CONFIG, Path::new("means.toml")).unwrap_err().to_string();
    assert!(e.contains("unknown kind `nearest_mean`"), "{e}");
}

#[test]
fn a_panicking_fit_becomes_a_failed_row_and_the_run_goes_on() {
    let src = format!("{CONFIG}\n[[methods]]\nkind = \"nearest_mean\"\nshrink = 0.95\n");
    let exp = parse_with(&src, Path::new("means.toml"), &families(), KINDS).unwrap();
    let dir = tempdir("panic");
    let rows = run(&exp, &RunOptions::default(), &dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(rows.len(), 9);
    for r in &rows {
        match r.method.as_str() {
            "NM(0.95)" => assert!(
                r.status == "failed" && r.message.contains("the fit panicked: cannot allocate"),
                "{r:?}"
            ),
            _ => assert_eq!(r.status, "ok", "{r:?}"),
        }
    }
}

#[test]
fn a_reported_value_is_a_column_that_table_and_plot_curve_take() {
    let src = CONFIG.replace("shrink = 0.5", "shrink = { sweep = [0.1, 0.5] }");
    let exp = parse_with(&src, Path::new("means.toml"), &families(), KINDS).unwrap();
    let dir = tempdir("columns");
    let rows = run(&exp, &RunOptions::default(), &dir).unwrap();
    let csv = dir.join("results.csv");
    write_results(&csv, &rows).unwrap();
    // The swept key shares the reported name: the plain name is the reported value.
    let header = std::fs::read_to_string(&csv).unwrap().lines().next().unwrap().to_string();
    assert!(header.contains(",lambda,shrink,error,") && header.ends_with(",swept.shrink"));
    let sslab = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_sslab")).args(args).output().unwrap()
    };
    let (file, out) = (csv.to_str().unwrap(), dir.to_str().unwrap());
    let o = sslab(&["table", file, "--value", "shrink", "--name", "t", "--out", out]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let table = std::fs::read_to_string(dir.join("t.csv")).unwrap();
    let means: Vec<f64> =
        table.lines().skip(1).map(|l| l.split(',').nth(2).unwrap().parse().unwrap()).collect();
    assert_eq!(means, [0.1, 0.5], "{table}");
    let png = dir.join("c.png");
    let o = sslab(&[
        "plot-curve",
        file,
        "--x",
        "shrink",
        "--value",
        "shrink",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert!(o.status.success() && png.exists(), "{}", String::from_utf8_lossy(&o.stderr));
    let png = png.to_str().unwrap();
    for args in [
        ["table", file, "--name", "t", "--out", out],
        ["plot-curve", file, "--x", "shrink", "--out", png],
    ] {
        let o = sslab(&[&args[..], &["--value", "kind"]].concat());
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && e.contains("`kind` holds text"), "{e}");
        assert!(e.contains("numeric columns: split, split_seed, "), "{e}");
        assert!(e.contains("fit_seconds, shrink, swept.shrink"), "{e}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn tempdir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sslab-engine-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
