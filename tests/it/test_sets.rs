//! Held-out test sets: drawn per split for generators and files, or a fixed file; the
//! runner's `test_error` equals scoring the fitted model on the test rows separately.

use std::path::Path;

use crate::common::TempDir;
use sslab::config::parse;
use sslab::data::error_rate;
use sslab::methods::qlds::QldsParams;
use sslab::protocol::{RunOptions, draw, run};

const SYNTHETIC: &str = r#"
[experiment]
name = "held_out"
seed = 11
splits = 3

[[datasets]]
name = "g"
kind = "synthetic"
dim = 6
mean_norm = 1.5
labeled_per_class = 4
unlabeled_per_class = 30
test = { per_class = 25 }

[[methods]]
kind = "qlds"
alpha_l = 0.5
alpha_u = 0.5

[[methods]]
kind = "lap_rls"

[[methods]]
kind = "cheeger_rls"
"#;

#[test]
fn a_linear_methods_test_error_is_its_fitted_model_scored_on_the_test_rows() {
    let exp = parse(SYNTHETIC, Path::new("t.toml")).unwrap();
    let dir = TempDir::new("test-sets");
    let rows = run(&exp, &RunOptions::default(), &dir.0).unwrap();
    assert_eq!(rows.len(), 9);
    for r in rows.iter().filter(|r| r.kind == "qlds") {
        let drawn = draw(&exp.datasets[0], exp.seed, r.split).unwrap();
        let test = drawn.test.expect("a test set");
        assert_eq!(test.len(), 50);
        let fit = QldsParams::new(0.5, 0.5).check().unwrap().fit(&drawn.problem).unwrap();
        let direct = error_rate(fit.scores(test.x.to_dense().view()).view(), test.y.view());
        assert_eq!(r.test_error, Some(direct), "split {}", r.split);
        assert!(r.test_prbep.is_some_and(|p| (0.0..=1.0).contains(&p)));
        // The unlabeled error is unchanged by the test draw, which comes after the others.
        let plain = parse(&SYNTHETIC.replace("test = { per_class = 25 }", ""), Path::new("t.toml"))
            .unwrap();
        let p = draw(&plain.datasets[0], plain.seed, r.split).unwrap().problem;
        assert_eq!(p.x_u.to_dense(), drawn.problem.x_u.to_dense());
    }
    // Lap-RLS scores the test rows through its kernel expansion; Cheeger-RLS leaves no model
    // (its scores are a graph ROF solution), so it has no test columns.
    let of = |kind: &'static str| rows.iter().filter(move |r| r.kind == kind);
    assert!(of("lap_rls").all(|r| r.test_error.is_some() && r.test_prbep.is_some()));
    assert!(of("cheeger_rls").all(|r| r.test_error.is_none() && r.test_prbep.is_none()));
    assert_eq!(of("cheeger_rls").count(), of("lap_rls").count());
}

/// An svmlight file: `n` rows per class, class +1 around (2, 0), class −1 around (−2, 0).
fn svmlight(path: &Path, n: usize, offset: f64) {
    let rows: String = (0..2 * n)
        .map(|i| {
            let (label, sign) = if i % 2 == 0 { ("+1", 1.0) } else { ("-1", -1.0) };
            format!(
                "{label} 1:{} 2:{}\n",
                sign * 2.0 + offset + 0.01 * i as f64,
                (i % 7) as f64 * 0.1
            )
        })
        .collect();
    std::fs::write(path, rows).unwrap();
}

#[test]
fn file_datasets_hold_out_a_fraction_per_split_or_a_fixed_file() {
    let dir = TempDir::new("test-sets-files");
    let (train, test) = (dir.0.join("train.svm"), dir.0.join("test.svm"));
    svmlight(&train, 40, 0.0);
    svmlight(&test, 10, 0.3);
    let config = |test_key: &str| {
        format!(
            "[experiment]\nname = \"f\"\nseed = 2\nsplits = 2\n\n[[datasets]]\nname = \"d\"\nkind = \"svmlight\"\npath = \"{}\"\nlabeled_per_class = 3\nunlabeled = \"rest\"\n{test_key}\n\n[[methods]]\nkind = \"ls_svm\"\n",
            train.display()
        )
    };
    let exp = parse(&config("test = { fraction = 0.25 }"), Path::new("f.toml")).unwrap();
    let rows = run(&exp, &RunOptions::default(), &dir.0).unwrap();
    for r in &rows {
        assert_eq!((r.n_labeled, r.n_unlabeled), (6, 80 - 6 - 20));
        assert!(r.test_error.is_some());
    }
    // The persisted split lists the test rows, disjoint from the others.
    let splits = sslab::protocol::splits::read(&dir.0.join("splits/d.csv")).unwrap();
    for s in &splits {
        assert_eq!(s.test.len(), 20);
        assert!(s.test.iter().all(|t| !s.labeled.contains(t) && !s.unlabeled.contains(t)));
    }
    let fixed =
        parse(&config(&format!("test = {{ path = \"{}\" }}", test.display())), Path::new("f.toml"))
            .unwrap();
    let drawn = draw(&fixed.datasets[0], fixed.seed, 0).unwrap();
    assert_eq!((drawn.problem.n_unlabeled(), drawn.test.map(|t| t.len())), (80 - 6, Some(20)));
    let msg =
        parse(&config("test = { per_class = 3 }"), Path::new("f.toml")).unwrap_err().to_string();
    assert!(
        msg.contains("datasets[0].test: a `svmlight` dataset takes `path` or `fraction`"),
        "{msg}"
    );
    let msg =
        parse(&config("test = { fraction = 1.5 }"), Path::new("f.toml")).unwrap_err().to_string();
    assert!(msg.starts_with("f.toml:12:") && msg.contains("fraction: must be in (0, 1)"), "{msg}");
}
