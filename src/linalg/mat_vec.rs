//! The product of a matrix with one vector: by faer, or row by row as ndarray forms it.

use faer::linalg::matmul::matmul;
use faer::{Accum, ColMut, ColRef, MatRef};
use ndarray::linalg::general_mat_vec_mul;
use ndarray::{Array1, ArrayView1, ArrayView2, ArrayViewMut1, s};
use rayon::prelude::*;

/// Rows per task of [`row_dots`].
const ROWS: usize = 256;
/// The fewest entries of X whose rows [`row_dots`] shares among threads.
const PARALLEL_ENTRIES: usize = 1 << 20;

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

/// X w, each entry x_i · w with the bits of ndarray's `x.dot(&w)`; for a large X its rows
/// go in fixed tasks of [`ROWS`] shared among threads (each row's sum unchanged).
pub fn row_dots(x: ArrayView2<'_, f64>, w: ArrayView1<'_, f64>) -> Array1<f64> {
    if x.len() < PARALLEL_ENTRIES || rayon::current_num_threads() == 1 {
        return x.dot(&w);
    }
    let mut out = Array1::zeros(x.nrows());
    let slots = out.as_slice_mut().expect("a fresh array is contiguous");
    slots.par_chunks_mut(ROWS).enumerate().for_each(|(task, slots)| {
        // Scalar code on a thread where faer's kernels may have run.
        super::clear_upper_simd();
        let rows = x.slice(s![task * ROWS..task * ROWS + slots.len(), ..]);
        general_mat_vec_mul(1.0, &rows, &w, 0.0, &mut ArrayViewMut1::from(slots));
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bits of ndarray's product at 1 and 2 threads, below and above the threshold, with
    /// a partial last task and a strided view.
    #[test]
    fn row_dots_have_the_bits_of_ndarrays_product() {
        for (n, d) in [(7, 3), (1900, 100), (2100, 1000)] {
            let x = ndarray::Array2::from_shape_fn((n, d), |(i, j)| ((i * 7 + j * 3) as f64).sin());
            let w = Array1::from_shape_fn(d, |j| (j as f64 * 0.7).cos() - 0.1);
            for view in [x.view(), x.slice(s![.., ..;2])] {
                let w = w.slice(s![..view.ncols()]);
                let want = view.dot(&w);
                for threads in [1, 2] {
                    let pool =
                        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                    let got = pool.install(|| row_dots(view, w));
                    let bits = |v: &Array1<f64>| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&got), bits(&want), "{n} × {d}, {threads} threads");
                }
            }
        }
    }
}
