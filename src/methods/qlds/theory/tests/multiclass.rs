//! The K-class theory: K = 2 is the binary theory, and K = 3, 4 agree with simulation of
//! the data model (a fast subset of `make qlds-multiclass-theory`).

use faer::Mat;

use super::*;

/// The binary and the K = 2 setting of the same (uncentred) G and counts.
fn both(
    labeled: [usize; 2],
    unlabeled: [usize; 2],
    g: [[f64; 2]; 2],
) -> (Setting, MulticlassSetting) {
    let binary = Setting::centred(150, labeled, unlabeled, g).unwrap();
    let multi = MulticlassSetting::centred(
        150,
        labeled.to_vec(),
        unlabeled.to_vec(),
        Mat::from_fn(2, 2, |i, j| g[i][j]),
    )
    .unwrap();
    (binary, multi)
}

#[test]
fn two_classes_are_the_binary_theory() {
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1e-3);
    let gs = [[[2.25, -2.25], [-2.25, 2.25]], [[3.0, 0.5], [0.5, 1.0]]];
    for (labeled, unlabeled) in [([20, 20], [300, 300]), ([10, 30], [500, 200])] {
        for g in gs {
            let (b, m) = both(labeled, unlabeled, g);
            for policy in [LambdaPolicy::default(), LambdaPolicy::MaxEigUnlabeled { epsilon: 1e-3 }]
            {
                let lambda = theory_lambda(&b, policy, 1.0).unwrap();
                assert!(close(multiclass_lambda(&m, policy, 1.0).unwrap(), lambda));
                for (al, au) in [(1.0, 0.0), (0.5, 0.5), (0.1, 1.0), (1.0, 0.3), (0.0, 1.0)] {
                    let ctx = format!("{labeled:?} {unlabeled:?} {g:?} ({al}, {au})");
                    match (predict(&b, al, au, lambda), predict_multiclass(&m, al, au, lambda)) {
                        (Ok(p), Ok(q)) => {
                            // f_1 = f and f_2 = −f: means (m_j, −m_j), covariance σ²[[1, −1], [−1, 1]].
                            for j in 0..2 {
                                assert!(
                                    close(q.means[j][0], p.m[j]) && close(q.means[j][1], -p.m[j]),
                                    "{ctx}"
                                );
                            }
                            let s2 = p.sigma * p.sigma;
                            assert!(
                                close(q.covariance[(0, 0)], s2) && close(q.covariance[(0, 1)], -s2),
                                "{ctx}"
                            );
                            assert!(close(q.error, p.error) && close(q.delta, p.delta), "{ctx}");
                        }
                        (Err(e), Err(f)) => assert_eq!(e, f, "{ctx}"),
                        (p, q) => panic!("{ctx}: binary {p:?}, K = 2 {q:?}"),
                    }
                }
            }
        }
    }
}

#[test]
fn more_classes_match_simulation() {
    // d = 100, 20 labeled and 300 unlabeled points per class (unbalanced: up to 2×), 8 draws.
    // The tolerance is the 0.01 plus 3 standard errors of the simulated mean error
    // (its draws vary by ~0.01–0.02 at these sizes), so a theory off by more fails.
    for (classes, balanced, al, au) in
        [(3, true, 1.0, 0.0), (3, false, 0.1, 1.0), (4, true, 0.5, 0.5), (4, false, 1.0, 0.3)]
    {
        let c = MulticlassCheckSetting {
            classes,
            balanced,
            dim: 100,
            labeled_per_class: 20,
            unlabeled_per_class: 300,
            mean_norm: 3.0,
            alpha_l: al,
            alpha_u: au,
        };
        let row = &run_multiclass_check(&[c], LambdaPolicy::default(), 8, 7, false).unwrap()[0];
        let th = row.theory_error.unwrap_or_else(|| panic!("theory invalid: {row:?}"));
        let tolerance = 0.01 + 3.0 * row.empirical_error_std / 8f64.sqrt();
        assert!((th - row.empirical_error).abs() <= tolerance, "{row:?}");
        // As for K = 2, at α_u = 1 (λ 0.1% above a pole) only the scale-free error is checked.
        if au < 1.0 {
            let sd = row.theory_sd.unwrap();
            assert!((sd / row.empirical_sd - 1.0).abs() < 0.1, "spread: {row:?}");
        }
    }
}

#[test]
fn invalid_multiclass_points_are_reported() {
    let s = MulticlassSetting::orthogonal(100, vec![20; 3], vec![300; 3], 3.0).unwrap();
    let edge = multiclass_edge(&s, EdgeMatrix::Unlabeled);
    assert!(predict_multiclass(&s, 0.0, 1.0, 0.99 * edge).is_err());
    assert!(predict_multiclass(&s, 0.0, 1.0, 1.001 * edge).is_ok());
    assert_eq!(predict_multiclass(&s, 0.0, 1.0, -1.0).unwrap_err(), Invalid::NoFixedPoint);
    assert!(MulticlassSetting::orthogonal(100, vec![20; 3], vec![300; 2], 3.0).is_err());
    let asymmetric = Mat::from_fn(3, 3, |i, j| if i < j { 1.0 } else { 0.0 });
    assert!(MulticlassSetting::new(100, vec![1; 3], vec![1; 3], asymmetric).is_err());
}
