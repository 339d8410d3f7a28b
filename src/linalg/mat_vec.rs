//! The product of a matrix with one vector: by faer, or as ndarray's dot row by row.

use faer::linalg::matmul::matmul;
use faer::{Accum, ColMut, ColRef, MatRef};
use ndarray::{ArrayView1, ArrayView2};
use rayon::prelude::*;

/// Rows per task of [`row_dots`].
const DOT_ROWS: usize = 128;
/// The size (rows × columns) from which [`row_dots`] shares its tasks among threads.
const PARALLEL_DOT_ENTRIES: usize = 200_000;

/// `f(x_i · w)` for each row x_i of `x`, each dot product ndarray's `x_i.dot(&w)` (so the
/// bits of `x.dot(&w)`), in fixed tasks of [`DOT_ROWS`] rows shared among rayon's threads
/// for large `x`: the same numbers at every thread count.
pub fn row_dots(
    x: ArrayView2<'_, f64>,
    w: ArrayView1<'_, f64>,
    f: impl Fn(f64) -> f64 + Sync,
) -> Vec<f64> {
    let mut out = vec![0.0; x.nrows()];
    let task = |(t, out): (usize, &mut [f64])| {
        // Scalar loops: clear the upper register halves faer's kernels may leave dirty.
        super::clear_upper_simd();
        for (k, o) in out.iter_mut().enumerate() {
            *o = f(x.row(t * DOT_ROWS + k).dot(&w));
        }
    };
    if x.len() >= PARALLEL_DOT_ENTRIES {
        out.par_chunks_mut(DOT_ROWS).enumerate().for_each(task);
    } else {
        out.chunks_mut(DOT_ROWS).enumerate().for_each(task);
    }
    out
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::Array2;

    /// Each entry is f of ndarray's row dot product, bit for bit, with 1 and 3 threads, below
    /// and above the parallel size (partial last tasks).
    #[test]
    fn row_dots_have_the_bits_of_ndarrays_product() {
        for (n, d) in [(1900, 400), (37, 5), (300, 1001), (0, 3)] {
            let x = Array2::from_shape_fn((n, d), |(i, j)| ((i * 7 + j * 3) as f64 * 0.37).sin());
            let w = ndarray::Array1::from_shape_fn(d, |j| (j as f64 * 0.7).cos());
            let want = (x.dot(&w) - 0.25) / 3.0;
            for threads in [1, 3] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let got = pool.install(|| row_dots(x.view(), w.view(), |v| (v - 0.25) / 3.0));
                assert!(got == want.to_vec(), "{n} × {d}, {threads} threads");
            }
        }
    }
}
