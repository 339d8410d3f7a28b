//! Figures and tables never pool dataset entries: a sweep of `labeled_per_class` over two
//! entries (`easy-m{labeled_per_class}`, `hard-m{labeled_per_class}`) gives `plot-curve` a
//! curve per (entry, method) without a warning, `--facet dataset` a figure of its own (a
//! panel per entry), `table --rows` a row per (entry, value) and the report a chart per entry.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::TempDir;

const CONFIG: &str = r#"[experiment]
name = "two"
seed = 3
splits = 4

[[datasets]]
name = "easy-m{labeled_per_class}"
kind = "synthetic"
dim = 5
mean_norm = 4.0
labeled_per_class = { sweep = [2, 6] }
unlabeled_per_class = 40

[[datasets]]
name = "hard-m{labeled_per_class}"
kind = "synthetic"
dim = 5
mean_norm = 0.5
labeled_per_class = { sweep = [2, 6] }
unlabeled_per_class = 40

[[methods]]
kind = "ls_svm"
"#;

fn sslab(dir: &Path, args: &[&str]) -> Output {
    let o = Command::new(env!("CARGO_BIN_EXE_sslab")).args(args).current_dir(dir).output().unwrap();
    assert!(o.status.success(), "sslab {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o
}

#[test]
fn two_entries_are_two_curves_two_panels_two_row_groups_and_two_charts() {
    let dir = TempDir::new("pooling");
    std::fs::write(dir.0.join("c.toml"), CONFIG).unwrap();
    sslab(&dir.0, &["run", "c.toml", "--out", "out", "--quiet"]);
    let csv = "out/two/results.csv";
    let curve = |facet: &[&str], out: &str| {
        let mut args = vec!["plot-curve", csv, "--x", "labeled_per_class", "--format", "svg"];
        args.extend(facet);
        args.extend(["--out", out]);
        let o = sslab(&dir.0, &args);
        assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(dir.0.join(out).with_extension("svg")).unwrap()
    };
    let styled = curve(&[], "styled.svg");
    let faceted = curve(&["--facet", "dataset"], "faceted.svg");
    // A legend entry per entry (the line styles); panels instead of them with --facet.
    for entry in ["easy-m{labeled_per_class}", "hard-m{labeled_per_class}"] {
        assert!(styled.contains(entry), "{entry} not in the legend");
        assert!(faceted.contains(entry), "{entry} not a panel title");
    }
    assert_ne!(styled, faceted);
    sslab(&dir.0, &["table", csv, "--name", "t", "--out", "tables", "--rows", "labeled_per_class"]);
    let table = std::fs::read_to_string(dir.0.join("tables/t.csv")).unwrap();
    let rows: Vec<&str> = table.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(rows.len(), 4, "{table}");
    for (entry, m) in [("easy", 2), ("easy", 6), ("hard", 2), ("hard", 6)] {
        let label = format!("{entry}-m{{labeled_per_class}}: labeled_per_class={m}");
        assert!(rows.contains(&label.as_str()), "{label} not in {rows:?}");
    }
    sslab(&dir.0, &["report", "out/two", "--out", "site"]);
    let page = std::fs::read_to_string(dir.0.join("site/run-two.html")).unwrap();
    for entry in ["easy-m{labeled_per_class}", "hard-m{labeled_per_class}"] {
        assert!(
            page.contains(&format!("unlabeled set in % · {entry}</text>")),
            "no chart of {entry}"
        );
    }
}
