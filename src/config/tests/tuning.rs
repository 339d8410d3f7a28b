//! Tuning blocks: the grid is checked point by point, bad values name their line, key and
//! position in the list; inconsistent blocks are errors.

use std::path::Path;

use crate::config::{Criterion, parse};
use crate::methods::graph::GraphMethod;

const HEAD: &str = "[experiment]\nname = \"t\"\nseed = 1\nsplits = 2\n\n[[datasets]]\nname = \"g\"\nkind = \"synthetic\"\ndim = 3\nmean_norm = 4.0\nlabeled_per_class = 4\nunlabeled_per_class = 25\n\n[[methods]]\nkind = \"tv_svm\"\nmu = 2\n";

fn err(tune: &str) -> String {
    parse(&format!("{HEAD}{tune}\n"), Path::new("cfg.toml")).unwrap_err().to_string()
}

#[test]
fn a_tune_block_becomes_a_checked_grid_in_file_order() {
    let exp = parse(&format!("{HEAD}tune = {{ gamma = [0.01, 0.1, 1], iterations = [3, 30], seed = 7, splits = 2, criterion = \"kfold:5\" }}\n"), Path::new("c")).unwrap();
    let m = &exp.methods[0];
    assert_eq!(m.name, "TV-SVM");
    let t = m.tuning.as_ref().unwrap();
    assert_eq!((t.seed, t.splits, t.criterion, t.grid.len()), (7, 2, Criterion::KFold(5), 6));
    let values: Vec<String> = t
        .grid
        .iter()
        .map(|p| p.values.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        values[..3],
        ["gamma=0.01 iterations=3", "gamma=0.01 iterations=30", "gamma=0.1 iterations=3"]
    );
    let p = t.grid[5].method.as_any().downcast_ref::<GraphMethod>().unwrap().params();
    assert_eq!((p.gamma, p.iterations, p.mu), (1.0, 30, 2.0));
    // A sub-table reads the same; the criterion defaults to the unlabeled error.
    let exp = parse(
        &format!("{HEAD}\n[methods.tune]\ngamma = [0.1]\nseed = 7\nsplits = 1\n"),
        Path::new("c"),
    )
    .unwrap();
    assert_eq!(exp.methods[0].tuning.as_ref().unwrap().criterion, Criterion::Unlabeled);
}

#[test]
fn a_bad_grid_value_names_its_line_key_and_position() {
    let msg =
        err("tune = { seed = 7, splits = 2,\n  iterations = [3, 30],\n  gamma = [0.1, -1, 3] }");
    assert!(
        msg.starts_with("cfg.toml:19: methods[0].gamma:")
            && msg.ends_with("(at methods[0].tune.gamma, grid value 2 of 3)"),
        "{msg}"
    );
    let msg = err("tune = { seed = 7, splits = 2, gamma = [0.1, \"big\"] }");
    assert!(msg.starts_with("cfg.toml:17:") && msg.contains("grid value 2 of 2"), "{msg}");
    let msg = err("tune = { seed = 7, splits = 2, sigma = [0.1] }");
    assert!(
        msg.contains("methods[0].sigma: not a parameter of `tv_svm`")
            && msg.contains("methods[0].tune.sigma"),
        "{msg}"
    );
}

#[test]
fn inconsistent_blocks_are_errors() {
    let cases = [
        (
            "tune = { mu = [1, 10], seed = 7, splits = 2 }",
            "methods[0].tune.mu: also set in the entry",
        ),
        (
            "tune = { gamma = [0.1], seed = 1, splits = 2 }",
            "methods[0].tune.seed: equals the experiment's seed",
        ),
        ("tune = { gamma = [0.1], splits = 2 }", "methods[0].tune.seed: missing"),
        ("tune = { gamma = [0.1], seed = 7 }", "methods[0].tune.splits: missing"),
        (
            "tune = { gamma = [0.1], seed = 7, splits = 0 }",
            "methods[0].tune.splits: expected an integer",
        ),
        (
            "tune = { gamma = [0.1], seed = 7, splits = 2, criterion = \"kfold:1\" }",
            "methods[0].tune.criterion: expected",
        ),
        (
            "tune = { gamma = 0.1, seed = 7, splits = 2 }",
            "methods[0].tune.gamma: expected a non-empty list",
        ),
        (
            "tune = { gamma = [], seed = 7, splits = 2 }",
            "methods[0].tune.gamma: expected a non-empty list",
        ),
        ("tune = { seed = 7, splits = 2 }", "methods[0].tune: no key to tune"),
        ("tune = [0.1]", "methods[0].tune: expected a table"),
    ];
    for (tune, expected) in cases {
        let msg = err(tune);
        assert!(msg.starts_with("cfg.toml:17:") && msg.contains(expected), "{tune}: {msg}");
    }
}
