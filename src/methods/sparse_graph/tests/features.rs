//! The graph-only methods read no features of a split of all of a dataset's rows, so the
//! runner does not copy them (`Method::reads_features`): their rows are the same run
//! alone (features withheld) as beside a method that reads the features (copied).

use crate::config::{Experiment, parse};
use crate::data::Features;
use crate::protocol::{ResultRow, RunOptions, draw, draw_for, run};

const GRAPH_METHODS: &str = "
[[methods]]
kind = \"laplace\"
k = 5
[[methods]]
kind = \"poisson\"
k = 5
[[methods]]
kind = \"label_spreading\"
k = 5
";

/// The config of `methods` on the three clusters of `dir/d.svm`, `split` its split keys.
fn config(dir: &std::path::Path, split: &str, methods: &str) -> Experiment {
    let src = format!(
        "[experiment]\nname = \"f\"\nseed = 4\nsplits = 3\n\n[[datasets]]\nname = \"d\"\nkind = \"svmlight\"\npath = \"{}\"\n{split}\n{methods}",
        dir.join("d.svm").display()
    );
    parse(&src, &dir.join("c.toml")).unwrap()
}

/// The rows of a run of `exp` in `dir/out`, the times set to zero.
fn rows(exp: &Experiment, dir: &std::path::Path) -> Vec<ResultRow> {
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let mut rows = run(exp, &RunOptions::default(), &out).unwrap();
    std::fs::remove_dir_all(&out).unwrap();
    rows.iter_mut().for_each(|r| r.fit_seconds = 0.0);
    rows
}

#[test]
fn graph_methods_on_all_rows_read_no_features_and_fit_the_same_without_them() {
    let dir = std::env::temp_dir().join(format!("sslab-graph-features-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    super::engine::three_clusters(&dir.join("d.svm"));
    let all = "labeled_per_class = 2\nunlabeled = \"rest\"";
    let alone = config(&dir, all, GRAPH_METHODS);
    let spec = &alone.datasets[0];
    let (every, some): (Vec<usize>, Vec<usize>) = ((0..36).collect(), (0..30).collect());
    for m in &alone.methods {
        assert!(!m.method.reads_features(&spec.source, &every), "{}", m.name);
        assert!(
            m.method.reads_features(&spec.source, &some),
            "{}: a graph of its own rows",
            m.name
        );
    }
    let mut asked = Vec::new();
    let drawn = draw_for(spec, alone.seed, 1, |rows| {
        asked = rows.to_vec();
        false
    })
    .unwrap();
    assert_eq!(Some(asked), drawn.rows, "the split's rows, labeled first");
    assert!(matches!(&drawn.problem.x_u, Features::Sparse(x) if x.nnz() == 0));
    let copied = draw(spec, alone.seed, 1).unwrap();
    let (x, none) = (&copied.problem.x_u, &drawn.problem.x_u);
    assert!(x != none && (x.nrows(), x.ncols()) == (none.nrows(), none.ncols()));
    let reading = format!("{GRAPH_METHODS}\n[[methods]]\nkind = \"linear_rls\"\nlambda = 0.1\n");
    let beside = config(&dir, all, &reading);
    assert!(beside.methods[3].method.reads_features(&spec.source, &every));
    let (without, with) = (rows(&alone, &dir), rows(&beside, &dir));
    let with: Vec<&ResultRow> = with.iter().filter(|r| r.kind != "linear_rls").collect();
    assert_eq!(without.len(), 9);
    for (a, b) in without.iter().zip(with) {
        assert_eq!(a.status, "ok", "{a:?}");
        assert_eq!((a.error, &a.reported, a.dim), (b.error, &b.reported, b.dim), "{}", a.method);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_problem_without_features_keeps_the_shape_and_labels() {
    let dir = std::env::temp_dir().join(format!("sslab-no-features-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    super::engine::three_clusters(&dir.join("d.svm"));
    let exp = config(&dir, "labeled_per_class = 2\nunlabeled = \"rest\"", GRAPH_METHODS);
    let data = exp.datasets[0].loaded().unwrap().unwrap();
    let (labeled, unlabeled) = ([3, 0, 7], [1, 2, 4, 5]);
    let full = data.dataset.problem(&labeled, &unlabeled);
    let none = data.dataset.problem_without_features(&labeled, &unlabeled);
    assert_eq!((none.n_labeled(), none.n_unlabeled(), none.dim()), (3, 4, 2));
    assert_eq!((none.dim(), &none.y_l, &none.classes_u), (full.dim(), &full.y_l, &full.classes_u));
    assert_eq!((&none.y_u, &none.classes_l, none.n_classes), (&full.y_u, &full.classes_l, 3));
    assert!(none.x_l.to_dense().iter().chain(none.x_u.to_dense().iter()).all(|&v| v == 0.0));
    std::fs::remove_dir_all(&dir).unwrap();
}
