//! The gradient family against finite differences, the QLDS closed form and Adam's
//! definition.

use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::data::Problem;
use crate::data::Sampler;
use crate::data::synthetic::GaussianMixture;
use crate::linalg::to_array2;
use crate::methods::qlds::{LambdaPolicy, Moments, QldsParams};

/// A small two-class problem with `n_l` labeled and `n_u` unlabeled points per class.
fn problem(d: usize, n_l: usize, n_u: usize, seed: u64) -> Problem {
    let g = GaussianMixture::symmetric(d, 2.0).unwrap();
    g.sample_problem([n_l, n_l], [n_u, n_u], &mut ChaCha8Rng::seed_from_u64(seed))
}

/// QLDS's moments and C_u as a row-major array.
fn prepared(p: &Problem) -> (Moments, Array2<f64>) {
    let prep = Moments::new(p).unwrap();
    let c_u = to_array2(prep.c_u.as_ref());
    (prep, c_u)
}

fn data<'a>(prep: &'a Moments, c_u: &'a Array2<f64>) -> Inputs<'a> {
    Inputs {
        x_l: prep.x_l.view(),
        y_l: prep.y_l.view(),
        x_u: prep.x_u.view(),
        c_u: c_u.view(),
        scale: 1.0 / (prep.n() as f64).sqrt(),
    }
}

const LOSSES: [(Labeled, Unlabeled); 6] = [
    (Labeled::Square, Unlabeled::QuadraticMargin),
    (Labeled::Square, Unlabeled::SmoothAbsMargin),
    (Labeled::SmoothHinge, Unlabeled::QuadraticMargin),
    (Labeled::SmoothHinge, Unlabeled::SmoothAbsMargin),
    (Labeled::Logistic, Unlabeled::QuadraticMargin),
    (Labeled::Logistic, Unlabeled::SmoothAbsMargin),
];

fn cosine(a: &Array1<f64>, b: &Array1<f64>) -> f64 {
    a.dot(b) / (a.dot(a) * b.dot(b)).sqrt()
}

/// The minimiser of λ‖ω‖² + α_l Σ(y − m)² − α_u ωᵀC_uω, from QLDS's closed form (which drops
/// the factor α_l of the right-hand side).
fn closed_form(prep: &Moments, alpha_l: f64, alpha_u: f64, lambda: f64) -> Array1<f64> {
    let q = QldsParams { alpha_l, alpha_u, lambda: LambdaPolicy::Fixed(lambda) }.check().unwrap();
    q.fit_prepared(prep).unwrap().omega * alpha_l
}

#[test]
fn every_gradient_matches_central_differences() {
    let p = problem(6, 4, 30, 1);
    let (prep, c_u) = prepared(&p);
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for (labeled, unlabeled) in LOSSES {
        // ω of a scale where the margins are O(1), so every regime of each loss is met.
        let w = Array1::from_shape_fn(6, |_| rng.random_range(-3.0..3.0));
        let f = Objective {
            data: data(&prep, &c_u),
            labeled,
            unlabeled,
            alpha_l: 0.7,
            alpha_u: 0.3,
            lambda: 0.2,
        };
        let mut grad = Array1::zeros(6);
        f.value_grad(w.view(), &mut grad);
        let mut scratch = Array1::zeros(6);
        for j in 0..6 {
            let h = 1e-6;
            let (mut up, mut down) = (w.clone(), w.clone());
            up[j] += h;
            down[j] -= h;
            let fd = (f.value_grad(up.view(), &mut scratch)
                - f.value_grad(down.view(), &mut scratch))
                / (2.0 * h);
            assert!(
                (fd - grad[j]).abs() <= 1e-6 * (1.0 + fd.abs()),
                "{labeled:?}+{unlabeled:?} ∂{j}: {} vs {fd}",
                grad[j]
            );
        }
    }
}

#[test]
fn the_losses_take_their_defining_values() {
    assert_eq!(Labeled::Square.eval(1.0, 0.25), (0.5625, -1.5));
    let (v, d) = Labeled::SmoothHinge.eval(-1.0, 0.5);
    assert!(
        (v - (1.0 + (HINGE_GAMMA * 1.5).exp()).ln() / HINGE_GAMMA).abs() < 1e-12
            && (d - 1.0).abs() < 1e-9
    );
    let (v, d) = Labeled::Logistic.eval(1.0, 0.0);
    assert!((v - 2f64.ln()).abs() < 1e-15 && (d + 0.5).abs() < 1e-15);
    assert!(
        Labeled::Logistic.eval(1.0, 800.0).0.is_finite()
            && Labeled::SmoothHinge.eval(1.0, -800.0).0.is_finite()
    );
    assert_eq!(Unlabeled::QuadraticMargin.eval(0.5), (-0.25, -1.0));
    assert_eq!(Unlabeled::SmoothAbsMargin.eval(0.0), (1.0, 0.0));
}

#[test]
fn square_and_quadratic_margin_by_adam_reach_the_qlds_closed_form() {
    let p = problem(8, 5, 40, 3);
    let (prep, c_u) = prepared(&p);
    let top_u = prep.top_eig_unlabeled().unwrap();
    let adam = Adam {
        learning_rate: Adam::LEARNING_RATE,
        weight_decay: 0.0,
        max_iterations: 20_000,
        tolerance: Adam::TOLERANCE,
    };
    for (alpha_l, alpha_u, k) in [(1.0, 0.5, 1.0), (0.5, 1.0, 2.0), (1.0, 0.0, 0.5)] {
        let lambda = k * top_u;
        assert!(bounded(Unlabeled::QuadraticMargin, alpha_u, lambda, top_u));
        let f = Objective {
            data: data(&prep, &c_u),
            labeled: Labeled::Square,
            unlabeled: Unlabeled::QuadraticMargin,
            alpha_l,
            alpha_u,
            lambda,
        };
        let mut w = Array1::zeros(8);
        let run = adam.minimise(&mut w, &mut Workspace::new(8), |w, g| {
            f.value_grad(w, g);
        });
        let exact = closed_form(&prep, alpha_l, alpha_u, lambda);
        assert!(run.converged, "{run:?}");
        assert!(
            cosine(&w, &exact) >= 0.999,
            "({alpha_l}, {alpha_u}, {k}): cosine {}",
            cosine(&w, &exact)
        );
        assert!(
            (&w - &exact).mapv(f64::abs).sum() <= 1e-2 * exact.mapv(f64::abs).sum(),
            "({alpha_l}, {alpha_u}, {k}): {w} vs {exact}"
        );
    }
}

#[test]
fn weight_decay_shifts_the_minimiser_as_an_l2_term_of_half_its_value() {
    let p = problem(5, 4, 30, 4);
    let (prep, c_u) = prepared(&p);
    let lambda = prep.top_eig_unlabeled().unwrap();
    let f = Objective {
        data: data(&prep, &c_u),
        labeled: Labeled::Square,
        unlabeled: Unlabeled::QuadraticMargin,
        alpha_l: 1.0,
        alpha_u: 0.5,
        lambda,
    };
    let adam = Adam {
        learning_rate: 1e-3,
        weight_decay: 2.0 * lambda,
        max_iterations: 50_000,
        tolerance: 1e-6,
    };
    let mut w = Array1::zeros(5);
    adam.minimise(&mut w, &mut Workspace::new(5), |w, g| {
        f.value_grad(w, g);
    });
    let (with, without) =
        (closed_form(&prep, 1.0, 0.5, 2.0 * lambda), closed_form(&prep, 1.0, 0.5, lambda));
    let dist = |a: &Array1<f64>| (&w - a).mapv(|x| x * x).sum().sqrt() / a.dot(a).sqrt();
    assert!(dist(&with) < 1e-3 && dist(&without) > 0.1, "{} {}", dist(&with), dist(&without));
}

#[test]
fn one_step_moves_each_coordinate_by_the_learning_rate() {
    // Adam's first step is lr·ĝ/(|ĝ| + ε) with ĝ = g + weight_decay·ω: ±lr per coordinate.
    let adam = Adam { learning_rate: 0.05, weight_decay: 0.1, max_iterations: 1, tolerance: 1e-12 };
    let start = Array1::from(vec![1.0, -2.0, 0.5]);
    let grad = Array1::from(vec![-0.05, 0.3, 0.0]);
    let mut w = start.clone();
    let run = adam.minimise(&mut w, &mut Workspace::new(3), |_, g| g.assign(&grad));
    assert_eq!(run, Run { iterations: 1, converged: false });
    for j in 0..3 {
        let g = grad[j] + 0.1 * start[j];
        let step = 0.05 * g / (g.abs() + 1e-8);
        assert!(
            (start[j] - w[j] - step).abs() < 1e-15,
            "coordinate {j}: moved {}",
            start[j] - w[j]
        );
    }
}

#[test]
fn the_oracle_skips_unbounded_points_and_keeps_the_lowest_error() {
    let p = problem(6, 5, 50, 5);
    let (prep, c_u) = prepared(&p);
    let top_u = prep.top_eig_unlabeled().unwrap();
    let adam = Training {
        adam: Adam {
            learning_rate: 1e-2,
            weight_decay: 0.0,
            max_iterations: 2000,
            tolerance: 1e-4,
        },
        batch: 16,
    };
    let grid =
        OracleGrid { alpha_l: vec![1.0], alpha_u: vec![0.0, 2.0], lambda_scale: vec![1.0, 3.0] };
    assert_eq!(
        (
            grid.points(),
            grid.invalid(Unlabeled::QuadraticMargin),
            grid.invalid(Unlabeled::SmoothAbsMargin)
        ),
        (4, 1, 0)
    );
    let loss = (Labeled::Square, Unlabeled::QuadraticMargin);
    let best = grid.oracle(data(&prep, &c_u), top_u, loss, &adam, p.y_u.view()).unwrap();
    // Each valid point alone: the oracle's error is their minimum, at a valid point.
    let mut errors = Vec::new();
    for (au, k) in [(0.0, 3.0), (0.0, 1.0), (2.0, 3.0)] {
        let one = OracleGrid { alpha_l: vec![1.0], alpha_u: vec![au], lambda_scale: vec![k] };
        errors.push(one.oracle(data(&prep, &c_u), top_u, loss, &adam, p.y_u.view()).unwrap().error);
    }
    assert!(
        best.error <= errors.iter().cloned().fold(1.0, f64::min) + 0.02,
        "{} vs {errors:?}",
        best.error
    );
    assert!(!(best.alpha_u == 2.0 && best.lambda < 2.0 * top_u));
    let none = OracleGrid { alpha_l: vec![1.0], alpha_u: vec![2.0], lambda_scale: vec![1.0, 2.0] };
    assert!(none.oracle(data(&prep, &c_u), top_u, loss, &adam, p.y_u.view()).is_err());
}

#[test]
fn configs_are_checked_with_file_and_line() {
    let config = |method: &str| {
        format!(
            "[experiment]\nname = \"g\"\nseed = 1\nsplits = 2\n\n[[datasets]]\nname = \"s\"\nkind = \"synthetic\"\ndim = 5\nmean_norm = 2.0\nlabeled_per_class = 3\nunlabeled_per_class = 20\n\n[[methods]]\nkind = \"gradient\"\n{method}\n"
        )
    };
    let parse = |m: &str| crate::config::parse(&config(m), std::path::Path::new("g.toml"));
    let ok = "loss = \"smooth_hinge\"\nunlabeled = \"smooth_abs_margin\"\nalpha_l = [1.0]\nalpha_u = [0.0, 0.5]\nlambda_scale = [0.5, 2.0]";
    let exp = parse(ok).unwrap();
    assert_eq!(exp.methods[0].name, "hinge+AM");
    let bad = |from: &str, to: &str| parse(&ok.replace(from, to)).unwrap_err().to_string();
    assert!(
        bad("smooth_hinge", "hinge").starts_with("g.toml:16: methods[0].loss: unknown `hinge`")
    );
    assert!(
        bad("alpha_l = [1.0]", "alpha_l = [0.0]")
            .contains("methods[0].alpha_l: every value must be > 0")
    );
    assert!(
        bad("lambda_scale = [0.5, 2.0]", "lambda_scale = [0.5, 2.0]\nsteps = 3")
            .contains("methods[0].steps: not a parameter of `gradient`")
    );
    let all_invalid =
        ok.replace("smooth_abs_margin", "quadratic_margin").replace("[0.0, 0.5]", "[2.5]");
    assert!(parse(&all_invalid).unwrap_err().to_string().contains("every grid point is invalid"));
}

#[test]
fn lockstep_runs_are_bit_identical_to_runs_alone() {
    // d = 13 leaves a tail after the 8-lane sums; 82 unlabeled rows in blocks of 16 leave a
    // short last block.
    let (d, p) = (13, problem(13, 5, 41, 8));
    let (prep, c_u) = prepared(&p);
    let top_u = prep.top_eig_unlabeled().unwrap();
    let adam =
        Adam { learning_rate: 1e-2, weight_decay: 1e-5, max_iterations: 700, tolerance: 1e-3 };
    let train = Training { adam, batch: 16 };
    let bits = |w: &Array1<f64>| w.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let mut lengths = Vec::new();
    for (labeled, unlabeled) in LOSSES {
        let fs = [0.0, 0.3, 1.0].map(|alpha_u| Objective {
            data: data(&prep, &c_u),
            labeled,
            unlabeled,
            alpha_l: 1.0,
            alpha_u,
            lambda: 1.5 * top_u,
        });
        let start = Array1::from_shape_fn(d, |j| 0.01 * j as f64);
        // Each run alone: Adam::minimise over grad_on, on the same blocks.
        let alone: Vec<(Array1<f64>, Run)> = fs
            .iter()
            .map(|f| {
                let (x_u, mut w, mut at) = (f.data.x_u, start.clone(), 0);
                let n_u = x_u.nrows();
                let run = adam.minimise(&mut w, &mut Workspace::new(d), |w, g| {
                    if unlabeled == Unlabeled::QuadraticMargin {
                        return f.grad_on(w, g, x_u, 1.0);
                    }
                    let end = (at + 16).min(n_u);
                    let weight = n_u as f64 / (end - at) as f64;
                    f.grad_on(w, g, x_u.slice(ndarray::s![at..end, ..]), weight);
                    at = if end == n_u { 0 } else { end };
                });
                (w, run)
            })
            .collect();
        let (mut omegas, mut works) = (vec![start.clone(); 3], vec![Workspace::new(d); 3]);
        let mut runs: Vec<_> =
            fs.iter().zip(&mut omegas).zip(&mut works).map(|((f, w), k)| (*f, w, k)).collect();
        let got = train.run_all(&mut runs);
        for k in 0..3 {
            assert_eq!(got[k], alone[k].1, "{labeled:?} {unlabeled:?} run {k}");
            assert_eq!(bits(&omegas[k]), bits(&alone[k].0), "{labeled:?} {unlabeled:?} ω {k}");
        }
        lengths.extend(got.iter().map(|r| r.iterations));
    }
    // Runs stop at different iterations, so runs drop out of the lockstep at different times.
    assert!(lengths.iter().any(|&n| n != lengths[0]), "{lengths:?}");
}
