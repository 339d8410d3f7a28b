//! [`row_pass_many`](super::row_pass_many) on AVX-512: blocks of four rows × up to four
//! vectors. Each vector's products with the block's rows share the rows' loads, and each
//! row's load serves every vector, so a block does 16 products per 8 loads (the one-vector
//! loop: 4 per 5). The sums are those of `row_pass`, bit for bit: a row's product with a
//! vector keeps `unrolled_dot`'s eight partial sums (one 8-lane register) and their
//! combination, and each g adds its multiples of the rows one after the other.

use std::arch::x86_64::{__m512d, _mm512_add_pd, _mm512_loadu_pd, _mm512_mul_pd};
use std::arch::x86_64::{_mm512_set1_pd, _mm512_setzero_pd, _mm512_storeu_pd};

use super::groups::balanced_groups;
use super::unrolled::{LANES, reduce};

/// Rows per block.
const ROWS: usize = 4;
/// Vectors per group of a block.
const GROUP: usize = 4;

/// For each row block of `data` (row-major, `ws[k].len()` = d > 0 columns) and each group of
/// vectors: the products, `coef` of each (vector k, row i), then g_k += Σ_rows coef·x_i.
///
/// # Safety
/// The CPU must have AVX-512F. `ws` and `gs` have equal counts and every vector has length d.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn pass(
    data: &[f64],
    ws: &[&[f64]],
    gs: &mut [&mut [f64]],
    coef: &mut impl FnMut(usize, usize, f64) -> f64,
) {
    let d = ws[0].len();
    assert!(ws.iter().all(|w| w.len() == d) && gs.iter().all(|g| g.len() == d));
    let mut blocks = data.chunks_exact(ROWS * d);
    let mut i = 0;
    for b in &mut blocks {
        let rows: [&[f64]; ROWS] = std::array::from_fn(|r| &b[r * d..(r + 1) * d]);
        block(rows, i, ws, gs, coef);
        i += ROWS;
    }
    for row in blocks.remainder().chunks_exact(d) {
        block([row], i, ws, gs, coef);
        i += 1;
    }
}

/// One block of rows (the first is row `i`) for every vector, in the fewest groups of at
/// most [`GROUP`], their sizes as equal as can be (5 vectors: 3 + 2, not 4 + 1).
#[target_feature(enable = "avx512f")]
fn block<const R: usize>(
    rows: [&[f64]; R],
    i: usize,
    ws: &[&[f64]],
    gs: &mut [&mut [f64]],
    coef: &mut impl FnMut(usize, usize, f64) -> f64,
) {
    for range in balanced_groups(ws.len(), GROUP) {
        let k = range.start;
        let (w, g) = (&ws[range.clone()], &mut gs[range]);
        match w.len() {
            4 => group::<R, 4>(rows, w, g, (k, i), coef),
            3 => group::<R, 3>(rows, w, g, (k, i), coef),
            2 => group::<R, 2>(rows, w, g, (k, i), coef),
            _ => group::<R, 1>(rows, w, g, (k, i), coef),
        }
    }
}

/// The C vectors `w` (the first is vector `at.0`) on the R rows (the first is row `at.1`).
#[target_feature(enable = "avx512f")]
fn group<const R: usize, const C: usize>(
    rows: [&[f64]; R],
    w: &[&[f64]],
    g: &mut [&mut [f64]],
    at: (usize, usize),
    coef: &mut impl FnMut(usize, usize, f64) -> f64,
) {
    let w: [&[f64]; C] = std::array::from_fn(|c| w[c]);
    let mut c = dots::<R, C>(rows, w);
    for (v, c) in c.iter_mut().enumerate() {
        for (r, c) in c.iter_mut().enumerate() {
            *c = coef(at.0 + v, at.1 + r, *c);
        }
    }
    let mut g = g.iter_mut();
    let g: [&mut [f64]; C] = std::array::from_fn(|_| &mut **g.next().expect("C gradients"));
    add_rows(g, rows, c);
}

/// x_rᵀw_c for every (c, r), each in `unrolled_dot`'s order: lane l of register (c, r)
/// holds partial sum l.
#[target_feature(enable = "avx512f")]
fn dots<const R: usize, const C: usize>(x: [&[f64]; R], w: [&[f64]; C]) -> [[f64; R]; C] {
    let d = w[0].len();
    assert!(x.iter().all(|x| x.len() == d) && w.iter().all(|w| w.len() == d));
    let body = d - d % LANES;
    let mut p: [[__m512d; R]; C] = [[_mm512_setzero_pd(); R]; C];
    for j in (0..body).step_by(LANES) {
        // SAFETY: j + LANES ≤ body ≤ d, the length of every row and vector (asserted).
        let xv: [__m512d; R] =
            std::array::from_fn(|r| unsafe { _mm512_loadu_pd(x[r].as_ptr().add(j)) });
        for c in 0..C {
            // SAFETY: as above.
            let wv = unsafe { _mm512_loadu_pd(w[c].as_ptr().add(j)) };
            for r in 0..R {
                p[c][r] = _mm512_add_pd(p[c][r], _mm512_mul_pd(xv[r], wv));
            }
        }
    }
    let mut q = [[[0.0; LANES]; R]; C];
    for c in 0..C {
        for r in 0..R {
            // SAFETY: q[c][r] holds LANES = 8 values.
            unsafe { _mm512_storeu_pd(q[c][r].as_mut_ptr(), p[c][r]) };
        }
    }
    let mut out = [[0.0; R]; C];
    for c in 0..C {
        for r in 0..R {
            out[c][r] = reduce(&q[c][r], &x[r][body..], &w[c][body..]);
        }
    }
    out
}

/// g_c += k_{c,0} x_0, then k_{c,1} x_1, … for each c (one load and store of g_c per block).
#[target_feature(enable = "avx512f")]
fn add_rows<const R: usize, const C: usize>(g: [&mut [f64]; C], x: [&[f64]; R], k: [[f64; R]; C]) {
    let d = x[0].len();
    assert!(x.iter().all(|x| x.len() == d) && g.iter().all(|g| g.len() == d));
    let body = d - d % LANES;
    for j in (0..body).step_by(LANES) {
        // SAFETY: j + LANES ≤ body ≤ d, the length of every row and gradient (asserted).
        let xv: [__m512d; R] =
            std::array::from_fn(|r| unsafe { _mm512_loadu_pd(x[r].as_ptr().add(j)) });
        for c in 0..C {
            // SAFETY: as above.
            let mut s = unsafe { _mm512_loadu_pd(g[c].as_ptr().add(j)) };
            for r in 0..R {
                s = _mm512_add_pd(s, _mm512_mul_pd(_mm512_set1_pd(k[c][r]), xv[r]));
            }
            // SAFETY: as above.
            unsafe { _mm512_storeu_pd(g[c].as_mut_ptr().add(j), s) };
        }
    }
    for c in 0..C {
        for j in body..d {
            let mut s = g[c][j];
            for r in 0..R {
                s += k[c][r] * x[r][j];
            }
            g[c][j] = s;
        }
    }
}
