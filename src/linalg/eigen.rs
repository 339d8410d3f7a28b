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
}
