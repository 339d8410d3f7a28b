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
    assert!(predict_multiclass_limit(&s, 0.0, 1.0, 0.99 * edge).is_err());
    assert!(predict_multiclass_limit(&s, 0.0, 1.0, 1.001 * edge).is_ok());
    assert_eq!(predict_multiclass(&s, 0.0, 1.0, -1.0).unwrap_err(), Invalid::NoFixedPoint);
    assert!(MulticlassSetting::orthogonal(100, vec![20; 3], vec![300; 2], 3.0).is_err());
    let asymmetric = Mat::from_fn(3, 3, |i, j| if i < j { 1.0 } else { 0.0 });
    assert!(MulticlassSetting::new(100, vec![1; 3], vec![1; 3], asymmetric).is_err());
}

/// The setting of the check's grid at d, counts per class (equal or not) and ‖μ_j‖ = 3.
fn grid_setting(
    classes: usize,
    balanced: bool,
    dim: usize,
    l: usize,
    u: usize,
) -> MulticlassSetting {
    let c = MulticlassCheckSetting {
        classes,
        balanced,
        dim,
        labeled_per_class: l,
        unlabeled_per_class: u,
        mean_norm: 3.0,
        alpha_l: 0.0,
        alpha_u: 0.0,
    };
    let (labeled, unlabeled) = c.counts();
    MulticlassSetting::orthogonal(dim, labeled, unlabeled, 3.0).unwrap()
}

#[test]
fn split_ratio_is_the_hand_formula_for_equal_counts() {
    // K = 3 equal counts, orthogonal means of norm r: centred G = r²(I − 11ᵀ/3) has the
    // double eigenvalue r², so ΦG has 9φ twice (coinciding), G^{1/2}u = 3u and
    // σ² = (2ψ + 4·9ψ_1)/n = 42ψ_1/n (ψ = 3ψ_1); the ratio is σ/(s − 9φ), s = λ − 3φ.
    let s = grid_setting(3, true, 200, 20, 300);
    let lambda = multiclass_lambda(&s, LambdaPolicy::default(), 1.0).unwrap();
    for (al, au) in [(0.1, 1.0), (0.5, 0.5), (1.0, 0.3)] {
        let p = predict_multiclass_limit(&s, al, au, lambda).unwrap();
        let (n, d) = (960.0, p.delta);
        let phi = 300.0 / n * au / (1.0 - au * d) - 20.0 / n * al / (1.0 + al * d);
        let psi = 300.0 / n * au * au / (1.0 - au * d).powi(2)
            + 20.0 / n * al * al / (1.0 + al * d).powi(2);
        let want = (42.0 * psi / n).sqrt() / (lambda - 3.0 * phi - 9.0 * phi);
        assert!(
            (p.split_ratio - want).abs() < 1e-9 * want,
            "({al}, {au}): {} vs {want}",
            p.split_ratio
        );
    }
}

#[test]
fn the_finite_n_rule_flags_coinciding_spikes_near_the_pole() {
    let policy = LambdaPolicy::default();
    let at = |s: &MulticlassSetting, al: f64, au: f64| {
        let lambda = multiclass_lambda(s, policy, 1.0).unwrap();
        (
            predict_multiclass_limit(s, al, au, lambda).unwrap(),
            predict_multiclass(s, al, au, lambda),
        )
    };
    // Built to violate it: equal counts (K − 1 coinciding spikes) at α_u = 1, where λ is
    // close above them; the settings of `make qlds-multiclass-theory` where the limit was
    // optimistic by 0.013–0.071 (K = 3, d = 200; K = 4, d = 100; K = 10, d = 400).
    for (k, d) in [(3, 200), (4, 100), (10, 400)] {
        let (limit, checked) = at(&grid_setting(k, true, d, 20, 300), 0.1, 1.0);
        assert!(limit.split_ratio >= SPLIT_LIMIT, "K = {k}: {}", limit.split_ratio);
        assert_eq!(checked.unwrap_err(), Invalid::SplitSpikes, "K = {k}");
    }
    // Built to satisfy it: distinct spikes (unequal counts, K = 3), or λ far above the
    // spikes (α_u = 0.3), or the same equal-count setting at 100× the points and dimension:
    // the spread shrinks as n^{-1/2} while the limit stays.
    let (limit, checked) = at(&grid_setting(3, false, 200, 20, 300), 0.1, 1.0);
    assert!(limit.split_ratio == 0.0 && checked.is_ok());
    assert!(at(&grid_setting(10, true, 400, 20, 300), 1.0, 0.3).1.is_ok());
    let (small, _) = at(&grid_setting(4, true, 100, 20, 300), 0.1, 1.0);
    let (large, checked) = at(&grid_setting(4, true, 10_000, 2_000, 30_000), 0.1, 1.0);
    assert!((large.error - small.error).abs() < 1e-6, "the limit depends on the ratios only");
    assert!((large.split_ratio / small.split_ratio - 0.1).abs() < 1e-6);
    assert!(checked.is_ok());
}
