//! The runner with the graph family's shared kernels: rows equal direct computations.

use crate::config::parse;
use crate::data::error_rate;
use crate::engine::argmax_rows;
use crate::linalg::to_array2;
use crate::methods::graph::{GraphMethod, Prepared};
use crate::protocol::{RunOptions, run, split_problem};

/// The graph method of a config method.
fn graph(m: &crate::config::MethodSpec) -> &GraphMethod {
    m.method.as_any().downcast_ref().expect("a graph method")
}

/// A config on a 3-class file in a fresh folder `dir` (labels 1, 2, 3 in three clusters of 12
/// rows, centres `gap` apart on the first axis), `labeled` rows per class.
fn clusters(
    dir: &std::path::Path,
    gap: f64,
    classes: &str,
    labeled: usize,
    methods: &str,
) -> crate::config::Experiment {
    std::fs::create_dir_all(dir).unwrap();
    let data: String = (0..36)
        .map(|i| {
            format!(
                "{} 1:{} 2:{}\n",
                i % 3 + 1,
                (i % 3) as f64 * gap + (i as f64 * 0.37).sin(),
                (i as f64 * 0.71).cos()
            )
        })
        .collect();
    std::fs::write(dir.join("d.svm"), data).unwrap();
    let src = format!(
        "[experiment]\nname = \"g\"\nseed = 3\nsplits = 2\n\n[[datasets]]\nname = \"d\"\nkind = \"svmlight\"\npath = \"{}\"\n{classes}\nlabeled_per_class = {labeled}\nunlabeled = \"rest\"\n\n{methods}",
        dir.join("d.svm").display()
    );
    parse(&src, &dir.join("c.toml")).unwrap()
}

/// Runs a config on the cluster file with 2 labeled rows per class.
fn run_on_clusters(
    tag: &str,
    classes: &str,
    methods: &str,
) -> (crate::config::Experiment, Vec<crate::protocol::ResultRow>) {
    let dir = std::env::temp_dir().join(format!("sslab-graph-cache-{tag}-{}", std::process::id()));
    let exp = clusters(&dir, 3.0, classes, 2, methods);
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
    let data = exp.datasets[0].loaded().unwrap().expect("a file dataset");
    for r in &rows {
        let m = exp.methods.iter().find(|m| m.name == r.method).unwrap();
        let g = graph(m);
        // Independent route: this split's rows stacked labeled first, kernel and graph
        // built from them directly (no shared base, no permutation).
        let p = split_problem(&exp.datasets[0], exp.seed, r.split).unwrap();
        let x = ndarray::concatenate(
            ndarray::Axis(0),
            &[p.x_l.to_dense().view(), p.x_u.to_dense().view()],
        )
        .unwrap();
        let classes: Vec<usize> = (0..x.nrows())
            .map(|i| {
                (0..data.dataset.len())
                    .find(|&j| data.dataset.x.to_dense().row(j) == x.row(i))
                    .map(|j| data.dataset.classes[j])
                    .unwrap()
            })
            .collect();
        let labels: Vec<f64> = classes[..6].iter().map(|&c| c as f64).collect();
        let prep =
            Prepared::from_rows(x.view(), labels, &g.params().kernel, Some(&g.params().graph))
                .unwrap();
        let s = g.fit_multiclass(&prep, &classes[..6], 3).unwrap().scores;
        let predicted = argmax_rows(&to_array2(s.as_ref()));
        let wrong = predicted[6..].iter().zip(&classes[6..]).filter(|(a, b)| a != b).count();
        assert_eq!((r.status.as_str(), r.n_labeled, r.n_unlabeled), ("ok", 6, 30), "{}", r.message);
        assert!(
            (r.error - wrong as f64 / 30.0).abs() < 1e-12,
            "{}: {} vs {wrong}/30",
            r.method,
            r.error
        );
        assert!(r.prbep.is_nan());
    }
}

#[test]
fn kfold_tuning_on_shared_kernels_equals_folds_fitted_directly() {
    let dir = std::env::temp_dir().join(format!("sslab-graph-kfold-{}", std::process::id()));
    let tune = "tune = { gamma = [0.01, 1], seed = 4, splits = 2, criterion = \"kfold:3\" }";
    let exp = clusters(
        &dir,
        0.5,
        "classes = [1, 3]",
        3,
        &format!("[[methods]]\nkind = \"lap_rls\"\nk = 4\n{tune}\n"),
    );
    // Read before the files go (as `run` does first).
    exp.read_data().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let stores = [std::sync::Arc::new(crate::engine::Store::default())];
    let choices =
        super::tune::tune(&exp, &[0], &stores, &indicatif::ProgressBar::hidden()).unwrap();
    let t = exp.methods[0].tuning.as_ref().unwrap();
    for (point, result) in t.grid.iter().zip(&choices.0[0].points) {
        let g: &GraphMethod = point.method.as_any().downcast_ref().unwrap();
        let mut errors = Vec::new();
        for s in 0..2 {
            // Independent route: 3 labeled rows per class, fold f holds out the f-th of each
            // class; the fold's own kernel and graph from its rows (no shared base).
            let p = split_problem(&exp.datasets[0], 4, s).unwrap();
            let by_class =
                [1.0, -1.0].map(|c| (0..6).filter(|&i| p.y_l[i] == c).collect::<Vec<_>>());
            let mut wrong = 0;
            for f in 0..3 {
                let held = [by_class[0][f], by_class[1][f]];
                let kept: Vec<usize> = (0..6).filter(|i| !held.contains(i)).collect();
                let pick = |x: &crate::data::Features, rows: &[usize]| {
                    x.select_rows(rows).to_dense().into_owned()
                };
                let x_u = ndarray::concatenate(
                    ndarray::Axis(0),
                    &[pick(&p.x_l, &held).view(), p.x_u.to_dense().view()],
                )
                .unwrap();
                let y_u = held.iter().map(|&i| p.y_l[i]).chain(p.y_u.iter().copied()).collect();
                let q = crate::data::Problem::dense(
                    pick(&p.x_l, &kept),
                    kept.iter().map(|&i| p.y_l[i]).collect(),
                    x_u,
                    y_u,
                );
                let scores = g.fit(&q).unwrap().unlabeled_scores();
                wrong += (0..2)
                    .filter(|&i| (if scores[i] >= 0.0 { 1.0 } else { -1.0 }) != q.y_u[i])
                    .count();
            }
            errors.push(wrong as f64 / 6.0);
        }
        let (mean, _) = result.clone().unwrap();
        assert!(errors.iter().any(|e| *e > 0.0), "overlapping clusters give some held-out errors");
        assert!(
            (mean - (errors[0] + errors[1]) / 2.0).abs() < 1e-12,
            "{:?}: {mean} vs {errors:?}",
            point.values
        );
    }
}

#[test]
fn tuning_splits_are_persisted_beside_the_evaluation_splits() {
    let dir = std::env::temp_dir().join(format!("sslab-graph-tune-splits-{}", std::process::id()));
    let tune = "tune = { gamma = [0.01, 1], seed = 4, splits = 3 }";
    let exp = clusters(
        &dir,
        3.0,
        "classes = [1, 3]",
        2,
        &format!("[[methods]]\nkind = \"lap_rls\"\nk = 4\n{tune}\n"),
    );
    run(&exp, &RunOptions::default(), &dir).unwrap();
    let tuning = super::splits::read(&dir.join("splits/tune-seed-4/d.csv")).unwrap();
    let evaluation = super::splits::read(&dir.join("splits/d.csv")).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!((tuning.len(), evaluation.len()), (3, 2));
    for (s, split) in tuning.iter().enumerate() {
        let drawn = crate::protocol::draw(&exp.datasets[0], 4, s).unwrap();
        let mut labeled = drawn.rows.unwrap()[..drawn.problem.n_labeled()].to_vec();
        labeled.sort_unstable();
        assert_eq!(split.labeled, labeled);
    }
    assert_ne!(tuning[..2], evaluation[..]);
}
