//! Cholesky solves of symmetric positive-definite systems.

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt::{factor, solve};
use faer::{Conj, Mat, MatMut, MatRef, Par};

use crate::error::{Error, Result};

/// Solves `a x = b` in place for symmetric positive-definite `a` (lower triangle read).
pub fn spd_solve(a: MatRef<'_, f64>, b: &mut Mat<f64>, context: &'static str) -> Result<()> {
    let mut l = Mat::<f64>::zeros(a.nrows(), a.ncols());
    l.copy_from_triangular_lower(a);
    spd_solve_in_place(l.as_mut(), b, context)
}

/// [`spd_solve`] factoring `a` in place (its lower triangle becomes the Cholesky factor; the
/// strict upper one must be zero, as faer's `llt` leaves it): faer's sequential `llt` and
/// its solve, bit for bit, without their copy of `a`. Always sequential: faer's parallel
/// factorisation sums in another order from d ≈ 500 on (so results would depend on the
/// thread count), and below that its threads' start-up costs more than they save.
pub fn spd_solve_in_place(
    mut a: MatMut<'_, f64>,
    b: &mut Mat<f64>,
    context: &'static str,
) -> Result<()> {
    let par = Par::Seq;
    let scratch = factor::cholesky_in_place_scratch::<f64>(a.nrows(), par, Default::default())
        .or(solve::solve_in_place_scratch::<f64>(a.nrows(), b.ncols(), par));
    let mut mem = MemBuffer::new(scratch);
    let stack = MemStack::new(&mut mem);
    factor::cholesky_in_place(a.as_mut(), Default::default(), par, stack, Default::default())
        .map_err(|e| Error::Linalg {
            context,
            message: format!("matrix is not positive definite ({e:?})"),
        })?;
    solve::solve_in_place_with_conj(a.as_ref(), Conj::No, b.as_mut(), par, stack);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_and_rejects_indefinite() {
        let a = faer::mat![[4.0, 1.0], [1.0, 3.0]];
        let mut b = faer::mat![[1.0], [2.0]];
        spd_solve(a.as_ref(), &mut b, "test").unwrap();
        // Cramer: det 11, x = (3·1 − 1·2, 4·2 − 1·1)/11.
        assert!((b[(0, 0)] - 1.0 / 11.0).abs() < 1e-12);
        assert!((b[(1, 0)] - 7.0 / 11.0).abs() < 1e-12);
        let bad = faer::mat![[1.0, 2.0], [2.0, 1.0]];
        assert!(spd_solve(bad.as_ref(), &mut b, "test").is_err());
    }

    /// The in-place factorisation gives faer's `llt` solve bit for bit (sizes of the QLDS
    /// benches up to d = 400, where faer's parallel and sequential factorisations agree, a
    /// few right-hand sides); at d = 1,000 the same bits in rayon pools of 1 and 2 threads,
    /// and a small residual.
    #[test]
    fn in_place_has_the_bits_of_faers_llt() {
        let system = |d: usize, k: usize| {
            let x = Mat::from_fn(d + 5, d, |i, j| ((i * 7 + j * 3) as f64 * 0.37).sin());
            let a = x.transpose() * &x + Mat::<f64>::identity(d, d);
            (a, Mat::from_fn(d, k, |i, j| ((i + 5 * j) as f64 * 0.7).cos()))
        };
        let solve = |a: &Mat<f64>, b: &Mat<f64>| {
            let mut lower = Mat::<f64>::zeros(a.nrows(), a.nrows());
            lower.copy_from_triangular_lower(a.as_ref());
            let mut got = b.clone();
            spd_solve_in_place(lower.as_mut(), &mut got, "test").unwrap();
            got
        };
        for (d, k) in [(100, 1), (400, 1), (37, 3)] {
            let (a, b) = system(d, k);
            let mut want = b.clone();
            let llt = a.llt(faer::Side::Lower).unwrap();
            faer::linalg::solvers::Solve::solve_in_place(&llt, want.as_mut());
            assert!(solve(&a, &b) == want, "d = {d}");
        }
        let (a, b) = system(1000, 1);
        let in_pool = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| solve(&a, &b))
        };
        let got = in_pool(1);
        assert!(got == in_pool(2));
        assert!((&a * &got - &b).norm_max() < 1e-9);
    }
}
