//! Graph-family entries: every kind parses and runs, bad keys name the line.

use std::path::Path;

use crate::config::parse;
use crate::methods::graph::{Decision, GraphKind, GraphMethod};
use crate::protocol::{RunOptions, run};

const HEAD: &str = "[experiment]\nname = \"t\"\nseed = 1\nsplits = 2\n\n[[datasets]]\nname = \"g\"\nkind = \"synthetic\"\ndim = 3\nmean_norm = 4.0\nlabeled_per_class = 2\nunlabeled_per_class = 25\n";

fn err(methods: &str) -> String {
    parse(&format!("{HEAD}{methods}"), Path::new("cfg.toml")).unwrap_err().to_string()
}

#[test]
fn every_kind_parses_and_runs() {
    let methods: String = GraphKind::ALL
        .iter()
        .map(|k| format!("\n[[methods]]\nkind = \"{}\"\n", k.name()))
        .collect();
    let extra = "\n[[methods]]\nkind = \"tv_svm\"\nname = \"tuned\"\ngamma = 0.05\nmu = 2\nr1 = 0.5\nk = 5\nweighting = \"binary\"\nkernel_scale = 0.5\niterations = 3\ndecision = \"class_mass\"\ntv_project = \"fhg\"\n";
    let exp = parse(&format!("{HEAD}{methods}{extra}"), Path::new("cfg.toml")).unwrap();
    assert_eq!(exp.methods.len(), 9);
    assert_eq!(exp.methods[5].name, "TV-SVM");
    let tuned: &GraphMethod =
        exp.methods[8].method.as_any().downcast_ref().expect("a graph method");
    let p = tuned.params();
    assert_eq!((p.gamma, p.mu, p.r1, p.graph.k, p.iterations), (0.05, 2.0, 0.5, 5, 3));
    assert_eq!((p.decision, p.tv_project_all, p.tv_norm_n), (Decision::ClassMass, true, false));
    let dir = std::env::temp_dir().join(format!("sslab-graph-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rows = run(&exp, &RunOptions { threads: Some(1), ..Default::default() }, &dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(rows.len(), 18);
    let normalized = parse(
        &format!("{HEAD}\n[[methods]]\nkind = \"lap_rls\"\nlaplacian = \"symmetric\"\n"),
        Path::new("cfg.toml"),
    )
    .unwrap();
    let m: &GraphMethod =
        normalized.methods[0].method.as_any().downcast_ref().expect("a graph method");
    assert!(m.params().graph.normalized && m.params().describe().contains("laplacian=symmetric"));
    assert!(rows.iter().all(|r| r.error < 0.2), "{rows:?}");
}

#[test]
fn kernel_rank_on_the_rls_methods_only() {
    let lap = parse(
        &format!("{HEAD}\n[[methods]]\nkind = \"lap_rls\"\nkernel_rank = 12\n"),
        Path::new("cfg.toml"),
    )
    .unwrap();
    let m: &GraphMethod = lap.methods[0].method.as_any().downcast_ref().expect("a graph method");
    assert_eq!(m.params().kernel.rank, Some(12));
    assert!(m.params().describe().contains("kernel_rank=12"));
    for kind in ["svm", "lap_svm", "tv_svm", "cheeger_svm"] {
        let e = err(&format!("\n[[methods]]\nkind = \"{kind}\"\nkernel_rank = 12\n"));
        assert!(
            e.contains("cfg.toml") && e.contains("kernel_rank") && e.contains("no low-rank form"),
            "{e}"
        );
    }
    let e = err("\n[[methods]]\nkind = \"tv_rls\"\nkernel_rank = 0\n");
    assert!(e.contains("cfg.toml:16") && e.contains("kernel_rank: must be ≥ 1"), "{e}");
}

#[test]
fn bad_keys_name_the_line() {
    let e = err("\n[[methods]]\nkind = \"lap_rls\"\nr2 = 1.0\n");
    assert!(
        e.contains("cfg.toml:16") && e.contains("methods[0].r2: not a parameter of `lap_rls`"),
        "{e}"
    );
    let e = err("\n[[methods]]\nkind = \"tv_rls\"\ngamma = -1.0\n");
    assert!(e.contains("cfg.toml:16") && e.contains("methods[0].gamma"), "{e}");
    let e = err("\n[[methods]]\nkind = \"svm\"\nk = 5\n");
    assert!(
        e.contains("cfg.toml:16") && e.contains("methods[0].k: not a parameter of `svm`"),
        "{e}"
    );
    let e = err("\n[[methods]]\nkind = \"tv_svm\"\nweighting = \"heat\"\n");
    assert!(e.contains("cfg.toml:16") && e.contains("weighting"), "{e}");
    let e = err("\n[[methods]]\nkind = \"qlds\"\nalpha_l = 1\nalpha_u = 0\ngamma = 0.1\n");
    assert!(e.contains("cfg.toml:18") && e.contains("not a parameter of `qlds`"), "{e}");
    let e = err("\n[[methods]]\nkind = \"cheeger_rls\"\niterations = 0\n");
    assert!(e.contains("cfg.toml:16") && e.contains("iterations"), "{e}");
    let e = err("\n[[methods]]\nkind = \"tv_rls\"\nlambda = \"max_eig_all\"\n");
    assert!(e.contains("cfg.toml:16") && e.contains("lambda: expected a number"), "{e}");
    let e = err("\n[[methods]]\nkind = \"lap_rls\"\ndecision = \"median\"\n");
    assert!(e.contains("cfg.toml:16") && e.contains("methods[0].decision: expected"), "{e}");
    let e = err("\n[[methods]]\nkind = \"tv_svm\"\ntv_norm = \"n2\"\n");
    assert!(e.contains("cfg.toml:16") && e.contains("methods[0].tv_norm: expected"), "{e}");
    let e = err("\n[[methods]]\nkind = \"tv_rls\"\nlaplacian = \"symmetric\"\n");
    assert!(e.contains("methods[0].laplacian: not a parameter of `tv_rls`"), "{e}");
    let e = err("\n[[methods]]\nkind = \"lap_svm\"\nlaplacian = \"random_walk\"\n");
    assert!(
        e.contains("cfg.toml:16") && e.contains("methods[0].laplacian: expected \"unnormalized\""),
        "{e}"
    );
    let e = err("\n[[methods]]\nkind = \"cheeger_rls\"\ntv_project = \"fhg\"\n");
    assert!(
        e.contains("cfg.toml:16") && e.contains("tv_project: not a parameter of `cheeger_rls`"),
        "{e}"
    );
}
