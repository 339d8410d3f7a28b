//! CGLS against the normal equations, a dense solve and an ill-conditioned case.

use super::*;
use crate::data::{Csr, Features};
use crate::methods::svmlin::with_bias;
use ndarray::Array1;

#[test]
fn warm_and_cold_starts_reach_the_normal_equations() {
    // 5 rows × 3 columns; subset rows 0, 2, 3, 4 with costs and targets.
    let x = Csr::new(
        3,
        vec![0, 2, 3, 5, 6, 8],
        vec![0, 2, 1, 0, 1, 2, 0, 1],
        vec![1.0, -2.0, 0.5, 3.0, 1.0, 2.0, -1.0, 1.5],
    )
    .unwrap();
    let f = Features::Sparse(x);
    let x = with_bias(&[&f]).unwrap();
    let sub = Subset {
        rows: vec![0, 2, 3, 4],
        target: vec![1.0, -0.5, 2.0, 0.3],
        cost: vec![1.0, 0.5, 2.0, 0.25],
    };
    let lambda = 0.7;
    // Independent check: the gradient λw − X_Jᵀ C (t − X_J w) vanishes.
    let dense = x.to_dense();
    let grad = |w: &[f64]| -> f64 {
        let w = Array1::from(w.to_vec());
        let mut g = lambda * &w;
        for (k, &i) in sub.rows.iter().enumerate() {
            let res = sub.target[k] - dense.row(i as usize).dot(&w);
            g = g - sub.cost[k] * res * &dense.row(i as usize);
        }
        g.iter().map(|v| v.abs()).fold(0.0, f64::max)
    };
    let mut work = CglsWork::default();
    for start in [[0.0; 3], [5.0, -3.0, 1.0]] {
        let mut w = [&start[..], &[0.5]].concat();
        let mut o = vec![0.0; 4];
        x.mul_vec_rows(&sub.rows, &w, &mut o);
        let mut o_bar = vec![f64::NAN; 5];
        let opts = CglsOptions { epsilon: 1e-12, max_iter: 100, precondition: false };
        let rep = cgls(&x, &sub, lambda, &opts, &mut w, |k| o[k], &mut o_bar, &mut work);
        assert!(rep.converged && rep.iterations <= 6, "{rep:?}");
        assert!(grad(&w) < 1e-9, "gradient {}", grad(&w));
        // The carried outputs are X_J w at the answer; row 1 is not in the subset.
        let mut fresh = vec![0.0; 4];
        x.mul_vec_rows(&sub.rows, &w, &mut fresh);
        for (k, &i) in sub.rows.iter().enumerate() {
            assert!((o_bar[i as usize] - fresh[k]).abs() < 1e-12, "row {i}");
        }
        assert!(o_bar[1].is_nan());
    }
}

/// Columns over four orders of magnitude and a small λ (condition about 10¹⁶): the
/// recursive residual drifts from the true one, and CG must restart along the true one
/// rather than step on with the old direction (which diverged to |w| ≈ 10⁸⁰).
#[test]
fn ill_conditioned_cgls_restarts_and_converges() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let (n, cols, lambda) = (20, 40, 1e-4);
    let scale: Vec<f64> = (0..cols).map(|_| 10f64.powf(rng.random_range(0.0..4.0))).collect();
    let (mut indptr, mut indices, mut values) = (vec![0], Vec::new(), Vec::new());
    for _ in 0..n {
        for (j, sj) in scale.iter().enumerate() {
            indices.push(j as u32);
            values.push(sj * rng.random_range(-1.7..1.7));
        }
        indptr.push(indices.len());
    }
    let f = Features::Sparse(Csr::new(cols, indptr, indices, values).unwrap());
    let x = with_bias(&[&f]).unwrap();
    let sub = Subset {
        rows: (0..n as u32).collect(),
        target: (0..n).map(|_| if rng.random_bool(0.5) { 1.0 } else { -1.0 }).collect(),
        cost: vec![1.0; n],
    };
    let mut w = vec![0.0; cols + 1];
    let opts = CglsOptions { epsilon: 1e-6, max_iter: 10_000, precondition: false };
    let mut work = CglsWork::default();
    let rep = cgls(&x, &sub, lambda, &opts, &mut w, |_| 0.0, &mut vec![0.0; n], &mut work);
    assert!(rep.converged, "{rep:?}");
    // ½λ‖w‖² ≤ the objective at w = 0, ½ Σ t² = n/2.
    let norm = dot(&w, &w).sqrt();
    assert!(norm <= (n as f64 / lambda).sqrt(), "|w| = {norm}");
    // The gradient λw − Xᵀ(t − Xw), recomputed densely, is small against Xᵀt.
    let dense = x.to_dense();
    let w_a = Array1::from(w);
    let res = Array1::from(sub.target.clone()) - dense.dot(&w_a);
    let grad = lambda * &w_a - dense.t().dot(&res);
    let xt = dense.t().dot(&Array1::from(sub.target.clone()));
    assert!(grad.dot(&grad).sqrt() <= 1e-5 * xt.dot(&xt).sqrt(), "gradient {grad}");
}

/// Preconditioned CGLS against a dense Cholesky solve of (X_JᵀCX_J + λI) w = X_JᵀCt, on
/// columns scaled over five orders of magnitude, cold and warm, with and without the
/// preconditioner: the answer satisfies the stopping rule on the true residual, is the
/// dense solution, and its carried outputs are X_J w.
#[test]
fn preconditioned_cgls_matches_a_dense_solve() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let (n, cols) = (60, 25);
    let scale: Vec<f64> = (0..cols).map(|j| 10f64.powf(-3.0 + 5.0 * j as f64 / 24.0)).collect();
    let (mut indptr, mut indices, mut values) = (vec![0], Vec::new(), Vec::new());
    for _ in 0..n {
        for (j, sj) in scale.iter().enumerate() {
            if rng.random_bool(0.3) {
                indices.push(j as u32);
                values.push(sj * rng.random_range(-1.0..1.0));
            }
        }
        indptr.push(indices.len());
    }
    let f = Features::Sparse(Csr::new(cols, indptr, indices, values).unwrap());
    let x = with_bias(&[&f]).unwrap();
    let rows: Vec<u32> = (0..n as u32).filter(|i| i % 3 != 0).collect();
    let sub = Subset {
        target: rows.iter().map(|_| rng.random_range(-1.0..1.0)).collect(),
        cost: rows.iter().map(|_| rng.random_range(0.1..2.0)).collect(),
        rows,
    };
    let (lambda, d) = (1e-3, cols + 1);
    let dense = x.to_dense();
    let mut a = faer::Mat::<f64>::zeros(d, d);
    let mut b = faer::Mat::<f64>::zeros(d, 1);
    for (k, &i) in sub.rows.iter().enumerate() {
        let row = dense.row(i as usize);
        for j in 0..d {
            b[(j, 0)] += sub.cost[k] * sub.target[k] * row[j];
            for l in 0..d {
                a[(j, l)] += sub.cost[k] * row[j] * row[l];
            }
        }
    }
    for j in 0..d {
        a[(j, j)] += lambda;
    }
    crate::linalg::spd_solve(a.as_ref(), &mut b, "test").unwrap();
    let epsilon = 1e-10;
    let mut work = CglsWork::default();
    for start in [0.0, 0.3] {
        for precondition in [false, true] {
            let mut w = vec![start; d];
            let mut o = vec![0.0; sub.rows.len()];
            x.mul_vec_rows(&sub.rows, &w, &mut o);
            let mut o_bar = vec![0.0; n];
            let opts = CglsOptions { epsilon, max_iter: 1000, precondition };
            let rep = cgls(&x, &sub, lambda, &opts, &mut w, |k| o[k], &mut o_bar, &mut work);
            assert!(rep.converged, "{rep:?}");
            // The rule on the true residual, recomputed densely.
            let w_a = Array1::from(w.clone());
            let mut r = -lambda * &w_a;
            let mut zz = 0.0;
            for (k, &i) in sub.rows.iter().enumerate() {
                let row = dense.row(i as usize);
                let o_k = row.dot(&w_a);
                assert!((o_bar[i as usize] - o_k).abs() < 1e-9, "output of row {i}");
                let z = sub.cost[k] * (sub.target[k] - o_k);
                r.scaled_add(z, &row);
                zz += z * z;
            }
            assert!(r.dot(&r) <= epsilon * epsilon * zz * (1.0 + 1e-6), "rule");
            for j in 0..d {
                let tol = 1e-6 * b[(j, 0)].abs().max(1.0);
                assert!((w[j] - b[(j, 0)]).abs() < tol, "w[{j}] {} vs {}", w[j], b[(j, 0)]);
            }
        }
    }
}
