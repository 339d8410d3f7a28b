//! Entries of the graph-only family's node RLS kinds: defaults, keys, ranges.

use std::path::Path;

use crate::config::parse;
use crate::methods::sparse_graph::{KnnWeights, SparseGraphMethod, SparseKind, Symmetrise};

const HEAD: &str = "[experiment]\nname = \"t\"\nseed = 1\nsplits = 2\n\n[[datasets]]\nname = \"g\"\nkind = \"synthetic\"\ndim = 3\nmean_norm = 4.0\nlabeled_per_class = 2\nunlabeled_per_class = 25\n";

fn err(methods: &str) -> String {
    parse(&format!("{HEAD}{methods}"), Path::new("cfg.toml")).unwrap_err().to_string()
}

#[test]
fn node_rls_kinds_take_the_graph_family_defaults_and_their_keys() {
    let methods = "\n[[methods]]\nkind = \"graph_lap_rls\"\n\n[[methods]]\nkind = \"graph_tv_rls\"\neta = 2\nlambda = 0.5\ngamma = 0.3\ntol = 1e-6\nrof_iterations = 50\n\n[[methods]]\nkind = \"graph_cheeger_rls\"\nc = 0.5\niterations = 4\nk = 7\n";
    let exp = parse(&format!("{HEAD}{methods}"), Path::new("cfg.toml")).unwrap();
    let p = |m: usize| {
        let m: &SparseGraphMethod = exp.methods[m].method.as_any().downcast_ref().unwrap();
        *m.params()
    };
    let lap = p(0);
    assert_eq!(exp.methods[0].name, "Lap-RLS (nodes)");
    assert_eq!((lap.eta, lap.lambda, lap.gamma, lap.tol), (1.0, 0.1, 0.1, 1e-5));
    assert_eq!((lap.graph.k, lap.graph.weights), (10, KnnWeights::SelfTuning));
    assert_eq!(lap.graph.symmetrise, Symmetrise::Max);
    let tv = p(1);
    assert_eq!((tv.kind, tv.eta, tv.lambda, tv.gamma), (SparseKind::GraphTvRls, 2.0, 0.5, 0.3));
    assert_eq!((tv.tol, tv.rof_iterations), (1e-6, 50));
    assert_eq!(
        tv.describe(),
        "k=10 weighting=self_tuning symmetrise=max eta=2 lambda=0.5 gamma=0.3 tol=0.000001 \
         rof_iterations=50"
    );
    let cheeger = p(2);
    assert_eq!((cheeger.c, cheeger.max_iter, cheeger.rof_iterations), (0.5, 4, 500));
    assert_eq!((cheeger.lambda, cheeger.tol, cheeger.graph.k), (0.1, 1e-4, 7));
    assert_eq!(p(1).rof_settings().max_iter, 50);
    let default_tv =
        parse(&format!("{HEAD}\n[[methods]]\nkind = \"graph_tv_rls\"\n"), Path::new("cfg.toml"))
            .unwrap();
    let m: &SparseGraphMethod = default_tv.methods[0].method.as_any().downcast_ref().unwrap();
    assert_eq!((m.params().rof_iterations, m.params().tol, m.params().gamma), (10_000, 1e-4, 0.1));
}

#[test]
fn node_rls_keys_are_checked_with_file_and_line() {
    let cases = [
        ("graph_cheeger_rls", "eta = 1", "eta: not a parameter"),
        ("graph_tv_rls", "iterations = 3", "iterations: not a parameter"),
        ("graph_lap_rls", "rof_iterations = 3", "rof_iterations: not a parameter"),
        ("graph_tv_rls", "gamma = -1", "gamma: must be finite and ≥ 0, got -1"),
        ("graph_lap_rls", "lambda = 0", "lambda: must be finite and > 0, got 0"),
        ("graph_cheeger_rls", "c = -2", "c: must be finite and > 0, got -2"),
        ("graph_cheeger_rls", "rof_iterations = 0", "rof_iterations: must be ≥ 1"),
        ("graph_tv_rls", "symmetrise = \"none\"", "needs a symmetric graph"),
    ];
    for (kind, line, message) in cases {
        let e = err(&format!("\n[[methods]]\nkind = \"{kind}\"\n{line}\n"));
        assert!(e.starts_with("cfg.toml:") && e.contains("methods[0]."), "{e}");
        assert!(e.contains(message), "{kind} {line}: {e}");
    }
}
