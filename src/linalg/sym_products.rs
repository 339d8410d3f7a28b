//! Several products with one symmetric matrix, g_k += α_k A ω_k, reading A once for all k,
//! bit for bit as faer computes each alone.

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, Par};
use ndarray::{ArrayView1, ArrayView2, Axis};

use super::view;

/// For each k: `g[k]` += `alpha[k]` · Aᵀ `w[k]` (= A `w[k]` for the symmetric A this is
/// for), A = `a` (d × d), each exactly as faer's product of Aᵀ (a column-major view of a
/// row-major A) with ω alone: row j of A adds A_{j,:} (ω_j α) to every entry with one
/// fused multiply-add, rows in order. On a CPU with AVX2 and FMA,
/// with `a` row-major and contiguous, one pass over A serves every k; otherwise faer runs
/// once per k. Panics unless the lengths agree.
pub fn add_sym_products(a: ArrayView2<f64>, w: &[&[f64]], alpha: &[f64], g: &mut [&mut [f64]]) {
    let d = a.nrows();
    assert!(a.ncols() == d && w.len() == alpha.len() && g.len() == alpha.len());
    assert!(w.iter().all(|w| w.len() == d) && g.iter().all(|g| g.len() == d));
    #[cfg(target_arch = "x86_64")]
    if let Some(rows) = a.as_slice()
        && std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("fma")
    {
        // SAFETY: the CPU has AVX2 and FMA.
        unsafe { fused(rows, d, w, alpha, g) };
        return;
    }
    for ((w, &alpha), g) in w.iter().zip(alpha).zip(g.iter_mut()) {
        matmul(
            MatMut::from_column_major_slice_mut(g, d, 1),
            Accum::Add,
            view(&a.t()),
            view(&ArrayView1::from(*w).insert_axis(Axis(1))),
            alpha,
            Par::Seq,
        );
    }
}

/// The one-pass loop over the rows of the row-major `a`: four rows at a time, each entry
/// of g taking their four fused multiply-adds in row order (one load and store of g per
/// four rows), then the remaining rows one by one.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn fused(a: &[f64], d: usize, w: &[&[f64]], alpha: &[f64], g: &mut [&mut [f64]]) {
    let blocks = a.chunks_exact(4 * d);
    let done = blocks.len() * 4;
    for (b, rows) in blocks.enumerate() {
        let (a0, rest) = rows.split_at(d);
        let (a1, rest) = rest.split_at(d);
        let (a2, a3) = rest.split_at(d);
        let (a0, a1, a2, a3) = (&a0[..d], &a1[..d], &a2[..d], &a3[..d]);
        for ((w, &alpha), g) in w.iter().zip(alpha).zip(g.iter_mut()) {
            let j = 4 * b;
            let r = [w[j] * alpha, w[j + 1] * alpha, w[j + 2] * alpha, w[j + 3] * alpha];
            let g = &mut g[..d];
            for i in 0..d {
                let x = a0[i].mul_add(r[0], g[i]);
                let x = a1[i].mul_add(r[1], x);
                let x = a2[i].mul_add(r[2], x);
                g[i] = a3[i].mul_add(r[3], x);
            }
        }
    }
    for (j, row) in a.chunks_exact(d).enumerate().skip(done) {
        for ((w, &alpha), g) in w.iter().zip(alpha).zip(g.iter_mut()) {
            let r = w[j] * alpha;
            for (g, &x) in g.iter_mut().zip(row) {
                *g = x.mul_add(r, *g);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::Array2;

    #[test]
    fn products_match_faer_alone_bit_for_bit() {
        // Sizes with and without a tail after 4- and 8-wide registers; three vectors; A
        // symmetric up to rounding (as C_u is).
        for d in [1, 3, 5, 13, 64, 123, 400] {
            let b =
                Array2::from_shape_fn((d, d), |(i, j)| ((i * 31 + j * 17) as f64 * 0.173).sin());
            let a = b.t().dot(&b) / d as f64;
            let ws: Vec<Vec<f64>> = (0..3)
                .map(|k| (0..d).map(|j| ((j + 7 * k) as f64 * 0.61).cos()).collect())
                .collect();
            let alpha = [-0.2, -1.8, -10.0];
            let start: Vec<f64> = (0..d).map(|i| (i as f64 * 0.29).sin()).collect();
            let mut got = vec![start.clone(); 3];
            let w: Vec<&[f64]> = ws.iter().map(Vec::as_slice).collect();
            let mut g: Vec<&mut [f64]> = got.iter_mut().map(Vec::as_mut_slice).collect();
            add_sym_products(a.view(), &w, &alpha, &mut g);
            for k in 0..3 {
                let mut want = start.clone();
                matmul(
                    MatMut::from_column_major_slice_mut(&mut want, d, 1),
                    Accum::Add,
                    view(&a.t()),
                    view(&ArrayView1::from(&ws[k]).insert_axis(Axis(1))),
                    alpha[k],
                    Par::Seq,
                );
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&got[k]), bits(&want), "d = {d}, vector {k}");
            }
        }
    }
}
