//! The common-covariance theory (one class covariance C) against the general theory, the
//! isotropic edge and the scores of a fitted QLDS.

use super::*;

/// A common diagonal covariance and exact means as a [`CommonSetting`] (halves = the means).
fn common_from(
    mixture: &GaussianMixture,
    labeled: [usize; 2],
    unlabeled: [usize; 2],
) -> CommonSetting {
    let m = mixture.means.each_ref().map(|m| m.to_vec());
    CommonSetting::new(
        labeled,
        unlabeled,
        mixture.variances[0].to_vec(),
        [[m[0].clone(), m[0].clone()], [m[1].clone(), m[1].clone()]],
        m,
    )
    .unwrap()
}

#[test]
fn common_covariance_theory_equals_the_general_one() {
    let d = 120;
    let v = ndarray::Array1::from_iter((0..d).map(|i| 0.3 + 2.0 * (i % 7) as f64 / 6.0));
    let mu = ndarray::Array1::from_iter((0..d).map(|i| if i % 3 == 0 { 0.25 } else { -0.05 }));
    let mixture =
        GaussianMixture::new([mu.clone(), -&mu * 0.5], Some([v.clone(), v.clone()])).unwrap();
    let (labeled, unlabeled) = ([15, 25], [400, 300]);
    let common = common_from(&mixture, labeled, unlabeled);
    let general = general_setting(&mixture, labeled, unlabeled);
    let lambda = 1.2 * common_edge(&common, EdgeMatrix::All).unwrap();
    for (al, au) in [(1.0, 0.0), (0.3, 0.8), (5.0, 1.0)] {
        let a = predict_common(&common, al, au, lambda).unwrap();
        let b = predict_general(&general, al, au, lambda).unwrap().unwrap();
        let close = |x: f64, y: f64| (x - y).abs() <= 1e-7 * y.abs().max(1e-3);
        assert!(
            (0..2).all(|j| close(a.m[j], b.m[j]) && close(a.sigma[j], b.sigma[j]))
                && close(a.error, b.error),
            "({al},{au}): {a:?} vs {b:?}"
        );
    }
}

#[test]
fn common_edge_with_identity_covariance_is_the_isotropic_edge() {
    for norm in [0.0, 2.0] {
        let mixture = GaussianMixture::symmetric(100, norm).unwrap();
        let (labeled, unlabeled) = ([50, 50], [200, 300]);
        let common = common_from(&mixture, labeled, unlabeled);
        let iso = Setting::from_mixture(&mixture, labeled, unlabeled).unwrap();
        for matrix in [EdgeMatrix::All, EdgeMatrix::Unlabeled] {
            let (a, b) =
                (common_edge(&common, matrix).unwrap(), spectrum_edge(&iso, matrix).unwrap());
            assert!((a / b - 1.0).abs() < 1e-6, "‖μ‖ = {norm}, {matrix:?}: {a} vs {b}");
        }
    }
}

#[test]
fn true_label_estimate_fits_the_scores_of_a_common_covariance_mixture() {
    // Classes N(±μ, diag(v)) with unequal feature variances, estimated from the rows and
    // their labels: the predicted Gaussians match the fitted QLDS scores at λ_max policy.
    let d = 150;
    let v = ndarray::Array1::from_iter((0..d).map(|i| if i % 2 == 0 { 0.4 } else { 3.0 }));
    let mu = ndarray::Array1::from_elem(d, 1.6 / (d as f64).sqrt());
    let mixture = GaussianMixture::new([mu.clone(), -mu], Some([v.clone(), v])).unwrap();
    let p = mixture.sample_problem([20, 20], [1200, 1200], &mut ChaCha8Rng::seed_from_u64(3));
    let prep = Moments::new(&p).unwrap();
    for (al, au) in [(1.0, 0.0), (0.5, 1.0)] {
        let q = QldsParams::new(al, au).check().unwrap();
        let f = q.fit_prepared(&prep).unwrap().scores(p.x_u.to_dense().view());
        let th = estimated_gaussians(
            &prep,
            &p.y_u,
            Estimator::TrueLabels,
            LambdaPolicy::default(),
            al,
            au,
        )
        .unwrap()
        .unwrap();
        for (j, (mean, sd)) in class_moments(&f, &p.y_u).into_iter().enumerate() {
            assert!(
                (th[j].0 - mean).abs() < 0.15 * sd && (th[j].1 / sd - 1.0).abs() < 0.1,
                "({al},{au}) class {j}: theory {:?}, empirical ({mean}, {sd})",
                th[j]
            );
        }
    }
}
