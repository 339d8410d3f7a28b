//! A `command` program sees the unlabeled and test rows in a random order per split: one
//! that reads no feature and scores by position only (+1 for the first half of the rows,
//! −1 for the rest) scores at chance, although the rows of every generated split are grouped
//! by class (in index order it would score 0 %). Skipped (saying why) without a Python with
//! numpy.

use std::path::Path;

use sslab::config::parse;
use sslab::protocol::{RunOptions, run};

use crate::common::{TempDir, python};

const POSITION_ONLY: &str = r#"import json, sys
import numpy as np
d = sys.argv[-1]
info = json.load(open(f"{d}/split.json"))
half = lambda n: np.where(np.arange(n) < n / 2, 1.0, -1.0)
np.save(f"{d}/scores.npy", half(info["n_unlabeled"]))
if info["n_test"]:
    np.save(f"{d}/test_scores.npy", half(info["n_test"]))
"#;

#[test]
fn a_program_scoring_by_position_only_scores_at_chance() {
    let Some(py) = python(false) else {
        return eprintln!("SKIPPED: no Python with numpy (set SSLAB_PYTHON)");
    };
    let dir = TempDir::new("row-order");
    let script = dir.0.join("position.py");
    std::fs::write(&script, POSITION_ONLY).unwrap();
    let src = format!(
        r#"
[experiment]
name = "order"
seed = 3
splits = 10

[[datasets]]
name = "g"
kind = "synthetic"
dim = 2
mean_norm = 4.0
labeled_per_class = 2
unlabeled = 400
test = {{ per_class = 200 }}

[[methods]]
kind = "command"
name = "position"
argv = ["{py}", "{}"]
"#,
        script.display()
    );
    let exp = parse(&src, Path::new("order.toml")).unwrap();
    let rows = run(&exp, &RunOptions::default(), &dir.0).unwrap();
    assert_eq!(rows.len(), 10);
    assert!(rows.iter().all(|r| r.status == "ok"), "{rows:?}");
    let mean = |f: &dyn Fn(&sslab::protocol::ResultRow) -> f64| {
        rows.iter().map(f).sum::<f64>() / rows.len() as f64
    };
    let error = mean(&|r| r.error);
    let test_error = mean(&|r| r.test_error.unwrap());
    // Chance is 50 %; the mean of 10 × 400 (4000) coin flips is within ±4 points of it with
    // probability 1 − 4e-7 (σ = 0.79 points); by position in index order it would be 0 %.
    assert!((error - 0.5).abs() < 0.04, "unlabeled error {error}");
    assert!((test_error - 0.5).abs() < 0.05, "test error {test_error}");
}
