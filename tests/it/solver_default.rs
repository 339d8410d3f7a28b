//! Dual CD, the default solver of `linear_svm`, `tsvm` and `da`, against SVMlin's own (MFN)
//! on the problems of the SVMlin table `configs/svmlin_synthetic.toml` (its first splits):
//! the config as committed, which pins `solver = "mfn"`, gives the committed rows exactly,
//! and without the pins (the default) each row's unlabeled error is MFN's within
//! [`TOLERANCE`].

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::common::TempDir;

/// Largest difference of a row's unlabeled error (a fraction of 5,000 documents: 10 of them).
const TOLERANCE: f64 = 0.002;
/// Splits run of the config's ten.
const SPLITS: usize = 2;

/// The rows of a results.csv, each as column → value.
fn rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines.map(|l| header.iter().cloned().zip(l.split(',').map(String::from)).collect()).collect()
}

/// Runs `config` (the text) into `dir`; its rows.
fn run(dir: &Path, config: &str) -> Vec<BTreeMap<String, String>> {
    std::fs::write(dir.join("c.toml"), config).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_sslab"))
        .arg("run")
        .arg(dir.join("c.toml"))
        .args(["-q", "--force", "-o"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    rows(&dir.join("svmlin_synthetic/results.csv"))
}

#[test]
fn the_default_solver_reaches_svmlins_errors_and_the_pinned_table_is_unchanged() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pinned = std::fs::read_to_string(root.join("configs/svmlin_synthetic.toml"))
        .unwrap()
        .replace("splits = 10", &format!("splits = {SPLITS}"));
    let pins = pinned.matches("solver = \"mfn\"\n").count();
    assert_eq!(pins, 4, "linear_svm, TSVM (S = 1 and 10000) and DA pin SVMlin's solver");
    let dir = TempDir::new("solver-default");
    let mfn = run(&dir.0, &pinned);
    let committed = rows(&root.join("results/svmlin_synthetic/results.csv"));
    let same = ["dataset", "split", "split_seed", "method", "params", "error", "prbep", "status"];
    let key = |r: &BTreeMap<String, String>| same.map(|c| r[c].clone());
    let first = committed.iter().filter(|r| r["split"].parse::<usize>().unwrap() < SPLITS);
    assert_eq!(mfn.iter().map(key).collect::<Vec<_>>(), first.map(key).collect::<Vec<_>>());

    let default = run(&dir.0, &pinned.replace("solver = \"mfn\"\n", ""));
    assert_eq!(default.len(), mfn.len());
    let mut compared = 0;
    for (d, m) in default.iter().zip(&mfn) {
        assert_eq!((&d["split"], &d["kind"]), (&m["split"], &m["kind"]));
        if d["kind"] == "linear_rls" {
            continue;
        }
        assert!(d["params"].ends_with("epsilon=0.001") || d["params"].ends_with("epsilon=0.1"));
        assert!(d["method"].contains("dual CD") && !m["method"].contains("dual CD"));
        let (e_d, e_m): (f64, f64) = (d["error"].parse().unwrap(), m["error"].parse().unwrap());
        assert!((e_d - e_m).abs() <= TOLERANCE, "{}: dual CD {e_d}, MFN {e_m}", m["method"]);
        compared += 1;
    }
    assert_eq!(compared, 4 * SPLITS);
}
