//! The runner with the graph family's shared kernels: rows equal direct computations.

use crate::config::parse;
use crate::data::{DataSource, error_rate};
use crate::engine::argmax_rows;
use crate::methods::graph::{GraphMethod, Prepared};
use crate::protocol::{RunOptions, run, split_problem};

/// The graph method of a config method.
fn graph(m: &crate::config::MethodSpec) -> &GraphMethod {
    m.method.as_any().downcast_ref().expect("a graph method")
}

/// Runs a config on a 3-class file (labels 1, 2, 3 in three clusters, 12 rows each).
fn run_on_clusters(tag: &str, classes: &str, methods: &str) -> (crate::config::Experiment, Vec<crate::protocol::ResultRow>) {
    let dir = std::env::temp_dir().join(format!("sslab-graph-cache-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data: String = (0..36).map(|i| format!("{} 1:{} 2:{}\n", i % 3 + 1, (i % 3) as f64 * 3.0 + (i as f64 * 0.37).sin(), (i as f64 * 0.71).cos())).collect();
    std::fs::write(dir.join("d.svm"), data).unwrap();
    let src = format!(
        "[experiment]\nname = \"g\"\nseed = 3\nsplits = 2\n\n[[datasets]]\nname = \"d\"\nkind = \"svmlight\"\npath = \"{}\"\n{classes}\nlabeled_per_class = 2\nunlabeled = \"rest\"\n\n{methods}",
        dir.join("d.svm").display()
    );
    let exp = parse(&src, &dir.join("c.toml")).unwrap();
    let rows = run(&exp, &RunOptions::default(), &dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    (exp, rows)
}

const METHODS: &str = "[[methods]]\nkind = \"lap_rls\"\nk = 4\n\n[[methods]]\nkind = \"cheeger_rls\"\nk = 4\niterations = 3\n";

#[test]
fn shared_kernels_give_the_per_split_results_binary() {
    let (exp, rows) = run_on_clusters("bin", "classes = [1, 3]", METHODS);
    assert_eq!(rows.len(), 4);
    for r in &rows {
        let m = exp.methods.iter().find(|m| m.name == r.method).unwrap();
        let g = graph(m);
        let p = split_problem(&exp.datasets[0], exp.seed, r.split).unwrap();
        let direct = error_rate(g.fit(&p).unwrap().unlabeled_scores().view(), p.y_u.view());
        assert_eq!((r.status.as_str(), r.n_labeled, r.n_unlabeled), ("ok", 4, 20));
        assert!((r.error - direct).abs() < 1e-12, "{}: {} vs {direct}", r.method, r.error);
        assert!(r.params.contains("k=4"), "{}", r.params);
    }
}

#[test]
fn multiclass_rows_score_the_argmax() {
    let (exp, rows) = run_on_clusters("multi", "", METHODS);
    let DataSource::Loaded(data) = &exp.datasets[0].source else { panic!("not loaded") };
    for r in &rows {
        let m = exp.methods.iter().find(|m| m.name == r.method).unwrap();
        let g = graph(m);
        // Independent route: this split's rows stacked labeled first, kernel and graph
        // built from them directly (no shared base, no permutation).
        let p = split_problem(&exp.datasets[0], exp.seed, r.split).unwrap();
        let x = ndarray::concatenate(ndarray::Axis(0), &[p.x_l.to_dense().view(), p.x_u.to_dense().view()]).unwrap();
        let classes: Vec<usize> = (0..x.nrows())
            .map(|i| (0..data.dataset.len()).find(|&j| data.dataset.x.to_dense().row(j) == x.row(i)).map(|j| data.dataset.classes[j]).unwrap())
            .collect();
        let labels: Vec<f64> = classes[..6].iter().map(|&c| c as f64).collect();
        let prep = Prepared::from_rows(x.view(), labels, &g.params().kernel, Some(&g.params().graph)).unwrap();
        let s = g.fit_multiclass(&prep, &classes[..6], 3).unwrap();
        let predicted = argmax_rows(&ndarray::Array2::from_shape_fn((s.nrows(), 3), |(i, k)| s[(i, k)]));
        let wrong = predicted[6..].iter().zip(&classes[6..]).filter(|(a, b)| a != b).count();
        assert_eq!((r.status.as_str(), r.n_labeled, r.n_unlabeled), ("ok", 6, 30), "{}", r.message);
        assert!((r.error - wrong as f64 / 30.0).abs() < 1e-12, "{}: {} vs {wrong}/30", r.method, r.error);
        assert!(r.prbep.is_nan());
    }
}
