//! QLDS checked against independent dense computations on tiny problems.

use ndarray::{Array1, Array2, Axis};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::data::Problem;
use crate::data::Sampler;
use crate::data::synthetic::GaussianMixture;

/// A small problem: `n_l` labeled and `n_u` unlabeled per class in dimension `d`.
fn problem(d: usize, n_l: usize, n_u: usize, norm: f64, seed: u64) -> Problem {
    let g = GaussianMixture::symmetric(d, norm).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    g.sample_problem([n_l, n_l], [n_u, n_u], &mut rng)
}

/// The unlabeled rows as a dense matrix.
fn raw_unlabeled(p: &Problem) -> Array2<f64> {
    p.x_u.to_dense().into_owned()
}

/// Gaussian elimination with partial pivoting (the reference solver).
pub(super) fn naive_solve(mut a: Array2<f64>, mut b: Array1<f64>) -> Array1<f64> {
    let n = b.len();
    for k in 0..n {
        let p = (k..n).max_by(|&i, &j| a[[i, k]].abs().total_cmp(&a[[j, k]].abs())).unwrap();
        for j in 0..n {
            a.swap([k, j], [p, j]);
        }
        b.swap(k, p);
        for i in k + 1..n {
            let f = a[[i, k]] / a[[k, k]];
            for j in k..n {
                a[[i, j]] -= f * a[[k, j]];
            }
            b[i] -= f * b[k];
        }
    }
    let mut x = Array1::zeros(n);
    for i in (0..n).rev() {
        let tail: f64 = (i + 1..n).map(|j| a[[i, j]] * x[j]).sum();
        x[i] = (b[i] - tail) / a[[i, i]];
    }
    x
}

/// Centred copies of the labeled and unlabeled rows, centred with the global mean.
pub(super) fn centred(p: &Problem) -> (Array2<f64>, Array2<f64>) {
    let (x_l, x_u) = (p.x_l.to_dense(), p.x_u.to_dense());
    let all = ndarray::concatenate(Axis(0), &[x_l.view(), x_u.view()]).unwrap();
    let mean = all.mean_axis(Axis(0)).unwrap();
    (&*x_l - &mean, &*x_u - &mean)
}

fn max_abs_diff(a: &Array1<f64>, b: &Array1<f64>) -> f64 {
    (a - b).iter().fold(0.0, |m, v| m.max(v.abs()))
}

#[test]
fn closed_form_matches_naive_dense_solve() {
    let p = problem(6, 4, 15, 1.0, 1);
    let (xl, xu) = centred(&p);
    let n = (xl.nrows() + xu.nrows()) as f64;
    let (al, au, lambda) = (0.7, 0.4, 2.5);
    let a = Array2::eye(6) * lambda + xl.t().dot(&xl) * (al / n) - xu.t().dot(&xu) * (au / n);
    let omega = naive_solve(a, xl.t().dot(&p.y_l) / n.sqrt());
    let fitted = QldsParams::new(al, au)
        .lambda(LambdaPolicy::Fixed(lambda))
        .check()
        .unwrap()
        .fit(&p)
        .unwrap();
    assert!(max_abs_diff(&fitted.omega, &omega) < 1e-10);
    let scores = xu.dot(&omega) / n.sqrt();
    assert!(max_abs_diff(&fitted.scores(raw_unlabeled(&p).view()), &scores) < 1e-10);
}

#[test]
fn ls_svm_corner_is_ridge_without_bias_in_dual_form() {
    // QLDS(1,0): ω = (1/√n)(λI + X_lᵀX_l/n)⁻¹X_lᵀy = √n X_lᵀ(X_l X_lᵀ + nλI)⁻¹ y.
    let p = problem(8, 5, 10, 1.5, 2);
    let (xl, xu) = centred(&p);
    let n = (xl.nrows() + xu.nrows()) as f64;
    let lambda = 0.3;
    let k = xl.dot(&xl.t()) + Array2::<f64>::eye(xl.nrows()) * (n * lambda);
    let omega = xl.t().dot(&naive_solve(k, p.y_l.clone())) * n.sqrt();
    let fitted = QldsParams::new(1.0, 0.0)
        .lambda(LambdaPolicy::Fixed(lambda))
        .check()
        .unwrap()
        .fit(&p)
        .unwrap();
    assert!(max_abs_diff(&fitted.omega, &omega) < 1e-9);
}

#[test]
fn eigenvalue_policies_use_the_right_matrix() {
    let p = problem(5, 6, 20, 1.0, 3);
    let (xl, xu) = centred(&p);
    let n = (xl.nrows() + xu.nrows()) as f64;
    let top = |m: Array2<f64>| power_iteration(&m).0;
    let all = top((xl.t().dot(&xl) + xu.t().dot(&xu)) / n);
    let unl = top(xu.t().dot(&xu) / n);
    let fit =
        |policy| QldsParams::new(0.5, 1.0).lambda(policy).check().unwrap().fit(&p).unwrap().lambda;
    let eps = LambdaPolicy::EPSILON;
    assert!((fit(LambdaPolicy::MaxEigAll { epsilon: eps }) - (1.0 + eps) * all).abs() < 1e-9);
    assert!((fit(LambdaPolicy::MaxEigUnlabeled { epsilon: eps }) - (1.0 + eps) * unl).abs() < 1e-9);
}

/// Top eigenpair by power iteration (reference for the eigen solver).
fn power_iteration(m: &Array2<f64>) -> (f64, Array1<f64>) {
    let mut v = Array1::from_elem(m.nrows(), 1.0);
    v[0] = 2.0;
    let mut value = 0.0;
    for _ in 0..20_000 {
        let w = m.dot(&v);
        value = v.dot(&w) / v.dot(&v);
        let norm = w.dot(&w).sqrt();
        v = w / norm;
    }
    (value, v)
}

#[test]
fn spectral_is_projection_on_top_eigenvector_oriented_by_labels() {
    // A strong spike so the top eigenvector is well separated.
    let p = problem(6, 5, 40, 3.0, 4);
    let (xl, xu) = centred(&p);
    let n = (xl.nrows() + xu.nrows()) as f64;
    let (_, mut u) = power_iteration(&(xu.t().dot(&xu) / n));
    if u.dot(&xl.t().dot(&p.y_l)) < 0.0 {
        u.mapv_inplace(|v| -v);
    }
    let fitted = Spectral::default().fit(&p).unwrap();
    assert!(max_abs_diff(&fitted.direction, &u) < 1e-8);
    assert!(max_abs_diff(&fitted.scores(raw_unlabeled(&p).view()), &xu.dot(&u)) < 1e-8);
}

#[test]
fn spectral_variants_use_raw_or_all_points_and_may_skip_orientation() {
    let p = problem(6, 5, 40, 3.0, 4);
    let xu = raw_unlabeled(&p);
    let xl = p.x_l.to_dense().into_owned();
    let n = (xl.nrows() + xu.nrows()) as f64;
    let same_line = |a: &Array1<f64>, b: &Array1<f64>| (a.dot(b).abs() - 1.0).abs() < 1e-8;
    // No centring: the top eigenvector of the raw X_uᵀX_u/n, scores xᵀu.
    let raw = Spectral { center: false, ..Spectral::default() }.fit(&p).unwrap();
    let (_, u) = power_iteration(&(xu.t().dot(&xu) / n));
    assert!(same_line(&raw.direction, &u));
    assert!(max_abs_diff(&raw.scores(xu.view()), &xu.dot(&raw.direction)) < 1e-10);
    // All points: the top eigenvector of the centred XᵀX/n.
    let (cl, cu) = centred(&p);
    let all = Spectral { unlabeled_only: false, ..Spectral::default() }.fit(&p).unwrap();
    let (_, v) = power_iteration(&((cl.t().dot(&cl) + cu.t().dot(&cu)) / n));
    assert!(same_line(&all.direction, &v));
    // Without orientation the direction is the eigensolver's, up to the sign the default fixes.
    let free = Spectral { orient: false, ..Spectral::default() }.fit(&p).unwrap();
    let fixed = Spectral::default().fit(&p).unwrap();
    assert!(
        max_abs_diff(&free.direction, &fixed.direction) < 1e-12
            || max_abs_diff(&free.direction, &(-&fixed.direction)) < 1e-12
    );
    assert_eq!(
        Spectral { center: false, orient: false, ..Spectral::default() }.describe(),
        "center=false orient=false"
    );
}

#[test]
fn spectral_is_the_gb_ssl_limit_at_the_top_eigenvalue() {
    let p = problem(6, 5, 40, 3.0, 5);
    let spectral = Spectral::default().fit(&p).unwrap();
    let limit = QldsParams::new(0.0, 1.0)
        .lambda(LambdaPolicy::MaxEigUnlabeled { epsilon: 1e-9 })
        .check()
        .unwrap()
        .fit(&p)
        .unwrap();
    let cosine = limit.omega.dot(&spectral.direction) / limit.omega.dot(&limit.omega).sqrt();
    assert!(cosine > 1.0 - 1e-6, "cosine {cosine}");
    assert_eq!(
        limit.predict(raw_unlabeled(&p).view()),
        spectral.scores(raw_unlabeled(&p).view()).mapv(|s| if s >= 0.0 { 1.0 } else { -1.0 })
    );
}

#[test]
fn scaling_alphas_and_lambda_keeps_predictions() {
    let p = problem(7, 6, 30, 1.0, 6);
    let fit = |c: f64| {
        QldsParams::new(0.6 * c, 0.9 * c)
            .lambda(LambdaPolicy::Fixed(4.0 * c))
            .check()
            .unwrap()
            .fit(&p)
            .unwrap()
    };
    let (a, b) = (fit(1.0), fit(3.7));
    assert_eq!(a.predict(raw_unlabeled(&p).view()), b.predict(raw_unlabeled(&p).view()));
    assert!(
        max_abs_diff(
            &(a.scores(raw_unlabeled(&p).view()) / 3.7),
            &b.scores(raw_unlabeled(&p).view())
        ) < 1e-10
    );
}

#[test]
fn invalid_parameters_are_rejected_by_name() {
    let err = |p: QldsParams| p.check().unwrap_err().to_string();
    assert!(err(QldsParams::new(0.0, 0.0)).contains("both be 0"));
    assert!(err(QldsParams::new(-1.0, 0.5)).contains("alpha_l"));
    assert!(err(QldsParams::new(1.0, 1.5)).contains("alpha_u"));
    assert!(err(QldsParams::new(1.0, 0.0).lambda(LambdaPolicy::Fixed(0.0))).contains("lambda"));
    assert!(QldsParams::new(1.0, 1.5).lambda(LambdaPolicy::Fixed(9.0)).check().is_ok());
}

#[test]
fn indefinite_system_is_an_error_not_a_panic() {
    let p = problem(4, 3, 20, 1.0, 7);
    let q = QldsParams::new(0.0, 1.0).lambda(LambdaPolicy::Fixed(1e-6)).check().unwrap();
    let msg = q.fit(&p).unwrap_err().to_string();
    assert!(msg.contains("not positive definite"), "{msg}");
}

/// The moments have the bits of the plain computation (concatenated rows, ndarray's mean and
/// broadcast subtraction, faer's full products), so their faster order moves no result. With
/// d = 1 faer's full product is a dot product, summed in another order.
#[test]
fn moments_have_the_bits_of_the_plain_computation() {
    use faer::linalg::matmul::matmul;
    for (d, n_l, n_u) in [(400, 50, 950), (13, 3, 40), (2, 2, 5)] {
        let p = problem(d, n_l, n_u, 1.5, 3);
        let m = Moments::new(&p).unwrap();
        let (x_l, x_u) = centred(&p);
        let all =
            ndarray::concatenate(Axis(0), &[p.x_l.to_dense().view(), raw_unlabeled(&p).view()]);
        assert!(m.mean == all.unwrap().mean_axis(Axis(0)).unwrap(), "d = {d}");
        assert!(m.x_l == x_l && m.x_u == x_u, "d = {d}");
        let scale = 1.0 / (2 * (n_l + n_u)) as f64;
        for (c, x) in [(&m.c_l, &x_l), (&m.c_u, &x_u)] {
            let xf = crate::linalg::view(&x.view());
            let mut full = faer::Mat::<f64>::zeros(d, d);
            matmul(full.as_mut(), faer::Accum::Replace, xf.transpose(), xf, scale, faer::Par::Seq);
            assert!(*c == full, "d = {d}");
        }
    }
}

/// A fit on a problem forms C_u without the centred copy of X_u, yet every moment it reads
/// and its ω have the bits of the full moments' fit (so no committed result moves).
#[test]
fn fit_without_the_unlabeled_copy_has_the_bits_of_the_full_moments() {
    for (d, n_l, n_u) in [(400, 50, 950), (13, 3, 40)] {
        let p = problem(d, n_l, n_u, 1.5, 7);
        let (light, full) = (Moments::for_fit(&p).unwrap(), Moments::new(&p).unwrap());
        assert_eq!(light.x_u.nrows(), 0);
        assert_eq!((light.n(), full.x_u.nrows()), (2 * (n_l + n_u), 2 * n_u));
        assert!(light.c_l == full.c_l && light.c_u == full.c_u && light.rhs == full.rhs);
        for q in [QldsParams::new(0.5, 1.0), QldsParams::new(1.0, 0.0)] {
            let q = q.check().unwrap();
            let (a, b) = (q.fit(&p).unwrap(), q.fit_prepared(&full).unwrap());
            assert!(a.omega == b.omega && a.lambda == b.lambda, "d = {d}");
        }
    }
}

/// λ from the tiles of C_l + C_u (the sum never formed) and ω from the system formed in place
/// of C_u have the bits of the plain steps (the formed sum's top eigenvalue, the system in a
/// fresh matrix), and so have the scores, in rayon pools of 1 and 2 threads.
#[test]
fn fit_has_the_bits_of_the_plain_steps_at_1_and_2_threads() {
    use crate::linalg::{spd_solve_in_place, top_eigenvalue};
    for (d, n_l, n_u) in [(600, 50, 950), (300, 20, 500), (13, 3, 40)] {
        let p = problem(d, n_l, n_u, 1.5, 11);
        let m = Moments::new(&p).unwrap();
        let top = top_eigenvalue((&m.c_l + &m.c_u).as_ref(), "test").unwrap();
        let lambda = (1.0 + LambdaPolicy::EPSILON) * top;
        let mut a = faer::Mat::<f64>::zeros(d, d);
        for j in 0..d {
            for i in j..d {
                a[(i, j)] = 0.5 * m.c_l[(i, j)] - 1.0 * m.c_u[(i, j)];
            }
            a[(j, j)] += lambda;
        }
        let mut omega = m.rhs.clone();
        spd_solve_in_place(a.as_mut(), &mut omega, "test").unwrap();
        let q = QldsParams::new(0.5, 1.0).check().unwrap();
        let x_u = raw_unlabeled(&p);
        let in_pool = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| {
                let f = q.fit(&p).unwrap();
                (f.lambda, f.omega.clone(), f.scores(x_u.view()))
            })
        };
        let one = in_pool(1);
        assert_eq!(one.0.to_bits(), lambda.to_bits(), "d = {d}");
        assert!(one.1.iter().zip(omega.col(0).iter()).all(|(a, b)| a.to_bits() == b.to_bits()));
        let two = in_pool(2);
        assert_eq!(one.0.to_bits(), two.0.to_bits(), "d = {d}");
        let bits = |v: &Array1<f64>| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert!(bits(&one.1) == bits(&two.1) && bits(&one.2) == bits(&two.2), "d = {d}");
    }
}
