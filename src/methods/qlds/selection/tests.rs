//! The fast eigenbasis path against direct solves and the naive path; folds; selection.

use ndarray::Array1;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::data::Sampler;
use crate::data::synthetic::GaussianMixture;
use crate::methods::qlds::{LambdaPolicy, QldsParams};

fn problem(d: usize, nl: usize, nu: usize, norm: f64, seed: u64) -> Problem {
    let g = GaussianMixture::symmetric(d, norm).unwrap();
    g.sample_problem([nl, nl], [nu, nu], &mut ChaCha8Rng::seed_from_u64(seed))
}

#[test]
fn eigenbasis_scores_equal_the_cholesky_fit() {
    // 10 labeled points: the Woodbury path in d = 12, the direct d×d path in d = 6.
    for d in [12, 6] {
        let p = problem(d, 5, 20, 1.0, 1);
        let prep = Moments::new(&p).unwrap();
        let basis = EigenBasis::new(&prep).unwrap();
        let lambda = 1.01 * prep.top_eig_all().unwrap();
        let alphas = [0.0, 0.3, 1.0];
        let fold =
            basis::Fold::new(basis.labeled.clone(), prep.y_l.to_vec(), basis.project(&prep.x_u));
        for au in [0.0, 0.6, 1.0] {
            let s = fold.scores(&basis.inverse_diagonal(lambda, au).unwrap(), &alphas).unwrap();
            for (c, &al) in alphas.iter().enumerate().filter(|(_, a)| **a > 0.0 || au > 0.0) {
                let fit =
                    QldsParams { alpha_l: al, alpha_u: au, lambda: LambdaPolicy::Fixed(lambda) }
                        .check()
                        .unwrap();
                let want = fit.fit_prepared(&prep).unwrap().scores(p.x_u.to_dense().view());
                let diff = (0..want.len()).map(|i| (s[(i, c)] - want[i]).abs()).fold(0.0, f64::max);
                assert!(
                    diff < 1e-10 * want.iter().fold(1.0, |m: f64, v| m.max(v.abs())),
                    "d={d} ({al},{au}): {diff}"
                );
            }
        }
    }
}

#[test]
fn fast_cv_and_oracle_equal_the_naive_path() {
    // d = 8: training folds of 4 points take the Woodbury path, of 10 or 12 the direct one.
    for (seed, nl, folds) in [(2, 6, 10), (3, 3, 10), (4, 8, 4)] {
        let p = problem(8, nl, 25, 1.2, seed);
        let prep = Moments::new(&p).unwrap();
        let basis = EigenBasis::new(&prep).unwrap();
        let grid = Grid::uniform(5).unwrap();
        let lambda = 1.001 * prep.top_eig_all().unwrap();
        let fast = cv_errors(&basis, &prep.y_l, &grid, lambda, folds).unwrap();
        let slow = naive::cv_errors(&prep, &grid, lambda, folds).unwrap();
        assert_eq!(fast, slow, "cv, seed {seed}");
        assert_eq!(fast.best(), slow.best());
        let fast = oracle_errors(&basis, &prep.y_l, &prep.x_u, &p.y_u, &grid, lambda).unwrap();
        let slow = naive::oracle_errors(&prep, &p.y_u, &grid, lambda).unwrap();
        assert_eq!(fast, slow, "oracle, seed {seed}");
        assert!(fast.errors[0].is_none() && fast.errors[1..].iter().all(Option::is_some));
    }
}

#[test]
fn multiclass_cv_of_two_classes_is_the_binary_cv_and_of_three_the_naive_loop() {
    let grid = Grid::uniform(5).unwrap();
    let ovr = |class: usize, column: usize| if class == column { 1.0 } else { -1.0 };
    // Two classes: columns y and −y, the argmax is the sign (ties to class 0, +1).
    let p = problem(8, 6, 25, 1.2, 2);
    let prep = Moments::new(&p).unwrap();
    let basis = EigenBasis::new(&prep).unwrap();
    let lambda = 1.001 * prep.top_eig_all().unwrap();
    let binary = cv_errors(&basis, &prep.y_l, &grid, lambda, 4).unwrap();
    let multi = multiclass_cv_errors(&basis, &p.classes_l, 2, &ovr, &grid, lambda, 4).unwrap();
    assert_eq!(binary, multi);
    let binary = oracle_errors(&basis, &prep.y_l, &prep.x_u, &p.y_u, &grid, lambda).unwrap();
    let multi = multiclass_oracle_errors(
        &basis,
        &p.classes_l,
        &prep.x_u,
        &p.classes_u,
        2,
        &ovr,
        &grid,
        lambda,
    )
    .unwrap();
    assert_eq!(binary, multi);
    // Three classes, d = 10: training folds of 6 labeled rows (Woodbury) and of 18 (direct).
    let mixture = crate::data::ClassMixture::orthogonal(10, 3, 2.0).unwrap();
    for (nl, folds, seed) in [(3, 3, 5), (9, 3, 6)] {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let p = mixture.sample_problem(&[nl; 3], &[30; 3], &mut rng).unwrap();
        let prep = Moments::new(&p).unwrap();
        let basis = EigenBasis::new(&prep).unwrap();
        let lambda = 1.001 * prep.top_eig_all().unwrap();
        let fast =
            multiclass_cv_errors(&basis, &p.classes_l, 3, &ovr, &grid, lambda, folds).unwrap();
        let slow =
            naive::one_vs_rest_cv_errors(&prep, &p.classes_l, 3, &grid, lambda, folds).unwrap();
        assert_eq!(fast, slow, "n_l {nl}");
        assert!(fast.errors[1..].iter().all(Option::is_some));
    }
}

#[test]
fn folds_are_stratified_and_shrink_for_tiny_classes() {
    let y = [1.0, 1.0, -1.0, 1.0, -1.0, -1.0, 1.0, -1.0, 1.0];
    let (k, assign) = folds::stratified(&y, 10).unwrap();
    assert_eq!(k, 4);
    for f in 0..k {
        let (_, test) = folds::split(&assign, f);
        let pos = test.iter().filter(|&&i| y[i] > 0.0).count();
        assert!(pos >= 1 && test.len() - pos >= 1, "fold {f}: {test:?}");
    }
    assert!(folds::stratified(&[1.0, -1.0, -1.0], 10).is_err());
}

#[test]
fn best_skips_missing_points_and_breaks_ties_in_grid_order() {
    let g = ErrorGrid {
        alphas_l: vec![0.0, 1.0],
        alphas_u: vec![0.0, 1.0],
        errors: vec![None, Some(0.2), Some(0.1), Some(0.1)],
    };
    assert_eq!(g.best(), Some((1.0, 0.0, 0.1)));
    assert_eq!(ErrorGrid { errors: vec![None; 4], ..g }.best(), None);
}

#[test]
fn oracle_selection_is_never_worse_than_th_or_cv_on_the_unlabeled_set() {
    let p = problem(40, 10, 200, 1.5, 5);
    let run = |policy| {
        SelectQlds::new(policy, Grid::uniform(6).unwrap(), LambdaPolicy::default())
            .unwrap()
            .run(&p)
            .unwrap()
    };
    let err = |s: &Selected| crate::data::error_rate(s.scores.view(), p.y_u.view());
    let or = run(Policy::Oracle);
    for policy in [
        Policy::Theory { scale: crate::methods::qlds::theory::Scale::LabeledWithin },
        Policy::CrossValidation { folds: 10 },
    ] {
        let s = run(policy);
        assert!(err(&or) <= err(&s), "{policy:?}: {} vs oracle {}", err(&s), err(&or));
        assert!(
            Grid::uniform(6).unwrap().alphas_l.contains(&s.alpha_l) && s.alpha_l + s.alpha_u > 0.0
        );
    }
    // Theory-tuned QLDS is within a few points of the oracle here (d = 40, ‖μ‖ = 1.5).
    let th = run(Policy::Theory { scale: crate::methods::qlds::theory::Scale::None });
    assert!(err(&th) - err(&or) < 0.05, "th {} vs oracle {}", err(&th), err(&or));
    let scores: Array1<f64> = th.scores.clone();
    assert_eq!(scores.len(), p.n_unlabeled());
}

#[test]
fn bad_selection_parameters_are_errors() {
    assert!(Grid::uniform(1).is_err() && Grid::uniform(Grid::MAX_POINTS + 1).is_err());
    assert!(
        SelectQlds::new(
            Policy::CrossValidation { folds: 1 },
            Grid::default(),
            LambdaPolicy::default()
        )
        .is_err()
    );
}

#[test]
fn the_default_grid_is_the_uniform_eleven_point_one() {
    // The committed tables were made with α ∈ {0, 0.1, …, 1} on both axes.
    let g = Grid::default();
    assert_eq!(g, Grid::uniform(Grid::DEFAULT_POINTS).unwrap());
    assert_eq!(g.alphas_l.len(), 11);
    assert!(
        g.alphas_l.iter().enumerate().all(|(i, &a)| a == i as f64 / 10.0)
            && g.alphas_u == g.alphas_l
    );
    assert_eq!(g.describe(), "grid=11");
    assert!(
        Grid::new(vec![0.0, 1.0], vec![1.0, 0.5]).is_err()
            && Grid::new(vec![0.0], vec![0.0]).is_err()
    );
}

#[test]
fn points_beyond_the_positive_definite_range_are_skipped_by_every_path() {
    // λ = (1+ε)λ_max(C_l + C_u) admits α_u up to λ/λ_max(C_u) (a little above 1): the
    // larger α_u of the grid must have no error (never selected), the others equal the
    // naive d×d path, and α_l up to 10³ works on both the Woodbury and the direct path.
    for (d, nl) in [(8, 3), (8, 8)] {
        let p = problem(d, nl, 25, 1.2, 7);
        let prep = Moments::new(&p).unwrap();
        let basis = EigenBasis::new(&prep).unwrap();
        let lambda = 1.001 * prep.top_eig_all().unwrap();
        let top_u = prep.top_eig_unlabeled().unwrap();
        let limit = lambda / top_u;
        assert!(limit > 1.0 && limit < 3.0, "limit {limit}");
        let grid =
            Grid::new(vec![0.0, 1.0, 10.0, 1000.0], vec![0.0, 1.0, 0.5 * (1.0 + limit), 3.0, 10.0])
                .unwrap();
        let fast = cv_errors(&basis, &prep.y_l, &grid, lambda, 3).unwrap();
        assert_eq!(fast, naive::cv_errors(&prep, &grid, lambda, 3).unwrap(), "cv, d {d} n_l {nl}");
        let oracle = oracle_errors(&basis, &prep.y_l, &prep.x_u, &p.y_u, &grid, lambda).unwrap();
        assert_eq!(
            oracle,
            naive::oracle_errors(&prep, &p.y_u, &grid, lambda).unwrap(),
            "oracle, d {d} n_l {nl}"
        );
        for (il, &al) in grid.alphas_l.iter().enumerate() {
            for (iu, &au) in grid.alphas_u.iter().enumerate() {
                let expected = au < limit && (al, au) != (0.0, 0.0);
                assert_eq!(oracle.at(il, iu).is_some(), expected, "({al}, {au})");
                assert_eq!(fast.at(il, iu).is_some(), expected, "({al}, {au})");
            }
        }
        for policy in [
            Policy::Oracle,
            Policy::CrossValidation { folds: 3 },
            Policy::Theory { scale: crate::methods::qlds::theory::Scale::None },
        ] {
            let s = SelectQlds::new(policy, grid.clone(), LambdaPolicy::default())
                .unwrap()
                .run(&p)
                .unwrap();
            assert!(s.alpha_u < limit && s.scores.iter().all(|v| v.is_finite()), "{policy:?}");
        }
        // A fixed λ below λ_max(C_u): every point with α_u ≥ 1 is skipped, the rest run.
        let low = 0.5 * top_u;
        let g = oracle_errors(&basis, &prep.y_l, &prep.x_u, &p.y_u, &grid, low).unwrap();
        assert!(g.at(1, 0).is_some() && g.at(1, 1).is_none());
    }
}

#[test]
fn general_theory_selects_a_point_as_good_as_the_isotropic_one_on_gaussian_data() {
    // N(±μ, I): the common-covariance estimate (C ≈ I) should choose as well as the
    // isotropic theory; both errors are compared with the oracle's on the same problem.
    let mixture = GaussianMixture::symmetric(80, 1.5).unwrap();
    let p = mixture.sample_problem([10, 10], [600, 600], &mut ChaCha8Rng::seed_from_u64(11));
    let grid = Grid::uniform(6).unwrap();
    let run = |policy| {
        let s = SelectQlds::new(policy, grid.clone(), LambdaPolicy::default()).unwrap();
        crate::data::error_rate(s.run(&p).unwrap().scores.view(), p.y_u.view())
    };
    let (general, iso, oracle) = (
        run(Policy::GeneralTheory),
        run(Policy::Theory { scale: crate::methods::qlds::theory::Scale::None }),
        run(Policy::Oracle),
    );
    assert!(general <= oracle + 0.03 && general <= iso + 0.02, "{general} {iso} {oracle}");
}

/// The theory policies select from moments without the centred unlabeled rows: the same
/// point, λ and score bits as from the full moments.
#[test]
fn theory_selection_without_the_unlabeled_copy_has_the_bits_of_the_full_moments() {
    let p = problem(30, 10, 200, 1.5, 4);
    let grid = Grid::uniform(6).unwrap();
    for policy in [Policy::Theory { scale: Scale::default() }, Policy::GeneralTheory] {
        let select = SelectQlds::new(policy, grid.clone(), LambdaPolicy::default()).unwrap();
        let full = Moments::new(&p).unwrap();
        let want = select.run_prepared(&full, &p, || unreachable!("no basis")).unwrap();
        let got = select.run(&p).unwrap();
        assert_eq!(
            (got.alpha_l, got.alpha_u, got.lambda),
            (want.alpha_l, want.alpha_u, want.lambda)
        );
        assert!(got.scores == want.scores, "{policy:?}");
    }
}
