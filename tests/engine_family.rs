//! A method family that lives only in this test, proving the "Adding a method" steps of the
//! README: a new family needs its own code and one registry entry, nothing else.

use std::any::Any;
use std::path::Path;

use ndarray::Array1;
use sslab::config::parse_with;
use sslab::data::kinds::KINDS;
use sslab::engine::{Checked, Entry, Family, Fitted, Method, Split};
use sslab::methods::FAMILIES;
use sslab::protocol::{RunOptions, run, split_problem};
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

    fn lambda_policy(&self) -> &'static str {
        "none"
    }

    fn fit(&self, split: &Split) -> Result<Fitted> {
        // A stand-in for a refused allocation deep inside a solver.
        assert!(self.shrink < 0.9, "cannot allocate");
        Ok(Fitted::binary(scores(split.problem, self.shrink)?, 0.0))
    }

    fn as_any(&self) -> &dyn Any {
        self
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
    }
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

fn tempdir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sslab-engine-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
