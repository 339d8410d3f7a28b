//! Shared test data and end-to-end checks of the binary methods.

use ndarray::{Array1, Array2};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};

use super::prepared::Prepared;
use super::{GraphKind, GraphParams};
use crate::data::{Problem, error_rate};

/// Two Gaussian blobs in 2-D at (±2, 0), unit variance; `labeled` and `unlabeled` points
/// per class, classes alternating.
pub(super) fn blobs(labeled: usize, unlabeled: usize, seed: u64) -> Problem {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let normal = Normal::new(0.0, 1.0).expect("valid normal");
    let mut draw = |count: usize| {
        let y = Array1::from_shape_fn(2 * count, |i| if i % 2 == 0 { 1.0 } else { -1.0 });
        let x = Array2::from_shape_fn((2 * count, 2), |(i, j)| {
            normal.sample(&mut rng) + if j == 0 { 2.0 * y[i] } else { 0.0 }
        });
        (x, y)
    };
    let (x_l, y_l) = draw(labeled);
    let (x_u, y_u) = draw(unlabeled);
    Problem::dense(x_l, y_l, x_u, y_u)
}

#[test]
fn every_binary_method_separates_blobs() {
    let problem = blobs(3, 60, 11);
    for kind in GraphKind::ALL {
        let method = GraphParams::new(kind).check().unwrap();
        let fitted = method.fit(&problem).unwrap();
        let scores = fitted.unlabeled_scores();
        assert!(scores.iter().all(|s| s.is_finite()), "{}", kind.label());
        let err = error_rate(scores.view(), problem.y_u.view());
        assert!(err < 0.1, "{}: error {err}", kind.label());
    }
}

#[test]
fn tv_and_cheeger_outputs_are_normalised() {
    let problem = blobs(2, 30, 5);
    for kind in [GraphKind::TvRls, GraphKind::TvSvm, GraphKind::CheegerRls, GraphKind::CheegerSvm] {
        let p = GraphParams::new(kind);
        let prep = Prepared::new(&problem, &p.kernel, Some(&p.graph)).unwrap();
        let f = p.check().unwrap().fit_prepared(&prep).unwrap();
        let n = f.len() as f64;
        let norm = f.iter().map(|v| v * v).sum::<f64>().sqrt();
        if matches!(kind, GraphKind::TvRls | GraphKind::TvSvm) {
            // Normalised to √N, then centred (which can only shrink the norm).
            assert!(f.iter().sum::<f64>().abs() < 1e-9 * n, "{}: not centred", kind.label());
            assert!(norm <= n.sqrt() * (1.0 + 1e-12), "{}: norm {norm}", kind.label());
        } else {
            assert!((norm - n.sqrt()).abs() < 1e-9 * n, "{}: norm {norm}", kind.label());
            // Labeled entries clamped to y before the normalisation: equal magnitudes.
            assert!(f[..problem.n_labeled()].iter().all(|v| (v.abs() - f[0].abs()).abs() < 1e-12));
        }
    }
}

mod config {
    use std::path::Path;

    use crate::config::parse;
    use crate::methods::Method;
    use crate::protocol::{RunOptions, run};

    const HEAD: &str = "[experiment]\nname = \"t\"\nseed = 1\nsplits = 2\n\n[[datasets]]\nname = \"g\"\nkind = \"synthetic\"\ndim = 3\nmean_norm = 4.0\nlabeled_per_class = 2\nunlabeled_per_class = 25\n";

    fn err(methods: &str) -> String {
        parse(&format!("{HEAD}{methods}"), Path::new("cfg.toml")).unwrap_err().to_string()
    }

    #[test]
    fn every_kind_parses_and_runs() {
        let methods: String = super::GraphKind::ALL.iter().map(|k| format!("\n[[methods]]\nkind = \"{}\"\n", k.name())).collect();
        let extra = "\n[[methods]]\nkind = \"tv_svm\"\nname = \"tuned\"\ngamma = 0.05\nmu = 2\nr1 = 0.5\nk = 5\nweighting = \"binary\"\nkernel_scale = 0.5\niterations = 3\n";
        let exp = parse(&format!("{HEAD}{methods}{extra}"), Path::new("cfg.toml")).unwrap();
        assert_eq!(exp.methods.len(), 9);
        assert_eq!(exp.methods[5].name, "TV-SVM");
        let Method::Graph(tuned) = &exp.methods[8].method else { panic!("not a graph method") };
        let p = tuned.params();
        assert_eq!((p.gamma, p.mu, p.r1, p.graph.k, p.iterations), (0.05, 2.0, 0.5, 5, 3));
        let dir = std::env::temp_dir().join(format!("sslab-graph-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rows = run(&exp, &RunOptions { threads: Some(1), ..Default::default() }, &dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(rows.len(), 18);
        assert!(rows.iter().all(|r| r.error < 0.2), "{rows:?}");
    }

    #[test]
    fn bad_keys_name_the_line() {
        let e = err("\n[[methods]]\nkind = \"lap_rls\"\nr2 = 1.0\n");
        assert!(e.contains("cfg.toml:16") && e.contains("methods[0].r2: not a parameter of `lap_rls`"), "{e}");
        let e = err("\n[[methods]]\nkind = \"tv_rls\"\ngamma = -1.0\n");
        assert!(e.contains("cfg.toml:16") && e.contains("methods[0].gamma"), "{e}");
        let e = err("\n[[methods]]\nkind = \"svm\"\nk = 5\n");
        assert!(e.contains("cfg.toml:16") && e.contains("methods[0].k: not a parameter of `svm`"), "{e}");
        let e = err("\n[[methods]]\nkind = \"tv_svm\"\nweighting = \"heat\"\n");
        assert!(e.contains("cfg.toml:16") && e.contains("weighting"), "{e}");
        let e = err("\n[[methods]]\nkind = \"qlds\"\nalpha_l = 1\nalpha_u = 0\ngamma = 0.1\n");
        assert!(e.contains("cfg.toml:18") && e.contains("not a parameter of `qlds`"), "{e}");
        let e = err("\n[[methods]]\nkind = \"cheeger_rls\"\niterations = 0\n");
        assert!(e.contains("cfg.toml:16") && e.contains("iterations"), "{e}");
        let e = err("\n[[methods]]\nkind = \"tv_rls\"\nlambda = \"max_eig_all\"\n");
        assert!(e.contains("cfg.toml:16") && e.contains("lambda: expected a number"), "{e}");
    }
}

mod multiclass {
    use ndarray::Array2;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use rand_distr::{Distribution, Normal};

    use super::super::{GraphKind, GraphParams, Prepared, argmax_rows};

    /// Four unit-variance blobs at (±3, ±3): `labeled` then `unlabeled` points per class.
    fn four_blobs(labeled: usize, unlabeled: usize, seed: u64) -> (Array2<f64>, Vec<usize>, Vec<usize>) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let normal = Normal::new(0.0, 1.0).expect("valid normal");
        let centre = |c: usize| [if c % 2 == 0 { 3.0 } else { -3.0 }, if c < 2 { 3.0 } else { -3.0 }];
        let classes: Vec<usize> = (0..4 * (labeled + unlabeled)).map(|i| i % 4).collect();
        let x = Array2::from_shape_fn((classes.len(), 2), |(i, j)| centre(classes[i])[j] + normal.sample(&mut rng));
        let nl = 4 * labeled;
        (x, classes[..nl].to_vec(), classes[nl..].to_vec())
    }

    #[test]
    fn six_methods_classify_four_blobs_on_the_simplex() {
        let (x, labels, truth) = four_blobs(2, 30, 21);
        for kind in GraphKind::ALL.into_iter().filter(|k| k.uses_graph()) {
            let p = GraphParams::new(kind);
            let prep = Prepared::from_rows(x.view(), labels.iter().map(|&l| l as f64).collect(), &p.kernel, Some(&p.graph)).unwrap();
            let scores = p.check().unwrap().fit_multiclass(&prep, &labels, 4).unwrap();
            assert_eq!((scores.nrows(), scores.ncols()), (x.nrows(), 4));
            let predicted = argmax_rows(&scores);
            let wrong = predicted[labels.len()..].iter().zip(&truth).filter(|(a, b)| a != b).count();
            let err = wrong as f64 / truth.len() as f64;
            assert!(err < 0.1, "{}: error {err}", kind.label());
            if matches!(kind, GraphKind::CheegerRls | GraphKind::CheegerSvm) {
                // Each class rescaled to norm √N after the simplex projection.
                for k in 0..4 {
                    let norm = (0..x.nrows()).map(|i| scores[(i, k)].powi(2)).sum::<f64>().sqrt();
                    assert!((norm - (x.nrows() as f64).sqrt()).abs() < 1e-9 * norm, "{}: class {k} norm {norm}", kind.label());
                }
            }
        }
    }

    #[test]
    fn rejects_supervised_kinds_and_bad_labels() {
        let (x, labels, _) = four_blobs(1, 5, 2);
        let p = GraphParams::new(GraphKind::Rls);
        let prep = Prepared::from_rows(x.view(), labels.iter().map(|&l| l as f64).collect(), &p.kernel, Some(&p.graph)).unwrap();
        assert!(p.check().unwrap().fit_multiclass(&prep, &labels, 4).is_err());
        let tv = GraphParams::new(GraphKind::TvRls).check().unwrap();
        assert!(tv.fit_multiclass(&prep, &labels, 3).is_err());
        assert!(tv.fit_multiclass(&prep, &labels[..2], 4).is_err());
    }
}
