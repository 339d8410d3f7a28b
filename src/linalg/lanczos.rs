//! The largest eigenvalue of a symmetric matrix by Lanczos with full reorthogonalisation:
//! a few matrix-vector products instead of a full tridiagonalisation.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, Par, Side};

use super::{SymPacked, clear_upper_simd, column};

/// Stop when the Ritz residual β·|s_last| is below this fraction of the Ritz value.
const TOLERANCE: f64 = 1e-13;
/// Check convergence every this many steps (each check solves the small tridiagonal problem).
const CHECK_EVERY: usize = 4;

/// λ_max of the exactly symmetric `a` when Lanczos converges within `max_steps` steps
/// (deterministic start vector), None otherwise (the caller falls back to a dense solver).
/// Its products read `a` as lower tiles ([`SymPacked`]: half the bytes, faer's bits).
pub fn lanczos_top(a: &SymPacked<'_>, max_steps: usize) -> Option<f64> {
    let d = a.dim();
    let steps = max_steps.min(d);
    if steps == 0 {
        return None;
    }
    // Room for every Lanczos vector; columns are added (and their pages touched) as needed.
    let mut q = Mat::<f64>::with_capacity(d, steps + 1);
    q.resize_with(d, 1, |_, _| 0.0);
    // A fixed start with no special direction: entries 1 + (i mod 7)/7, normalised.
    let start: Vec<f64> = (0..d).map(|i| 1.0 + (i % 7) as f64 / 7.0).collect();
    let norm = start.iter().map(|v| v * v).sum::<f64>().sqrt();
    for (i, v) in start.iter().enumerate() {
        q[(i, 0)] = v / norm;
    }
    let (mut alpha, mut beta) = (Vec::with_capacity(steps), Vec::with_capacity(steps));
    let mut w = Mat::<f64>::zeros(d, 1);
    let mut coef = Mat::<f64>::zeros(steps, 1);
    for j in 0..steps {
        let out = w.col_mut(0).try_as_col_major_mut().expect("faer columns are contiguous");
        a.mul_vec(column(q.as_ref(), j), out.as_slice_mut());
        alpha.push((0..d).map(|i| q[(i, j)] * w[(i, 0)]).sum::<f64>());
        // Full reorthogonalisation against q_0..q_j, twice ("twice is enough").
        let basis = q.as_ref().subcols(0, j + 1);
        for _ in 0..2 {
            let c = coef.as_mut().subrows_mut(0, j + 1);
            matmul(c, Accum::Replace, basis.transpose(), w.as_ref(), 1.0, Par::Seq);
            matmul(w.as_mut(), Accum::Add, basis, coef.as_ref().subrows(0, j + 1), -1.0, Par::Seq);
        }
        // The loops below are scalar code after faer's products (see `clear_upper_simd`).
        clear_upper_simd();
        let b = w.col(0).norm_l2();
        beta.push(b);
        if (j + 1) % CHECK_EVERY == 0 || j + 1 == steps || b == 0.0 {
            let (theta, last) = ritz_top(&alpha, &beta[..j])?;
            if b * last.abs() <= TOLERANCE * theta.abs() {
                return Some(theta);
            }
        }
        if b == 0.0 {
            return None;
        }
        q.resize_with(d, j + 2, |_, _| 0.0);
        for i in 0..d {
            q[(i, j + 1)] = w[(i, 0)] / b;
        }
    }
    None
}

/// The largest eigenvalue of the tridiagonal (diagonal `alpha`, off-diagonal `beta`) and the
/// last component of its unit eigenvector.
fn ritz_top(alpha: &[f64], beta: &[f64]) -> Option<(f64, f64)> {
    let m = alpha.len();
    let t = Mat::from_fn(m, m, |i, j| match i.abs_diff(j) {
        0 => alpha[i],
        1 => beta[i.min(j)],
        _ => 0.0,
    });
    let evd = t.self_adjoint_eigen(Side::Lower).ok()?;
    let top = m - 1;
    Some((evd.S().column_vector()[top], evd.U()[(m - 1, top)]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Its products have the bits of faer's sequential product with the full matrix, the one
    /// Lanczos used before (sizes of the QLDS benches), so the eigenvalue is unchanged.
    #[test]
    fn packed_products_have_the_bits_of_the_sequential_product() {
        for d in [100, 400, 1000] {
            let b = Mat::from_fn(d, d, |i, j| ((i * 7 + j * 3) as f64 * 0.31).sin());
            let a = Mat::from_fn(d, d, |i, j| b[(i, j)] + b[(j, i)]);
            let x = Mat::from_fn(d, 1, |i, _| ((i * 5) as f64 * 0.7).cos() - 0.1);
            let mut want = Mat::<f64>::zeros(d, 1);
            matmul(want.as_mut(), Accum::Replace, a.as_ref(), x.as_ref(), 1.0, Par::Seq);
            let mut got = Mat::<f64>::zeros(d, 1);
            let out = got.col_mut(0).try_as_col_major_mut().expect("contiguous").as_slice_mut();
            SymPacked::new(a.as_ref()).mul_vec(column(x.as_ref(), 0), out);
            assert!(got == want, "d = {d}");
        }
    }

    #[test]
    fn agrees_with_the_dense_solver() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for (n, d, spike) in [(600, 120, 2.0), (300, 200, 0.0), (50, 40, 5.0)] {
            // A sample covariance with a mean spike (or none: a flat top of the spectrum).
            let x = Mat::<f64>::from_fn(n, d, |_, j| {
                rng.random_range(-1.0..1.0) + if j < 3 { spike } else { 0.0 }
            });
            let c = x.transpose() * &x * (1.0 / n as f64);
            let dense = *c.self_adjoint_eigenvalues(Side::Lower).unwrap().last().unwrap();
            if let Some(top) = lanczos_top(&SymPacked::new(c.as_ref()), d) {
                assert!((top - dense).abs() <= 1e-12 * dense, "n = {n}, d = {d}: {top} vs {dense}");
            } else {
                assert_eq!(spike, 0.0, "Lanczos failed on a well separated top eigenvalue");
            }
        }
        assert_eq!(
            lanczos_top(&SymPacked::new(faer::mat![[2.0, 1.0], [1.0, 2.0]].as_ref()), 2)
                .map(|v| (v - 3.0).abs() < 1e-14),
            Some(true)
        );
    }
}
