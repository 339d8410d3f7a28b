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
fn low_rank_kernel_with_every_point_a_landmark_equals_the_dense_one() {
    // m = N landmarks: Z Zᵀ = K, so the r × r (Woodbury) route of each RLS method must give
    // the scores of its dense N × N route.
    let problem = blobs(3, 25, 17);
    for kind in [GraphKind::Rls, GraphKind::LapRls, GraphKind::TvRls, GraphKind::CheegerRls] {
        let mut p = GraphParams::new(kind);
        p.kernel.scale = 0.7;
        let dense = Prepared::new(&problem, &p.kernel, Some(&p.graph)).unwrap();
        p.kernel.rank = Some(dense.n());
        let low = Prepared::new(&problem, &p.kernel, Some(&p.graph)).unwrap();
        let z = low.gram.factor().unwrap();
        assert!((z * z.transpose() - dense.gram.dense().unwrap()).norm_max() < 1e-10);
        let method = p.check().unwrap();
        let (a, b) = (
            method.fit_prepared(&dense).unwrap().scores,
            method.fit_prepared(&low).unwrap().scores,
        );
        let scale = a.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let gap = a.iter().zip(&b).fold(0.0f64, |m, (x, y)| m.max((x - y).abs()));
        assert!(gap < 1e-8 * scale, "{}: max gap {gap:e} (scale {scale})", kind.label());
        // Fewer landmarks: an approximation that still separates the blobs.
        p.kernel.rank = Some(15);
        let fitted = p.check().unwrap().fit(&problem).unwrap();
        let err = error_rate(fitted.unlabeled_scores().view(), problem.y_u.view());
        assert!(err < 0.1, "{} with 15 landmarks: error {err}", kind.label());
    }
}

#[test]
fn tv_and_cheeger_outputs_are_normalised() {
    let problem = blobs(2, 30, 5);
    for kind in [GraphKind::TvRls, GraphKind::TvSvm, GraphKind::CheegerRls, GraphKind::CheegerSvm] {
        let p = GraphParams::new(kind);
        let prep = Prepared::new(&problem, &p.kernel, Some(&p.graph)).unwrap();
        let f = p.check().unwrap().fit_prepared(&prep).unwrap().scores;
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

#[test]
fn tv_options_change_the_norm_and_keep_the_scheme_working() {
    // tv_norm = "n": ‖g‖ ≤ N (centred after the rescaling) and above √N on these blobs;
    // tv_project = "fhg" still separates them. Multi-class refuses both.
    let problem = blobs(2, 30, 5);
    for kind in [GraphKind::TvRls, GraphKind::TvSvm] {
        let mut p = GraphParams::new(kind);
        p.tv_norm_n = true;
        let prep = Prepared::new(&problem, &p.kernel, Some(&p.graph)).unwrap();
        let f = p.check().unwrap().fit_prepared(&prep).unwrap().scores;
        let (n, norm) = (f.len() as f64, f.iter().map(|v| v * v).sum::<f64>().sqrt());
        assert!(norm <= n * (1.0 + 1e-12) && norm > n.sqrt(), "{}: norm {norm}", kind.label());
        let mut p = GraphParams::new(kind);
        p.tv_project_all = true;
        let fitted = p.check().unwrap().fit(&problem).unwrap();
        assert!(
            error_rate(fitted.unlabeled_scores().view(), problem.y_u.view()) < 0.1,
            "{}",
            kind.label()
        );
        assert!(p.check().unwrap().fit_multiclass(&prep, &[0, 1], 2).is_err());
    }
}

mod multiclass {
    use ndarray::Array2;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use rand_distr::{Distribution, Normal};

    use super::super::{GraphKind, GraphParams, Prepared};
    use crate::engine::argmax_rows;
    use crate::linalg::to_array2;

    /// Four unit-variance blobs at (±3, ±3): `labeled` then `unlabeled` points per class.
    fn four_blobs(
        labeled: usize,
        unlabeled: usize,
        seed: u64,
    ) -> (Array2<f64>, Vec<usize>, Vec<usize>) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let normal = Normal::new(0.0, 1.0).expect("valid normal");
        let centre = |c: usize| {
            [if c.is_multiple_of(2) { 3.0 } else { -3.0 }, if c < 2 { 3.0 } else { -3.0 }]
        };
        let classes: Vec<usize> = (0..4 * (labeled + unlabeled)).map(|i| i % 4).collect();
        let x = Array2::from_shape_fn((classes.len(), 2), |(i, j)| {
            centre(classes[i])[j] + normal.sample(&mut rng)
        });
        let nl = 4 * labeled;
        (x, classes[..nl].to_vec(), classes[nl..].to_vec())
    }

    #[test]
    fn six_methods_classify_four_blobs_on_the_simplex() {
        let (x, labels, truth) = four_blobs(2, 30, 21);
        for kind in GraphKind::ALL.into_iter().filter(|k| k.uses_graph()) {
            let p = GraphParams::new(kind);
            let prep = Prepared::from_rows(
                x.view(),
                labels.iter().map(|&l| l as f64).collect(),
                &p.kernel,
                Some(&p.graph),
            )
            .unwrap();
            let scores = p.check().unwrap().fit_multiclass(&prep, &labels, 4).unwrap().scores;
            assert_eq!((scores.nrows(), scores.ncols()), (x.nrows(), 4));
            let predicted = argmax_rows(&to_array2(scores.as_ref()));
            let wrong =
                predicted[labels.len()..].iter().zip(&truth).filter(|(a, b)| a != b).count();
            let err = wrong as f64 / truth.len() as f64;
            assert!(err < 0.1, "{}: error {err}", kind.label());
            if matches!(kind, GraphKind::CheegerRls | GraphKind::CheegerSvm) {
                // Each class rescaled to norm √N after the simplex projection.
                for k in 0..4 {
                    let norm = (0..x.nrows()).map(|i| scores[(i, k)].powi(2)).sum::<f64>().sqrt();
                    assert!(
                        (norm - (x.nrows() as f64).sqrt()).abs() < 1e-9 * norm,
                        "{}: class {k} norm {norm}",
                        kind.label()
                    );
                }
            }
        }
    }

    #[test]
    fn rejects_supervised_kinds_and_bad_labels() {
        let (x, labels, _) = four_blobs(1, 5, 2);
        let p = GraphParams::new(GraphKind::Rls);
        let prep = Prepared::from_rows(
            x.view(),
            labels.iter().map(|&l| l as f64).collect(),
            &p.kernel,
            Some(&p.graph),
        )
        .unwrap();
        assert!(p.check().unwrap().fit_multiclass(&prep, &labels, 4).is_err());
        let tv = GraphParams::new(GraphKind::TvRls).check().unwrap();
        assert!(tv.fit_multiclass(&prep, &labels, 3).is_err());
        assert!(tv.fit_multiclass(&prep, &labels[..2], 4).is_err());
        let mut low = GraphParams::new(GraphKind::LapRls);
        low.kernel.rank = Some(10);
        let prep =
            Prepared::from_rows(x.view(), prep.y.clone(), &low.kernel, Some(&p.graph)).unwrap();
        let e = low.check().unwrap().fit_multiclass(&prep, &labels, 4).unwrap_err();
        assert!(e.to_string().contains("kernel_rank"), "{e}");
    }
}
