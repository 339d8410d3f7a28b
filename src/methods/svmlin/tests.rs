//! Tests against independent computations: dense gradients and a dense gradient-descent
//! reference for MFN, the balance constraint of TSVM, DA's best point, and end-to-end fits.

use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::data::{Csr, Features, Problem, error_rate};

/// A random sparse matrix with about `density`·cols non-zeros per row, plus labels from a
/// random hyperplane with 10% flipped.
fn random_problem(rows: usize, cols: usize, density: f64, seed: u64) -> (Csr, Vec<f64>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let truth: Vec<f64> = (0..cols).map(|_| rng.random_range(-1.0..1.0)).collect();
    let (mut indptr, mut indices, mut values, mut y) =
        (vec![0], Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rows {
        let mut score = 0.0;
        for j in 0..cols {
            if rng.random_bool(density) {
                let v: f64 = rng.random_range(-1.0..1.0);
                indices.push(j as u32);
                values.push(v);
                score += v * truth[j];
            }
        }
        indptr.push(indices.len());
        let label = if score >= 0.0 { 1.0 } else { -1.0 };
        y.push(if rng.random_bool(0.1) { -label } else { label });
    }
    (Csr::new(cols, indptr, indices, values).unwrap(), y)
}

/// ∇F(w) = λw − Σ_k c_k max(0, 1 − y_k o_k) y_k x_k, computed densely.
fn dense_gradient(x: &Array2<f64>, ex: &Examples, lambda: f64, w: &Array1<f64>) -> Array1<f64> {
    let o = x.dot(w);
    let mut g = lambda * w;
    for (i, y, c) in ex.iter() {
        let e = 1.0 - y * o[i];
        if e > 0.0 {
            g.scaled_add(-c * e * y, &x.row(i));
        }
    }
    g
}

fn max_abs(v: &Array1<f64>) -> f64 {
    v.iter().map(|x| x.abs()).fold(0.0, f64::max)
}

#[test]
fn mfn_matches_dense_gradient_descent_on_a_tiny_case() {
    let (x, y) = random_problem(14, 4, 0.6, 1);
    let f = Features::Sparse(x);
    let x = with_bias(&[&f]).unwrap();
    let dense = x.to_dense();
    let mut ex = Examples::default();
    for (i, &yi) in y.iter().enumerate() {
        ex.push(i, yi, 0.5 + (i % 3) as f64 * 0.25);
        if i % 4 == 0 {
            ex.push(i, -yi, 0.3); // rows carrying both labels, as in DA
        }
    }
    let lambda = 0.4;
    let mut w = vec![0.0; x.ncols()];
    let rep = mfn(&x, &ex, lambda, &MfnOptions::default(), &mut w, &mut MfnWork::default());
    assert!(rep.converged, "{rep:?}");
    let w = Array1::from(w);
    // Reference: plain gradient descent with step 1/L, L = λ + Σ c_k ‖x_k‖².
    let lip = lambda + ex.iter().map(|(i, _, c)| c * dense.row(i).dot(&dense.row(i))).sum::<f64>();
    let mut v = Array1::zeros(x.ncols());
    for _ in 0..200_000 {
        let g = dense_gradient(&dense, &ex, lambda, &v);
        v.scaled_add(-1.0 / lip, &g);
    }
    assert!(max_abs(&dense_gradient(&dense, &ex, lambda, &v)) < 1e-12);
    assert!(max_abs(&(&w - &v)) < 1e-6, "MFN {w} vs reference {v}");
    let o = dense.dot(&w);
    assert!(
        (rep.objective - objective(lambda, w.as_slice().unwrap(), &ex, o.as_slice().unwrap()))
            .abs()
            < 1e-12
    );
}

#[test]
fn mfn_solution_has_zero_gradient_cold_and_warm() {
    let (x, y) = random_problem(400, 60, 0.1, 2);
    let f = Features::Sparse(x);
    let x = with_bias(&[&f]).unwrap();
    let dense = x.to_dense();
    let mut ex = Examples::default();
    for (i, &yi) in y.iter().enumerate() {
        ex.push(i, yi, 1.0);
    }
    let mut work = MfnWork::default();
    for lambda in [1.0, 1e-2] {
        let mut w = vec![0.0; x.ncols()];
        let cold = mfn(&x, &ex, lambda, &MfnOptions::default(), &mut w, &mut work);
        let g = dense_gradient(&dense, &ex, lambda, &Array1::from(w.clone()));
        assert!(
            cold.converged && max_abs(&g) < 1e-4,
            "λ = {lambda}: {cold:?}, |∇F| = {}",
            max_abs(&g)
        );
        // Warm start from the solution: converges at once, to the same point.
        let before = w.clone();
        let warm = mfn(&x, &ex, lambda, &MfnOptions::default(), &mut w, &mut work);
        assert!(warm.converged && warm.newton_steps <= 2, "{warm:?}");
        assert!(w.iter().zip(&before).all(|(a, b)| (a - b).abs() < 1e-6));
    }
}

fn transductive_design(seed: u64) -> (Features, Vec<f64>, Vec<f64>) {
    let (x, y) = random_problem(330, 40, 0.15, seed);
    let (y_l, y_u) = (y[..30].to_vec(), y[30..].to_vec());
    (Features::Sparse(x), y_l, y_u)
}

#[test]
fn tsvm_keeps_the_positive_fraction_and_ends_without_improving_switches() {
    let (f, y_l, _) = transductive_design(3);
    let x = with_bias(&[&f]).unwrap();
    let u = x.nrows() - y_l.len();
    let inners = [Inner::Mfn(MfnOptions::default()), Inner::DualCd(WeightedCdOptions::default())];
    for (switches, positives, inner) in
        [(1, 150, 0), (10_000, 150, 0), (10_000, 90, 0), (1, 150, 1), (10_000, 90, 1)]
    {
        let opts = TsvmOptions { lambda: 1e-3, lambda_u: 1.0, switches, positives };
        let (w, labels, rep) = tsvm(&x, &y_l, &opts, &inners[inner]);
        assert!(if inner == 0 { rep.cg_iterations > 0 } else { rep.epochs > 0 }, "{rep:?}");
        assert_eq!(labels.len(), u);
        assert_eq!(labels.iter().filter(|v| **v > 0.0).count(), positives, "S = {switches}");
        assert!(rep.switch_rounds > 0);
        // No improving pair is left at the final w.
        let mut o = vec![0.0; x.nrows()];
        x.mul_vec(&w, &mut o);
        let mut y = labels.clone();
        assert_eq!(
            switch_labels(&o[y_l.len()..], &mut y, switches, &mut Vec::new(), &mut Vec::new()),
            0
        );
    }
}

#[test]
fn switching_swaps_improving_pairs_only_and_checks_bounds() {
    let o = [0.5, -0.2, 0.9, -0.8, 0.3, 2.0];
    let mut y = [1.0, 1.0, -1.0, -1.0, -1.0, 1.0];
    // Positives with o < 1 by o: [1 (−0.2), 0 (0.5)]; negatives with −o < 1 by −o: [2 (0.9), 4 (0.3)].
    // Pair 0: −0.2 < 0.9 swaps; pair 1: 0.5 < 0.3 fails.
    let n = switch_labels(&o, &mut y, 10, &mut Vec::new(), &mut Vec::new());
    assert_eq!((n, y), (1, [1.0, -1.0, 1.0, -1.0, -1.0, 1.0]));
    let mut y = [1.0, -1.0, -1.0];
    assert_eq!(switch_labels(&[-0.5, 0.5, 0.7], &mut y, 10, &mut Vec::new(), &mut Vec::new()), 1);
}

#[test]
fn da_returns_the_best_objective_of_its_path() {
    let (f, y_l, _) = transductive_design(4);
    let x = with_bias(&[&f]).unwrap();
    let opts = DaOptions { lambda: 1e-3, lambda_u: 1.0, r: 0.5 };
    for inner in [Inner::Mfn(MfnOptions::default()), Inner::DualCd(WeightedCdOptions::default())] {
        da_path_is_checked(&x, &y_l, &opts, &inner);
    }
}

fn da_path_is_checked(x: &Design, y_l: &[f64], opts: &DaOptions, inner: &Inner) {
    let (w, rep) = da(x, y_l, opts, inner).unwrap();
    assert!(rep.path.len() >= 3, "{} temperatures", rep.path.len());
    assert!(rep.path.windows(2).all(|s| s[1].temperature < s[0].temperature));
    // Recompute the S3VM objective of the returned w densely.
    let o = x.to_dense().dot(&Array1::from(w.clone()));
    let (l, u) = (y_l.len() as f64, (x.nrows() - y_l.len()) as f64);
    let f = 0.5 * opts.lambda * w.iter().map(|v| v * v).sum::<f64>()
        + y_l.iter().zip(&o).map(|(y, oi)| (1.0 - y * oi).max(0.0).powi(2)).sum::<f64>()
            / (2.0 * l)
        + opts.lambda_u
            * o.iter().skip(y_l.len()).map(|oj| (1.0 - oj.abs()).max(0.0).powi(2)).sum::<f64>()
            / (2.0 * u);
    assert!((f - rep.best_objective).abs() < 1e-10 * f.abs().max(1.0));
    assert!(rep.path.iter().all(|s| rep.best_objective <= s.objective + 1e-12));
}

fn split(seed: u64) -> Problem {
    let (x, y) = random_problem(600, 20, 0.3, seed);
    let rows = |r: std::ops::Range<usize>| r.collect::<Vec<_>>();
    let x = Features::Sparse(x);
    Problem::new(
        x.select_rows(&rows(0..40)),
        Array1::from(y[..40].to_vec()),
        x.select_rows(&rows(40..600)),
        Array1::from(y[40..].to_vec()),
    )
}

#[test]
fn every_method_beats_chance_and_dense_features_give_the_same_model() {
    let p = split(5);
    let dense = Problem::dense(
        p.x_l.to_dense().into_owned(),
        p.y_l.clone(),
        p.x_u.to_dense().into_owned(),
        p.y_u.clone(),
    );
    for kind in [
        Kind::Rls,
        Kind::Svm,
        Kind::Tsvm { switches: 1 },
        Kind::Tsvm { switches: 10_000 },
        Kind::Da,
    ] {
        let m = SvmlinParams { lambda: 0.1, ..SvmlinParams::new(kind) }.check().unwrap();
        let fit = m.fit(&p).unwrap();
        let err = error_rate(fit.scores(&p.x_u).view(), p.y_u.view());
        assert!(err < 0.35, "{kind:?}: error {err}");
        let fit_dense = m.fit(&dense).unwrap();
        assert!(
            (&fit.w - &fit_dense.w).iter().all(|v| v.abs() < 1e-12) && fit.bias == fit_dense.bias
        );
    }
}

#[test]
fn rls_solves_its_normal_equations() {
    let p = split(6);
    let m = SvmlinParams { lambda: 0.3, ..SvmlinParams::new(Kind::Rls) }.check().unwrap();
    let fit = m.fit(&p).unwrap();
    let x = with_bias(&[&p.x_l]).unwrap().to_dense();
    let mut w = fit.w.to_vec();
    w.push(fit.bias);
    let w = Array1::from(w);
    let grad = 0.3 * &w - x.t().dot(&(&p.y_l - &x.dot(&w)));
    assert!(max_abs(&grad) < 1e-5, "|∇| = {}", max_abs(&grad));
}

#[test]
fn invalid_parameters_and_one_class_labels_are_errors() {
    assert!(SvmlinParams { lambda: 0.0, ..SvmlinParams::new(Kind::Svm) }.check().is_err());
    assert!(SvmlinParams::new(Kind::Tsvm { switches: 0 }).check().is_err());
    assert!(
        SvmlinParams { r: PositiveFraction::Fixed(1.0), ..SvmlinParams::new(Kind::Da) }
            .check()
            .is_err()
    );
    let mut p = split(7);
    p.y_l.fill(1.0);
    let err = SvmlinParams::new(Kind::Da).check().unwrap().fit(&p).unwrap_err();
    assert!(err.to_string().contains("one class"), "{err}");
}

#[test]
fn without_unlabeled_rows_tsvm_and_da_solve_the_supervised_l2_svm() {
    // ½λ‖w‖² + (1/2l)Σ l2 is (1/l)·(½(λl)‖w‖² + ½Σ l2): the SVM at λ·l, by MFN.
    let mut p = split(8);
    p.x_u = p.x_u.select_rows(&[]);
    p.y_u = Array1::zeros(0);
    let l = p.n_labeled() as f64;
    let mfn = SvmSolver::Mfn;
    let svm = SvmlinParams { lambda: 0.05 * l, svm_solver: mfn, ..SvmlinParams::new(Kind::Svm) };
    let want = svm.check().unwrap().fit(&p).unwrap();
    for kind in [Kind::Tsvm { switches: 1 }, Kind::Da] {
        for svm_solver in [mfn, SvmSolver::default_for(kind)] {
            let m = SvmlinParams { lambda: 0.05, svm_solver, ..SvmlinParams::new(kind) };
            let fit = m.check().unwrap().fit(&p).unwrap();
            let gap =
                (&fit.w - &want.w).iter().fold((fit.bias - want.bias).abs(), |a, v| a.max(v.abs()));
            assert!(gap < 1e-3 * max_abs(&want.w), "{kind:?} {svm_solver:?}: |Δw| = {gap}");
            assert_eq!(fit.r, None);
        }
    }
}
