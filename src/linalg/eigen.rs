//! Symmetric eigen-decompositions.

use faer::{Mat, MatRef, Side};

use super::SymPacked;
use super::lanczos::lanczos_top;
use crate::error::{Error, Result};

/// Eigenvalues in nondecreasing order with their eigenvectors as columns of `vectors`.
#[derive(Debug, Clone)]
pub struct SymEigen {
    pub values: Vec<f64>,
    pub vectors: Mat<f64>,
}

/// Full eigen-decomposition of a symmetric matrix.
pub fn sym_eigen(a: MatRef<'_, f64>, context: &'static str) -> Result<SymEigen> {
    let evd = a.self_adjoint_eigen(Side::Lower).map_err(|e| Error::Linalg {
        context,
        message: format!("eigen-decomposition failed: {e:?}"),
    })?;
    let values = evd.S().column_vector().iter().copied().collect();
    Ok(SymEigen { values, vectors: evd.U().to_owned() })
}

/// Largest eigenvalue of a symmetric matrix: by Lanczos (at most d/4 + 20 steps), else by
/// the dense solver.
pub fn top_eigenvalue(a: MatRef<'_, f64>, context: &'static str) -> Result<f64> {
    match lanczos_top(&SymPacked::new(a), a.nrows() / 4 + 20) {
        Some(top) => Ok(top),
        None => dense_top(a, context),
    }
}

/// [`top_eigenvalue`] of A + B (entries a_ij + b_ij), without forming the sum unless the
/// dense solver is needed.
pub fn top_eigenvalue_of_sum(
    a: MatRef<'_, f64>,
    b: MatRef<'_, f64>,
    context: &'static str,
) -> Result<f64> {
    match lanczos_top(&SymPacked::sum(a, b), a.nrows() / 4 + 20) {
        Some(top) => Ok(top),
        None => dense_top((a + b).as_ref(), context),
    }
}

/// The largest eigenvalue by faer's dense symmetric solver.
fn dense_top(a: MatRef<'_, f64>, context: &'static str) -> Result<f64> {
    let values = a
        .self_adjoint_eigenvalues(Side::Lower)
        .map_err(|e| Error::Linalg { context, message: format!("eigenvalues failed: {e:?}") })?;
    values.last().copied().ok_or(Error::Linalg { context, message: "empty matrix".into() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_by_two_closed_form() {
        // [[2,1],[1,2]] has eigenvalues 1 and 3, top vector (1,1)/√2.
        let a = faer::mat![[2.0, 1.0], [1.0, 2.0]];
        let e = sym_eigen(a.as_ref(), "test").unwrap();
        assert!((e.values[0] - 1.0).abs() < 1e-12 && (e.values[1] - 3.0).abs() < 1e-12);
        let v = e.vectors.col(1);
        assert!((v[0].abs() - 0.5f64.sqrt()).abs() < 1e-12 && (v[0] - v[1]).abs() < 1e-12);
        assert!((top_eigenvalue(a.as_ref(), "test").unwrap() - 3.0).abs() < 1e-12);
    }

    /// The tiles of A + B give the products of the formed sum bit for bit, and so its top
    /// eigenvalue, built by one or two threads (sizes below and above the tiles' threshold
    /// for threads, partial tiles).
    #[test]
    fn sum_has_the_bits_of_the_formed_sum() {
        for n in [5, 67, 300, 1001] {
            let sym = |s: f64| {
                let b = Mat::from_fn(n, n, |i, j| ((i * 7 + j * 3) as f64 * s).sin() * 1e3);
                Mat::from_fn(n, n, |i, j| 0.5 * (b[(i, j)] + b[(j, i)]))
            };
            let (a, b) = (sym(0.31), sym(0.17));
            let x: Vec<f64> = (0..n).map(|i| ((i * 5) as f64 * 0.7).cos() - 0.1).collect();
            let mut want = vec![0.0; n];
            SymPacked::new((&a + &b).as_ref()).mul_vec(&x, &mut want);
            for threads in [1, 2] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let mut got = vec![0.0; n];
                pool.install(|| SymPacked::sum(a.as_ref(), b.as_ref()).mul_vec(&x, &mut got));
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&got), bits(&want), "n = {n}, {threads} threads");
                let (sum, formed) = pool.install(|| {
                    let formed = top_eigenvalue((&a + &b).as_ref(), "test").unwrap();
                    (top_eigenvalue_of_sum(a.as_ref(), b.as_ref(), "test").unwrap(), formed)
                });
                assert_eq!(sum.to_bits(), formed.to_bits(), "n = {n}, {threads} threads");
            }
        }
    }
}
