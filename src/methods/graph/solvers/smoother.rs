//! The kernel smoother M = K(λI + rK + γLK)⁻¹ = (λK⁻¹ + rI + γL)⁻¹ (symmetric), the
//! fixed matrix of every RKHS sub-problem with a quadratic coupling ‖f − t‖²; factored once.

use std::borrow::Cow;

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt;
use faer::linalg::lu::partial_pivoting as lu;
use faer::{Conj, Mat, MatMut, MatRef, Par};

use crate::error::{Error, Result};
use crate::methods::graph::laplacian_times;
use crate::methods::graph::prepared::Prepared;

/// M for the given λ, r and Laplacian weight γ: the copy kept by
/// [`Prepared::add_smoother`] if any, else computed now (on this thread).
pub(crate) fn smoother(
    prep: &Prepared,
    lambda: f64,
    r: f64,
    gamma: f64,
) -> Result<Cow<'_, Mat<f64>>> {
    match prep.cached_smoother(lambda, r, gamma) {
        Some(m) => Ok(Cow::Borrowed(m)),
        None => compute(prep, lambda, r, gamma, 1).map(Cow::Owned),
    }
}

/// Computes M (γ = 0 needs no graph): a Cholesky solve, or an LU solve when γ > 0. With
/// `threads` > 1, faer's factorisation and solve run on a pool of that many threads (its
/// own, so that the cores of callers waiting for M work on it); the bits are those of one
/// thread.
pub fn compute(
    prep: &Prepared,
    lambda: f64,
    r: f64,
    gamma: f64,
    threads: usize,
) -> Result<Mat<f64>> {
    if threads > 1 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| Error::Data(format!("cannot start thread pool: {e}")))?;
        // From a thread outside every pool: a rayon worker waiting in `install` would take
        // other tasks meanwhile, and one of them may wait for this very M (a deadlock).
        return std::thread::scope(|s| {
            s.spawn(|| pool.install(|| compute_with(prep, (lambda, r, gamma), Par::rayon(threads))))
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        });
    }
    compute_with(prep, (lambda, r, gamma), Par::Seq)
}

/// [`compute`] with faer's parallelism `par`.
fn compute_with(
    prep: &Prepared,
    (lambda, r, gamma): (f64, f64, f64),
    par: Par,
) -> Result<Mat<f64>> {
    let (n, k) = (prep.n(), prep.gram.dense()?);
    // K(λI + rK + γLK)⁻¹ = (λI + rK + γKL)⁻¹ K, and KL = (LK)ᵀ.
    let mut m = k.clone();
    if gamma == 0.0 {
        let l = shifted_llt(k, lambda, r, par, "kernel smoother λI + rK")?;
        llt_solve(l.as_ref(), m.as_mut(), par);
    } else {
        let lk = laplacian_times(prep.graph()?, k);
        let a = Mat::from_fn(n, n, |i, j| {
            r * k[(i, j)] + gamma * lk[(j, i)] + if i == j { lambda } else { 0.0 }
        });
        lu_solve(a, m.as_mut(), par);
    }
    Ok(Mat::from_fn(n, n, |i, j| 0.5 * (m[(i, j)] + m[(j, i)])))
}

/// The expansion coefficients α = B⁻¹ v of f = M v = K α, B = λI + rK + γLK: M = K B⁻¹ is
/// symmetric, so Bᵀ M = K gives B⁻¹ = (I − rM − γLM)/λ and α = (v − r f − γ L f)/λ from f
/// alone (no solve with the often ill-conditioned K). `v` holds the first v.len() entries
/// of the right-hand side (zeros after); the graph is read when γ > 0.
pub(crate) fn coefficients(
    prep: &Prepared,
    v: &[f64],
    f: &[f64],
    (lambda, r, gamma): (f64, f64, f64),
) -> Result<Vec<f64>> {
    let lf = match gamma {
        0.0 => Mat::zeros(f.len(), 1),
        _ => laplacian_times(prep.graph()?, &Mat::from_fn(f.len(), 1, |i, _| f[i])),
    };
    Ok((0..f.len())
        .map(|i| (v.get(i).copied().unwrap_or(0.0) - r * f[i] - gamma * lf[(i, 0)]) / lambda)
        .collect())
}

/// The Cholesky factor L of λI + rK (lower triangle, zeros above), as faer's `Llt` computes
/// it with parallelism `par` (`context` names the caller in its error).
pub(crate) fn shifted_llt(
    k: &Mat<f64>,
    lambda: f64,
    r: f64,
    par: Par,
    context: &'static str,
) -> Result<Mat<f64>> {
    let n = k.nrows();
    let mut l = Mat::from_fn(n, n, |i, j| match i >= j {
        true => r * k[(i, j)] + if i == j { lambda } else { 0.0 },
        false => 0.0,
    });
    let mut mem = MemBuffer::new(llt::factor::cholesky_in_place_scratch::<f64>(n, par, default()));
    llt::factor::cholesky_in_place(
        l.as_mut(),
        Default::default(),
        par,
        MemStack::new(&mut mem),
        default(),
    )
    .map_err(|e| Error::Linalg { context, message: format!("not positive definite ({e:?})") })?;
    (0..n).for_each(|j| (0..j).for_each(|i| l[(i, j)] = 0.0));
    Ok(l)
}

/// Solves L Lᵀ X = B in place of B (`b`), as faer's `Llt::solve_in_place`.
pub(crate) fn llt_solve(l: MatRef<'_, f64>, b: MatMut<'_, f64>, par: Par) {
    let mut mem =
        MemBuffer::new(llt::solve::solve_in_place_scratch::<f64>(l.nrows(), b.ncols(), par));
    llt::solve::solve_in_place_with_conj(l, Conj::No, b, par, MemStack::new(&mut mem));
}

/// Solves A X = B in place of B by LU with partial pivoting, as faer's `PartialPivLu`.
fn lu_solve(mut a: Mat<f64>, b: MatMut<'_, f64>, par: Par) {
    let n = a.nrows();
    let (mut fwd, mut bwd) = (vec![0usize; n], vec![0usize; n]);
    let mut mem =
        MemBuffer::new(lu::factor::lu_in_place_scratch::<usize, f64>(n, n, par, default()));
    let (_, perm) = lu::factor::lu_in_place(
        a.as_mut(),
        &mut fwd,
        &mut bwd,
        par,
        MemStack::new(&mut mem),
        default(),
    );
    // faer's split: U the upper triangle, L the strict lower one with a unit diagonal.
    let mut u = Mat::zeros(n, n);
    u.copy_from_triangular_upper(a.as_ref());
    (0..n).for_each(|j| {
        (0..j).for_each(|i| a[(i, j)] = 0.0);
        a[(j, j)] = 1.0;
    });
    let mut mem =
        MemBuffer::new(lu::solve::solve_in_place_scratch::<usize, f64>(n, b.ncols(), par));
    lu::solve::solve_in_place_with_conj(
        a.as_ref(),
        u.as_ref(),
        perm,
        Conj::No,
        b,
        par,
        MemStack::new(&mut mem),
    );
}

/// faer's default parameters.
fn default<T: Default>() -> T {
    T::default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::graph::tests::blobs;
    use crate::methods::graph::{KnnGraph, RbfKernel, laplacian};

    #[test]
    fn inverse_relation_holds() {
        // M (λK⁻¹ + rI + γL) = I, checked as M(λI + rK + γLK) = K.
        let mut prep = Prepared::new(
            &blobs(2, 10, 3),
            &RbfKernel { scale: 0.5, rank: None },
            Some(&KnnGraph::default()),
        )
        .unwrap();
        let (lambda, r, gamma) = (0.3, 0.7, 0.2);
        let m = smoother(&prep, lambda, r, gamma).unwrap().into_owned();
        let k = prep.gram.dense().unwrap();
        let l = laplacian(prep.graph().unwrap());
        let n = prep.n();
        let b =
            Mat::from_fn(n, n, |i, j| if i == j { lambda } else { 0.0 }) + r * k + gamma * &l * k;
        assert!((&m * &b - k).norm_max() < 1e-8);
        let m0 = smoother(&prep, lambda, r, 0.0).unwrap().into_owned();
        let b0 = Mat::from_fn(n, n, |i, j| if i == j { lambda } else { 0.0 }) + r * k;
        assert!((&m0 * &b0 - k).norm_max() < 1e-8);
        let identity: Vec<usize> = (0..n).collect();
        prep.add_smoother((lambda, r, gamma), &m, &identity);
        assert!(matches!(smoother(&prep, lambda, r, gamma).unwrap(), Cow::Borrowed(c) if c == &m));
    }

    #[test]
    fn reordered_copy_equals_a_fresh_computation() {
        // Permuting the points permutes K, W and the cached smoother: P M Pᵀ.
        let problem = blobs(2, 10, 4);
        let x = ndarray::concatenate(
            ndarray::Axis(0),
            &[problem.x_l.to_dense().view(), problem.x_u.to_dense().view()],
        )
        .unwrap();
        let (kernel, graph) = (RbfKernel::default(), KnnGraph::default());
        let base = Prepared::from_rows(x.view(), vec![], &kernel, Some(&graph)).unwrap();
        let order: Vec<usize> = (0..x.nrows()).rev().collect();
        let mut moved = base.reorder(&order, vec![1.0, -1.0]).unwrap();
        moved.add_smoother((0.1, 1.0, 0.5), &compute(&base, 0.1, 1.0, 0.5, 1).unwrap(), &order);
        let fresh = Prepared::from_rows(
            x.select(ndarray::Axis(0), &order).view(),
            vec![1.0, -1.0],
            &kernel,
            Some(&graph),
        )
        .unwrap();
        assert!((moved.gram.dense().unwrap() - fresh.gram.dense().unwrap()).norm_max() < 1e-12);
        assert_eq!(moved.graph, fresh.graph);
        let m = compute(&fresh, 0.1, 1.0, 0.5, 1).unwrap();
        assert!((moved.cached_smoother(0.1, 1.0, 0.5).unwrap() - &m).norm_max() < 1e-8);
        assert!(base.reorder(&[0, 0], vec![]).is_err());
    }

    #[test]
    fn threads_give_the_same_bits() {
        // Large enough for faer's blocked, parallel factorisations and solves.
        let prep = Prepared::new(
            &blobs(2, 400, 5),
            &RbfKernel { scale: 0.5, rank: None },
            Some(&KnnGraph::default()),
        )
        .unwrap();
        for gamma in [0.0, 0.2] {
            let one = compute(&prep, 0.3, 0.7, gamma, 1).unwrap();
            for threads in [2, 3] {
                let many = compute(&prep, 0.3, 0.7, gamma, threads).unwrap();
                let same = (0..one.ncols()).all(|j| {
                    (0..one.nrows()).all(|i| one[(i, j)].to_bits() == many[(i, j)].to_bits())
                });
                assert!(same, "γ = {gamma}, {threads} threads");
            }
        }
    }

    #[test]
    fn tasks_waiting_for_a_parallel_smoother_do_not_deadlock() {
        // Tasks of a 2-thread pool sharing one M computed on 2 threads (the runner's case): a
        // waiting worker must not take a task that waits for the M it is computing.
        use rayon::prelude::*;
        let prep = Prepared::new(
            &blobs(2, 100, 5),
            &RbfKernel { scale: 0.5, rank: None },
            Some(&KnnGraph::default()),
        )
        .unwrap();
        let store = crate::engine::Store::default();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let sums: Vec<f64> = pool.install(|| {
            (0..6)
                .into_par_iter()
                .with_max_len(1)
                .map(|_| {
                    let threads = rayon::current_num_threads();
                    let m = store.get("m", || compute(&prep, 0.3, 0.7, 0.0, threads)).unwrap();
                    m[(0, 0)]
                })
                .collect()
        });
        assert!(sums.iter().all(|&s| s == sums[0]));
    }
}
