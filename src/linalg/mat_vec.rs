//! The product of a matrix with one vector, by faer.

use faer::linalg::matmul::matmul;
use faer::{Accum, ColMut, ColRef, MatRef};

/// out = A x.
pub fn mat_vec(a: MatRef<'_, f64>, x: &[f64], out: &mut [f64]) {
    matmul(
        ColMut::from_slice_mut(out).as_mat_mut(),
        Accum::Replace,
        a,
        ColRef::from_slice(x).as_mat(),
        1.0,
        faer::get_global_parallelism(),
    );
}
