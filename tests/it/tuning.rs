//! Tuning blocks end to end: the chosen grid point is the argmin of the tuning table, whose
//! errors match an independent computation (both criteria); tuning never fits an evaluation
//! split; the gallery example runs.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use ndarray::Array1;
use sslab::Result;
use sslab::config::{Experiment, parse_with};
use sslab::data::kinds::KINDS;
use sslab::data::{Problem, error_rate};
use sslab::engine::{Checked, Entry, Family, Fitted, Method, Split};
use sslab::methods::FAMILIES;
use sslab::protocol::{ResultRow, RunOptions, run, split_problem};

/// Nearest class mean of the labeled rows times `sign` (−1: a clearly bad classifier);
/// with `log = "tag"`, every fit records the fingerprint of its rows under that tag.
struct SignedMeanFamily;

#[derive(Debug)]
struct SignedMean {
    sign: f64,
    log: Option<String>,
}

/// Fingerprints of the rows fitted, per tag, in fit order.
static FITS: Mutex<BTreeMap<String, Vec<i64>>> = Mutex::new(BTreeMap::new());

impl Family for SignedMeanFamily {
    fn kinds(&self) -> &'static [&'static str] {
        &["signed_mean"]
    }

    fn check(&self, entry: &Entry) -> Result<Checked> {
        entry.only(&["sign", "log"])?;
        let sign = entry.f64("sign")?.unwrap_or(1.0);
        if sign.abs() != 1.0 {
            return Err(entry.error("sign", format!("must be 1 or -1, got {sign}")));
        }
        Ok(Checked::new("SM", SignedMean { sign, log: entry.string("log")? }))
    }
}

impl Method for SignedMean {
    fn params(&self) -> String {
        format!("sign={}", self.sign)
    }

    fn fit(&self, split: &Split) -> Result<Fitted> {
        if let Some(tag) = &self.log {
            FITS.lock().unwrap().entry(tag.clone()).or_default().push(fingerprint(split.problem));
        }
        Ok(Fitted::binary(scores(split.problem) * self.sign))
    }
}

/// ‖x − m₋‖² − ‖x − m₊‖² for every unlabeled row, by explicit loops.
fn scores(p: &Problem) -> Array1<f64> {
    let (x_l, x_u) = (p.x_l.to_dense(), p.x_u.to_dense());
    let mean = |sign: f64| -> Array1<f64> {
        let rows: Vec<usize> = (0..p.n_labeled()).filter(|&i| p.y_l[i] == sign).collect();
        rows.iter()
            .map(|&i| x_l.row(i).to_owned())
            .fold(Array1::<f64>::zeros(p.dim()), |a, r| a + r)
            / rows.len() as f64
    };
    let (pos, neg) = (mean(1.0), mean(-1.0));
    x_u.rows()
        .into_iter()
        .map(|x| (&x - &neg).mapv(|v| v * v).sum() - (&x - &pos).mapv(|v| v * v).sum())
        .collect()
}

/// The same for every order of the same rows: the sum of all values in units of 1e-6.
fn fingerprint(p: &Problem) -> i64 {
    let (x_l, x_u) = (p.x_l.to_dense(), p.x_u.to_dense());
    x_l.iter().chain(x_u.iter()).map(|v| (v * 1e6).round() as i64).sum()
}

fn families() -> Vec<&'static dyn Family> {
    FAMILIES.iter().copied().chain([&SignedMeanFamily as &dyn Family]).collect()
}

const CONFIG: &str = r#"
[experiment]
name = "tuned"
seed = 5
splits = 4

[[datasets]]
name = "g{labeled_per_class}"
kind = "synthetic"
dim = 5
mean_norm = 1.5
labeled_per_class = { sweep = [3, 6] }
unlabeled = 60

[[methods]]
kind = "signed_mean"
name = "unl"
log = "unl"
tune = { sign = [-1, 1], seed = 7, splits = 3 }

[[methods]]
kind = "signed_mean"
name = "kf"
log = "kf"
tune = { sign = [1, -1], seed = 8, splits = 2, criterion = "kfold:3" }
"#;

/// Runs `exp` into a fresh temporary folder; returns its rows and tuning table.
fn run_in(
    exp: &Experiment,
    tag: &str,
    threads: usize,
) -> (Vec<ResultRow>, Vec<BTreeMap<String, String>>) {
    let dir = std::env::temp_dir().join(format!("sslab-tuning-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rows =
        run(exp, &RunOptions { threads: Some(threads), ..RunOptions::default() }, &dir).unwrap();
    let table = read_table(&dir.join("tuning.csv"));
    std::fs::remove_dir_all(&dir).unwrap();
    (rows, table)
}

fn read_table(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    r.deserialize().map(|x| x.unwrap()).collect()
}

/// The k-fold error of the signed mean on `p`, written out: within each class, in row order,
/// the i-th labeled row is in fold i mod K, K = min(k, smallest class).
fn kfold_by_hand(p: &Problem, k: usize, sign: f64) -> f64 {
    let classes =
        [1.0, -1.0].map(|c| (0..p.n_labeled()).filter(|&i| p.y_l[i] == c).collect::<Vec<_>>());
    let k = k.min(classes[0].len()).min(classes[1].len());
    let mut wrong = 0;
    for f in 0..k {
        let held: Vec<usize> = classes
            .iter()
            .flat_map(|rows| rows.iter().enumerate().filter(|(i, _)| i % k == f).map(|(_, &r)| r))
            .collect();
        let kept: Vec<usize> = (0..p.n_labeled()).filter(|i| !held.contains(i)).collect();
        let train = Problem::new(
            p.x_l.select_rows(&kept),
            p.y_l.select(ndarray::Axis(0), &kept),
            p.x_l.select_rows(&held),
            p.y_l.select(ndarray::Axis(0), &held),
        );
        let s = scores(&train) * sign;
        wrong += s
            .iter()
            .zip(&train.y_u)
            .filter(|(s, y)| (if **s >= 0.0 { 1.0 } else { -1.0 }) != **y)
            .count();
    }
    wrong as f64 / p.n_labeled() as f64
}

#[test]
fn the_chosen_point_is_the_argmin_of_errors_computed_independently() {
    let exp = parse_with(CONFIG, Path::new("tuned.toml"), &families(), KINDS).unwrap();
    let (rows, table) = run_in(&exp, "argmin", 2);
    assert_eq!(table.len(), 8);
    for spec in &exp.datasets {
        for (method, seed, splits, kfold) in [("unl", 7, 3, false), ("kf", 8, 2, true)] {
            let points: Vec<&BTreeMap<String, String>> = table
                .iter()
                .filter(|r| r["dataset"] == spec.name && r["method"] == method)
                .collect();
            assert_eq!(points.len(), 2);
            for p in &points {
                let sign: f64 = p["sign"].parse().unwrap();
                let direct = (0..splits)
                    .map(|s| {
                        let prob = split_problem(spec, seed, s).unwrap();
                        if kfold {
                            kfold_by_hand(&prob, 3, sign)
                        } else {
                            error_rate((scores(&prob) * sign).view(), prob.y_u.view())
                        }
                    })
                    .sum::<f64>()
                    / splits as f64;
                let error: f64 = p["error_percent"].parse::<f64>().unwrap() / 100.0;
                assert!(
                    (error - direct).abs() < 1e-12,
                    "{method} on {}: {error} vs {direct}",
                    spec.name
                );
                assert_eq!(
                    (p["criterion"].as_str(), p["splits"].parse::<usize>().unwrap()),
                    (if kfold { "kfold:3" } else { "unlabeled" }, splits)
                );
            }
            let best = points
                .iter()
                .min_by(|a, b| {
                    let e =
                        |r: &BTreeMap<String, String>| r["error_percent"].parse::<f64>().unwrap();
                    e(a).total_cmp(&e(b))
                })
                .unwrap();
            let chosen: Vec<_> = points.iter().filter(|p| p["chosen"] == "true").collect();
            assert_eq!(chosen.len(), 1);
            assert_eq!(
                (chosen[0]["sign"].as_str(), best["sign"].as_str()),
                ("1", "1"),
                "the bad point (sign −1) has the higher error"
            );
            // The evaluation fits the chosen point on the evaluation splits.
            for r in rows.iter().filter(|r| r.dataset == spec.name && r.method == method) {
                assert_eq!(r.params, "sign=1 tuned=sign:1");
                let p = split_problem(spec, exp.seed, r.split).unwrap();
                assert_eq!(r.error, error_rate(scores(&p).view(), p.y_u.view()));
            }
        }
    }
    // The table and the rows do not depend on the thread count.
    let (rows1, table1) = run_in(&exp, "argmin1", 1);
    assert_eq!(table1, table);
    assert_eq!(
        rows1.iter().map(|r| (&r.params, r.error)).collect::<Vec<_>>(),
        rows.iter().map(|r| (&r.params, r.error)).collect::<Vec<_>>()
    );
}

#[test]
fn tuning_never_fits_an_evaluation_split() {
    let src = CONFIG.replace("\"unl\"", "\"unl-audit\"").replace("\"kf\"", "\"kf-audit\"");
    let exp = parse_with(&src, Path::new("tuned.toml"), &families(), KINDS).unwrap();
    run_in(&exp, "audit", 2);
    let fits = FITS.lock().unwrap().clone();
    let prints = |seed: u64, splits: usize| -> HashSet<i64> {
        exp.datasets
            .iter()
            .flat_map(|d| {
                (0..splits).map(move |s| fingerprint(&split_problem(d, seed, s).unwrap()))
            })
            .collect()
    };
    let evaluation = prints(exp.seed, exp.splits);
    // Per method: 2 datasets × its tuning splits × 2 grid points (× K folds), then the evaluation.
    for (tag, seed, splits, fits_per_point) in [("unl-audit", 7, 3, 1), ("kf-audit", 8, 2, 3)] {
        let log = &fits[tag];
        let tuning_fits = 2 * splits * 2 * fits_per_point;
        assert_eq!(log.len(), tuning_fits + 2 * exp.splits, "{tag}");
        let tuning = prints(seed, splits);
        assert!(tuning.is_disjoint(&evaluation));
        for (i, f) in log.iter().enumerate() {
            match i < tuning_fits {
                true => assert!(
                    tuning.contains(f) && !evaluation.contains(f),
                    "{tag}: tuning fit {i} is not on a tuning split"
                ),
                false => assert!(
                    evaluation.contains(f),
                    "{tag}: evaluation fit {i} is not on an evaluation split"
                ),
            }
        }
    }
}

#[test]
fn the_gallery_example_runs_and_uses_its_chosen_points() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("configs/gallery/tuning.toml");
    let exp = sslab::config::load(&path).unwrap();
    let (rows, table) = run_in(&exp, "gallery", 2);
    assert_eq!(rows.len(), exp.datasets.len() * exp.splits * exp.methods.len());
    assert!(rows.iter().all(|r| r.is_ok()), "{rows:?}");
    for d in &exp.datasets {
        for m in &exp.methods {
            let grid = &m.tuning.as_ref().unwrap().grid;
            let points: Vec<_> =
                table.iter().filter(|r| r["dataset"] == d.name && r["method"] == m.name).collect();
            assert_eq!(points.len(), grid.len());
            let errors: Vec<f64> =
                points.iter().map(|p| p["error_percent"].parse().unwrap()).collect();
            let argmin =
                (0..errors.len()).fold(0, |b, i| if errors[i] < errors[b] { i } else { b });
            assert_eq!(points[argmin]["chosen"], "true");
            let tuned: Vec<String> =
                grid[argmin].values.iter().map(|(k, v)| format!("{k}:{v}")).collect();
            let suffix = format!("tuned={}", tuned.join(","));
            assert!(
                rows.iter()
                    .filter(|r| r.dataset == d.name && r.method == m.name)
                    .all(|r| r.params.ends_with(&suffix))
            );
        }
    }
}
