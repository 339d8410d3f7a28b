//! Several products with one symmetric matrix, g_k += α_k A ω_k, reading A once for all k,
//! bit for bit as faer computes each alone.

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, Par};
use ndarray::{ArrayView1, ArrayView2, Axis};

#[cfg(target_arch = "x86_64")]
use super::groups::balanced_groups;
use super::{Level, view};

/// For each k: `g[k]` += `alpha[k]` · Aᵀ `w[k]` (= A `w[k]` for the symmetric A this is
/// for), A = `a` (d × d), each exactly as faer's product of Aᵀ (a column-major view of a
/// row-major A) with ω alone: row j of A adds A_{j,:} (ω_j α) to every entry with one
/// fused multiply-add, rows in order. On a CPU with AVX2 and FMA,
/// with `a` row-major and contiguous, one pass over A serves every k (with AVX-512, four
/// vectors at a time share each load of A); otherwise faer runs once per k. Panics unless
/// the lengths agree.
pub fn add_sym_products(a: ArrayView2<f64>, w: &[&[f64]], alpha: &[f64], g: &mut [&mut [f64]]) {
    let d = a.nrows();
    assert!(a.ncols() == d && w.len() == alpha.len() && g.len() == alpha.len());
    assert!(w.iter().all(|w| w.len() == d) && g.iter().all(|g| g.len() == d));
    #[cfg(target_arch = "x86_64")]
    if let Some(rows) = a.as_slice()
        && super::simd::level() >= Level::Avx512
    {
        // SAFETY: the CPU has AVX-512F (with its 512-bit fused multiply-add).
        unsafe { fused_blocks(rows, d, w, alpha, g) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(rows) = a.as_slice()
        && super::simd::level() >= Level::Avx2
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
    rows_from(a, d, done, (w, alpha), g);
}

/// [`fused`] on AVX-512 with the vectors in groups of up to four: each entry of the four
/// rows' 8-lane slices is loaded once for the group, which takes it through the same fused
/// multiply-adds in the same order as [`fused`] does vector by vector.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn fused_blocks(a: &[f64], d: usize, w: &[&[f64]], alpha: &[f64], g: &mut [&mut [f64]]) {
    let blocks = a.chunks_exact(4 * d);
    let done = blocks.len() * 4;
    for (b, rows) in blocks.enumerate() {
        let rows: [&[f64]; 4] = std::array::from_fn(|r| &rows[r * d..(r + 1) * d]);
        for range in balanced_groups(w.len(), 4) {
            let (w, alpha, g) = (&w[range.clone()], &alpha[range.clone()], &mut g[range]);
            match w.len() {
                4 => fused_group::<4>(rows, 4 * b, w, alpha, g),
                3 => fused_group::<3>(rows, 4 * b, w, alpha, g),
                2 => fused_group::<2>(rows, 4 * b, w, alpha, g),
                _ => fused_group::<1>(rows, 4 * b, w, alpha, g),
            }
        }
    }
    rows_from(a, d, done, (w, alpha), g);
}

/// The rows of A from `done` on, one after the other: g_c += A_{j,:} (w_c[j] α_c) by fused
/// multiply-adds (the tails of [`fused`] and [`fused_blocks`]).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn rows_from(
    a: &[f64],
    d: usize,
    done: usize,
    (w, alpha): (&[&[f64]], &[f64]),
    g: &mut [&mut [f64]],
) {
    for (j, row) in a.chunks_exact(d).enumerate().skip(done) {
        for ((w, &alpha), g) in w.iter().zip(alpha).zip(g.iter_mut()) {
            let r = w[j] * alpha;
            for (g, &x) in g.iter_mut().zip(row) {
                *g = x.mul_add(r, *g);
            }
        }
    }
}

/// Rows j … j + 3 of A (`rows`) into the C gradients `g`: g_c += Σ_r A_{j+r,:} (w_c[j+r] α_c),
/// one fused multiply-add per entry and row, rows in order.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn fused_group<const C: usize>(
    rows: [&[f64]; 4],
    j: usize,
    w: &[&[f64]],
    alpha: &[f64],
    g: &mut [&mut [f64]],
) {
    use std::arch::x86_64::_mm512_storeu_pd;
    use std::arch::x86_64::{__m512d, _mm512_fmadd_pd, _mm512_loadu_pd, _mm512_set1_pd};
    let d = rows[0].len();
    assert!(rows.iter().all(|r| r.len() == d) && g.iter().all(|g| g.len() == d));
    let r: [[f64; 4]; C] = std::array::from_fn(|c| std::array::from_fn(|i| w[c][j + i] * alpha[c]));
    let rv: [[__m512d; 4]; C] = std::array::from_fn(|c| r[c].map(|x| _mm512_set1_pd(x)));
    let body = d - d % 8;
    for i in (0..body).step_by(8) {
        // SAFETY: i + 8 ≤ body ≤ d, the length of every row and gradient (asserted above).
        let x: [__m512d; 4] =
            std::array::from_fn(|k| unsafe { _mm512_loadu_pd(rows[k].as_ptr().add(i)) });
        for c in 0..C {
            // SAFETY: as above.
            let mut s = unsafe { _mm512_loadu_pd(g[c].as_ptr().add(i)) };
            for k in 0..4 {
                s = _mm512_fmadd_pd(x[k], rv[c][k], s);
            }
            // SAFETY: as above.
            unsafe { _mm512_storeu_pd(g[c].as_mut_ptr().add(i), s) };
        }
    }
    for c in 0..C {
        for i in body..d {
            let s = rows[0][i].mul_add(r[c][0], g[c][i]);
            let s = rows[1][i].mul_add(r[c][1], s);
            let s = rows[2][i].mul_add(r[c][2], s);
            g[c][i] = rows[3][i].mul_add(r[c][3], s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::Array2;

    /// Checks `run` (a product of several vectors) against faer's product of each alone:
    /// sizes with and without a tail after 4- and 8-wide registers, 1 to 9 vectors (groups
    /// of four and every remainder), A symmetric up to rounding (as C_u is).
    fn matches_faer_alone(run: impl Fn(ArrayView2<f64>, &[&[f64]], &[f64], &mut [&mut [f64]])) {
        for d in [1, 3, 5, 13, 64, 123, 400] {
            let b =
                Array2::from_shape_fn((d, d), |(i, j)| ((i * 31 + j * 17) as f64 * 0.173).sin());
            let a = b.t().dot(&b) / d as f64;
            for n in 1..=9 {
                let ws: Vec<Vec<f64>> = (0..n)
                    .map(|k| (0..d).map(|j| ((j + 7 * k) as f64 * 0.61).cos()).collect())
                    .collect();
                let alpha: Vec<f64> = (0..n).map(|k| -0.2 - 1.3 * k as f64).collect();
                let start: Vec<f64> = (0..d).map(|i| (i as f64 * 0.29).sin()).collect();
                let mut got = vec![start.clone(); n];
                let w: Vec<&[f64]> = ws.iter().map(Vec::as_slice).collect();
                let mut g: Vec<&mut [f64]> = got.iter_mut().map(Vec::as_mut_slice).collect();
                run(a.view(), &w, &alpha, &mut g);
                for k in 0..n {
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
                    assert_eq!(bits(&got[k]), bits(&want), "d = {d}, vector {k} of {n}");
                }
            }
        }
    }

    #[test]
    fn products_match_faer_alone_bit_for_bit() {
        matches_faer_alone(add_sym_products);
    }

    #[test]
    fn avx2_products_match_faer_alone_bit_for_bit() {
        // The loop taken on CPUs with AVX2 and FMA but not AVX-512.
        #[cfg(target_arch = "x86_64")]
        if crate::linalg::simd::cpu() >= Level::Avx2 {
            matches_faer_alone(|a, w, alpha, g| {
                let d = a.nrows();
                // SAFETY: the CPU has AVX2 and FMA.
                unsafe { fused(a.as_slice().unwrap(), d, w, alpha, g) }
            });
        }
    }
}
