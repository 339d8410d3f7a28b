//! One pass over a matrix's rows for gradients of Σ_i f(x_iᵀw): each row's product with w,
//! then a multiple of the row (a function of that product) added to g. Rows go in blocks of
//! four that share one load and store of g. Every sum is done in the order of ndarray's `dot`
//! (eight partial sums, then the tail) and of `scaled_add` row after row, so the result is
//! bit-identical to that row-at-a-time loop (no fused multiply-adds: Rust never contracts).

use ndarray::ArrayView2;

use super::unrolled::{LANES, reduce};
use super::{Kernel, widest};

/// Rows per block.
const BLOCK: usize = 4;

/// For each row x_i of `x` in order: g += coef(i, x_iᵀw)·x_i, as
/// `let c = coef(i, x_i.dot(&w)); g.scaled_add(c, &x_i)` would, bit for bit. `coef` is
/// called once per row, in row order. Runs on the widest vector unit the CPU has (AVX-512,
/// AVX2, else the baseline): IEEE sums and products round the same in every width. Panics
/// if the lengths of `w`, `g` and the rows differ.
pub fn row_pass(
    x: ArrayView2<f64>,
    w: &[f64],
    g: &mut [f64],
    mut coef: impl FnMut(usize, f64) -> f64,
) {
    row_pass_many(x, &[w], &mut [g], |_, i, m| coef(i, m));
}

/// [`row_pass`] for several vectors at once: for each k, g_k += coef(k, i, x_iᵀw_k)·x_i over
/// the rows, each g_k bit-identical to `row_pass(x, w_k, g_k, …)`. Each block of rows is read
/// from memory once for all k (with AVX-512, in blocks of four rows × four vectors:
/// [`row_blocks`](super::row_blocks)). `coef` is called once per (k, row), in row order for
/// each k.
/// Panics if the numbers of `ws` and `gs`, or the lengths of the vectors and rows, differ.
pub fn row_pass_many(
    x: ArrayView2<f64>,
    ws: &[&[f64]],
    gs: &mut [&mut [f64]],
    mut coef: impl FnMut(usize, usize, f64) -> f64,
) {
    let d = x.ncols();
    assert!(ws.len() == gs.len(), "row_pass: {} vectors, {} gradients", ws.len(), gs.len());
    assert!(
        ws.iter().all(|w| w.len() == d) && gs.iter().all(|g| g.len() == d),
        "row_pass: lengths differ"
    );
    if ws.is_empty() {
        return;
    }
    if d == 0 {
        for k in 0..ws.len() {
            (0..x.nrows()).for_each(|i| _ = coef(k, i, 0.0));
        }
        return;
    }
    let x = x.as_standard_layout();
    let data = x.as_slice().expect("a standard-layout array is contiguous");
    #[cfg(target_arch = "x86_64")]
    if super::simd::level() >= super::Level::Avx512 {
        // SAFETY: the CPU has AVX-512F; the counts and lengths were checked above.
        unsafe { super::row_blocks::pass(data, ws, gs, &mut coef) };
        return;
    }
    widest(Pass { data, ws, gs, coef });
}

/// [`row_pass_many`] as a [`Kernel`].
struct Pass<'a, 'g, F> {
    data: &'a [f64],
    ws: &'a [&'a [f64]],
    gs: &'a mut [&'g mut [f64]],
    coef: F,
}

impl<F: FnMut(usize, usize, f64) -> f64> Kernel for Pass<'_, '_, F> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        pass(self.data, self.ws, self.gs, self.coef)
    }
}

/// [`row_pass_many`] on the rows of `data` (row-major, `ws[k].len()` > 0 columns).
#[inline(always)]
fn pass(
    data: &[f64],
    ws: &[&[f64]],
    gs: &mut [&mut [f64]],
    mut coef: impl FnMut(usize, usize, f64) -> f64,
) {
    let d = ws[0].len();
    let mut blocks = data.chunks_exact(BLOCK * d);
    let mut i = 0;
    for b in &mut blocks {
        let rows: [&[f64]; BLOCK] = std::array::from_fn(|r| &b[r * d..(r + 1) * d]);
        for (k, (w, g)) in ws.iter().zip(gs.iter_mut()).enumerate() {
            let mut c = dots(rows, w);
            for r in 0..BLOCK {
                c[r] = coef(k, i + r, c[r]);
            }
            add_rows(g, rows, c);
        }
        i += BLOCK;
    }
    for row in blocks.remainder().chunks_exact(d) {
        for (k, (w, g)) in ws.iter().zip(gs.iter_mut()).enumerate() {
            let c = coef(k, i, dots([row], w)[0]);
            add_rows(g, [row], [c]);
        }
        i += 1;
    }
}

/// x_rᵀw of each row, each in [`dot`]'s order: on AVX2 the rows' partial sums are
/// interleaved in 4-lane registers (independent chains of additions that overlap).
#[inline(always)]
fn dots<const R: usize>(x: [&[f64]; R], w: &[f64]) -> [f64; R] {
    #[cfg(target_arch = "x86_64")]
    if super::simd::level() >= super::Level::Avx2 {
        // SAFETY: the CPU has AVX2.
        return unsafe { dots_avx2(x, w) };
    }
    std::array::from_fn(|r| dot(x[r], w))
}

/// [`dots`] on AVX2: lanes 0–3 and 4–7 of `dot`'s eight partial sums in two registers per
/// row (the same IEEE products and sums, in the same order). 256-bit, not 512: the AVX-512
/// version measured 5 % slower on the faer products that follow it (quadratic margin).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dots_avx2<const R: usize>(x: [&[f64]; R], w: &[f64]) -> [f64; R] {
    use std::arch::x86_64::{__m256d, _mm256_add_pd, _mm256_loadu_pd, _mm256_mul_pd};
    use std::arch::x86_64::{_mm256_setzero_pd, _mm256_storeu_pd};
    let d = w.len();
    assert!(x.iter().all(|r| r.len() == d), "dots: lengths differ");
    let body = d - d % LANES;
    let mut p: [[__m256d; 2]; R] = [[_mm256_setzero_pd(); 2]; R];
    for j in (0..body).step_by(LANES) {
        // SAFETY: j + LANES ≤ body ≤ d, the length of w and of every row.
        let y =
            unsafe { [_mm256_loadu_pd(w.as_ptr().add(j)), _mm256_loadu_pd(w.as_ptr().add(j + 4))] };
        for r in 0..R {
            for h in 0..2 {
                // SAFETY: as above.
                let v = unsafe { _mm256_loadu_pd(x[r].as_ptr().add(j + 4 * h)) };
                p[r][h] = _mm256_add_pd(p[r][h], _mm256_mul_pd(v, y[h]));
            }
        }
    }
    // One store per register after the loop (a closure reading `p` kept it in memory).
    let mut q = [[0.0; LANES]; R];
    for r in 0..R {
        // SAFETY: q[r] holds LANES = 8 values, written in two halves of 4.
        unsafe {
            _mm256_storeu_pd(q[r].as_mut_ptr(), p[r][0]);
            _mm256_storeu_pd(q[r].as_mut_ptr().add(4), p[r][1]);
        }
    }
    let mut out = [0.0; R];
    for r in 0..R {
        out[r] = reduce(&q[r], &x[r][body..], &w[body..]);
    }
    out
}

/// xᵀw in `unrolled_dot`'s order.
#[inline(always)]
fn dot(x: &[f64], w: &[f64]) -> f64 {
    let (x, y) = (x.chunks_exact(LANES), w.chunks_exact(LANES));
    let (tx, ty) = (x.remainder(), y.remainder());
    let mut p = [0.0; LANES];
    for (x, y) in x.zip(y) {
        for k in 0..LANES {
            p[k] += x[k] * y[k];
        }
    }
    reduce(&p, tx, ty)
}

/// g += c_0 x_0, then c_1 x_1, … (one load and store of g per block).
#[inline(always)]
fn add_rows<const R: usize>(g: &mut [f64], rows: [&[f64]; R], c: [f64; R]) {
    let n = g.len();
    let rows: [&[f64]; R] = std::array::from_fn(|r| &rows[r][..n]);
    for (j, gj) in g.iter_mut().enumerate() {
        let mut s = *gj;
        for r in 0..R {
            s += c[r] * rows[r][j];
        }
        *gj = s;
    }
}

#[cfg(test)]
mod tests {
    use ndarray::{Array1, Array2, s};
    use rand::{Rng, SeedableRng};

    use super::*;

    /// The row-at-a-time loop of ndarray's `dot` and `scaled_add`.
    fn reference(x: ArrayView2<f64>, w: &Array1<f64>, g: &mut Array1<f64>) -> Vec<f64> {
        let mut seen = Vec::new();
        for row in x.rows() {
            let m = row.dot(w);
            seen.push(m);
            g.scaled_add((1.3 * m).sin(), &row);
        }
        seen
    }

    #[test]
    fn bit_identical_to_ndarray_rows_for_every_tail() {
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for (n, d) in [(0, 5), (1, 1), (3, 7), (4, 8), (9, 17), (13, 400), (64, 123), (5, 0)] {
            let x = Array2::from_shape_fn((n, d), |_| rng.random_range(-3.0..3.0));
            let w = Array1::from_shape_fn(d, |_| rng.random_range(-1.0..1.0) * 1e3);
            let g0 = Array1::from_shape_fn(d, |_| rng.random_range(-1.0..1.0));
            let mut expected = g0.clone();
            let seen = reference(x.view(), &w, &mut expected);
            // The dispatched kernel (the widest unit) and the baseline one.
            for widest in [true, false] {
                let (mut g, mut got) = (g0.clone(), Vec::new());
                let coef = |i, m: f64| {
                    got.push((i, m));
                    (1.3 * m).sin()
                };
                let (ws, gs) = (w.as_slice().unwrap(), g.as_slice_mut().unwrap());
                let mut coef = coef;
                match widest || d == 0 {
                    true => row_pass(x.view(), ws, gs, coef),
                    false => pass(x.as_slice().unwrap(), &[ws], &mut [gs], |_, i, m| coef(i, m)),
                }
                let order: Vec<usize> = got.iter().map(|p| p.0).collect();
                assert_eq!(order, (0..n).collect::<Vec<_>>(), "n={n} d={d}");
                let products: Vec<f64> = got.iter().map(|p| p.1).collect();
                assert_eq!(bits(&products), bits(&seen), "products, n={n} d={d}");
                assert_eq!(bits(g.as_slice().unwrap()), bits(expected.as_slice().unwrap()));
            }
        }
    }

    #[test]
    fn many_vectors_match_ndarray_rows_each() {
        // 1-9 vectors: full groups of four and every remainder; rows with and without a
        // tail after the blocks of four; d with and without a tail after 8 lanes.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        for (n, d) in [(0, 3), (7, 9), (13, 64), (66, 400), (5, 5)] {
            let x = Array2::from_shape_fn((n, d), |_| rng.random_range(-3.0..3.0));
            for count in 1..=9 {
                let ws: Vec<Array1<f64>> = (0..count)
                    .map(|_| Array1::from_shape_fn(d, |_| rng.random_range(-1.0..1.0)))
                    .collect();
                let g0 = Array1::from_shape_fn(d, |_| rng.random_range(-1.0..1.0));
                let (mut gs, mut calls) = (vec![g0.clone(); count], Vec::new());
                let wr: Vec<&[f64]> = ws.iter().map(|w| w.as_slice().unwrap()).collect();
                let mut gr: Vec<&mut [f64]> =
                    gs.iter_mut().map(|g| g.as_slice_mut().unwrap()).collect();
                row_pass_many(x.view(), &wr, &mut gr, |k, i, m| {
                    calls.push((k, i, m));
                    (1.3 * m + k as f64).sin()
                });
                for (k, w) in ws.iter().enumerate() {
                    // The reference with this vector's coefficient.
                    let mut want = g0.clone();
                    let mut seen = Vec::new();
                    for row in x.rows() {
                        let m = row.dot(w);
                        seen.push(m);
                        want.scaled_add((1.3 * m + k as f64).sin(), &row);
                    }
                    let mine: Vec<&(usize, usize, f64)> =
                        calls.iter().filter(|c| c.0 == k).collect();
                    let rows: Vec<usize> = mine.iter().map(|c| c.1).collect();
                    assert_eq!(rows, (0..n).collect::<Vec<_>>(), "n={n} d={d} k={k}/{count}");
                    let products: Vec<f64> = mine.iter().map(|c| c.2).collect();
                    assert_eq!(bits(&products), bits(&seen), "n={n} d={d} k={k}/{count}");
                    assert_eq!(
                        bits(gs[k].as_slice().unwrap()),
                        bits(want.as_slice().unwrap()),
                        "n={n} d={d} k={k}/{count}"
                    );
                }
            }
        }
    }

    #[test]
    fn avx2_dots_match_dot_bit_for_bit() {
        #[cfg(target_arch = "x86_64")]
        if crate::linalg::simd::cpu() >= crate::linalg::Level::Avx2 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
            for d in [1, 7, 8, 9, 60, 123, 400] {
                let v = |rng: &mut rand_chacha::ChaCha8Rng| -> Vec<f64> {
                    (0..d).map(|_| rng.random_range(-1.0..1.0) * 1e3).collect()
                };
                let (w, x) = (v(&mut rng), [v(&mut rng), v(&mut rng), v(&mut rng), v(&mut rng)]);
                let rows: [&[f64]; 4] = std::array::from_fn(|r| x[r].as_slice());
                // SAFETY: the CPU has AVX2.
                let got = unsafe { dots_avx2(rows, &w) };
                for r in 0..4 {
                    assert_eq!(got[r].to_bits(), dot(rows[r], &w).to_bits(), "d={d} r={r}");
                }
            }
        }
    }

    #[test]
    fn reads_views_that_are_not_contiguous() {
        let x = Array2::from_shape_fn((6, 10), |(i, j)| (i * 10 + j) as f64 * 0.37 - 9.0);
        let view = x.slice(s![..;2, 1..9]);
        let w = Array1::from_shape_fn(8, |j| 1.0 / (j as f64 + 1.0));
        let mut expected = Array1::zeros(8);
        reference(view, &w, &mut expected);
        let mut g = vec![0.0; 8];
        row_pass(view, w.as_slice().unwrap(), &mut g, |_, m| (1.3 * m).sin());
        assert_eq!(g, expected.to_vec());
    }
}
