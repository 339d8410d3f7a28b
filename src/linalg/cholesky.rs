//! Cholesky solves of symmetric positive-definite systems.

use faer::linalg::solvers::Solve;
use faer::{Mat, MatRef, Side};

use crate::error::{Error, Result};

/// Solves `a x = b` in place for symmetric positive-definite `a` (lower triangle read).
pub fn spd_solve(a: MatRef<'_, f64>, b: &mut Mat<f64>, context: &'static str) -> Result<()> {
    let llt = a.llt(Side::Lower).map_err(|e| Error::Linalg {
        context,
        message: format!("matrix is not positive definite ({e:?})"),
    })?;
    llt.solve_in_place(b.as_mut());
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
}
