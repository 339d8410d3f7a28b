//! The node RLS kinds through the config and the runner: a synthetic two-class dataset
//! and a three-class file, every fit a result row.

use crate::config::parse;
use crate::protocol::{ResultRow, RunOptions, run};

const METHODS: &str = "
[[methods]]
kind = \"graph_lap_rls\"
k = 5
lambda = 0.01
gamma = 1.0

[[methods]]
kind = \"graph_tv_rls\"
k = 5
gamma = 1.0

[[methods]]
kind = \"graph_cheeger_rls\"
k = 5
iterations = 10
";

/// Runs `datasets` with the three kinds in a fresh folder named by `tag`.
fn run_config(tag: &str, datasets: &str) -> Vec<ResultRow> {
    let dir = std::env::temp_dir().join(format!("sslab-node-rls-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = format!(
        "[experiment]\nname = \"n\"\nseed = 4\nsplits = 2\n\n{}\n{METHODS}",
        datasets.replace("DIR", &dir.display().to_string())
    );
    if datasets.contains("svmlight") {
        three_clusters(&dir.join("d.svm"));
    }
    let exp = parse(&src, &dir.join("c.toml")).unwrap();
    let rows = run(&exp, &RunOptions::default(), &dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    rows
}

/// Writes an SVMlight file of three clusters of 12 rows, labels 1, 2, 3, centres 5 apart
/// on the first axis.
pub(super) fn three_clusters(path: &std::path::Path) {
    let data: String = (0..36)
        .map(|i| {
            let x = (i % 3) as f64 * 5.0 + 0.3 * (i as f64 * 0.37).sin();
            let y = 0.3 * (i as f64).cos();
            format!("{} 1:{x} 2:{y}\n", i % 3 + 1)
        })
        .collect();
    std::fs::write(path, data).unwrap();
}

fn check(rows: &[ResultRow]) {
    assert_eq!(rows.len(), 6);
    for r in rows {
        assert_eq!(r.status, "ok", "{r:?}");
        assert!(r.error < 0.1, "{}: error {}", r.method, r.error);
        assert!(r.params.contains("k=5 weighting=self_tuning symmetrise=max"), "{}", r.params);
        let names: Vec<&str> = r.reported.iter().map(|(k, _)| k.as_str()).collect();
        assert!(names.contains(&"steps") && names.contains(&"graph_edges"), "{names:?}");
    }
    let tv = rows.iter().find(|r| r.kind == "graph_tv_rls").unwrap();
    assert!(tv.params.contains("gamma=1 ") && tv.method == "TV-RLS (nodes)", "{tv:?}");
    assert!(tv.reported.iter().any(|(k, _)| k == "rof_capped"));
}

#[test]
fn node_rls_kinds_run_through_the_engine_on_two_classes() {
    let data = "[[datasets]]\nname = \"g\"\nkind = \"synthetic\"\ndim = 3\nmean_norm = 4.0\nlabeled_per_class = 2\nunlabeled_per_class = 25\n";
    check(&run_config("binary", data));
}

#[test]
fn node_rls_kinds_run_through_the_engine_on_three_classes() {
    let data = "[[datasets]]\nname = \"d\"\nkind = \"svmlight\"\npath = \"DIR/d.svm\"\nlabeled_per_class = 2\nunlabeled = \"rest\"\n";
    check(&run_config("multi", data));
}
