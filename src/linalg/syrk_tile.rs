//! The register-blocked tile of [`syrk`](super::syrk): 3W rows × W columns of a Gram
//! matrix from packed panels of W columns, one vector register per W rows (W = 8 with
//! AVX-512, 4 with AVX2). Every entry is one chain of fused multiply-adds over the samples
//! in order from +0, then scaled and stored or added: the arithmetic of faer's product.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::sym_packed::GEMM_DEPTH;

/// Vector registers of W lanes of f64 and the few operations the tile uses.
pub(super) trait Lanes<const W: usize>: Copy {
    /// One register.
    type V: Copy;
    /// +0 in every lane.
    fn zero() -> Self::V;
    /// W values from `p` (unaligned).
    unsafe fn load(p: *const f64) -> Self::V;
    /// `x` in every lane.
    unsafe fn splat(p: *const f64) -> Self::V;
    /// a·b + c rounded once.
    fn fma(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// a·b.
    fn mul(a: Self::V, b: Self::V) -> Self::V;
    /// a + b.
    fn add(a: Self::V, b: Self::V) -> Self::V;
    /// a − b.
    fn sub(a: Self::V, b: Self::V) -> Self::V;
    /// W values to `p` (unaligned).
    unsafe fn store(p: *mut f64, v: Self::V);
    /// [`tile`] compiled for these instructions (its intrinsics inlined).
    unsafe fn tile(a: *const f64, stride: usize, b: *const f64, depth: usize, dest: Dest);
    /// [`pack_row`] compiled for these instructions.
    unsafe fn pack(row: Row<'_>);
}

/// One row to pack: row `k` of a depth block, `x` − `mean` into the panels (panel p's row k
/// at (p·GEMM_DEPTH + k)·W) and into `centred` when given.
pub(super) struct Row<'a> {
    pub x: &'a [f64],
    pub mean: &'a [f64],
    pub panels: *mut f64,
    pub k: usize,
    pub centred: Option<&'a mut [f64]>,
}

/// The entry functions of one instruction set: `$tile` and `$pack` compiled with `$feature`
/// for the lanes `$lanes` of width `$w`, so the intrinsics inline into them.
macro_rules! compiled {
    ($feature:literal, $lanes:ty, $w:literal, $tile:ident, $pack:ident) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $feature)]
        unsafe fn $tile(a: *const f64, stride: usize, b: *const f64, depth: usize, dest: Dest) {
            // SAFETY: the caller's (`Lanes::tile`).
            unsafe { tile::<$lanes, $w>(a, stride, b, depth, dest) }
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $feature)]
        unsafe fn $pack(row: Row<'_>) {
            // SAFETY: the caller's (`Lanes::pack`).
            unsafe { pack_row::<$lanes, $w>(row) }
        }
    };
}

compiled!("avx512f", Avx512, 8, tile_avx512, pack_avx512);
compiled!("avx2,fma", Avx2, 4, tile_avx2, pack_avx2);

/// AVX-512F: 8 lanes. Only used from functions compiled with `avx512f`.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct Avx512;

/// AVX2 and FMA: 4 lanes. Only used from functions compiled with `avx2,fma`.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct Avx2;

#[cfg(target_arch = "x86_64")]
impl Lanes<8> for Avx512 {
    type V = __m512d;
    #[inline(always)]
    fn zero() -> __m512d {
        // SAFETY: only called where the CPU has AVX-512F (see the type).
        unsafe { _mm512_setzero_pd() }
    }
    #[inline(always)]
    unsafe fn load(p: *const f64) -> __m512d {
        unsafe { _mm512_loadu_pd(p) }
    }
    #[inline(always)]
    unsafe fn splat(p: *const f64) -> __m512d {
        unsafe { _mm512_set1_pd(*p) }
    }
    #[inline(always)]
    fn fma(a: __m512d, b: __m512d, c: __m512d) -> __m512d {
        // SAFETY: as `zero`.
        unsafe { _mm512_fmadd_pd(a, b, c) }
    }
    #[inline(always)]
    fn mul(a: __m512d, b: __m512d) -> __m512d {
        // SAFETY: as `zero`.
        unsafe { _mm512_mul_pd(a, b) }
    }
    #[inline(always)]
    fn add(a: __m512d, b: __m512d) -> __m512d {
        // SAFETY: as `zero`.
        unsafe { _mm512_add_pd(a, b) }
    }
    #[inline(always)]
    fn sub(a: __m512d, b: __m512d) -> __m512d {
        // SAFETY: as `zero`.
        unsafe { _mm512_sub_pd(a, b) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut f64, v: __m512d) {
        unsafe { _mm512_storeu_pd(p, v) }
    }
    unsafe fn tile(a: *const f64, stride: usize, b: *const f64, depth: usize, dest: Dest) {
        // SAFETY: the caller's: the CPU has AVX-512F.
        unsafe { tile_avx512(a, stride, b, depth, dest) }
    }
    unsafe fn pack(row: Row<'_>) {
        // SAFETY: the caller's: the CPU has AVX-512F.
        unsafe { pack_avx512(row) }
    }
}

#[cfg(target_arch = "x86_64")]
impl Lanes<4> for Avx2 {
    type V = __m256d;
    #[inline(always)]
    fn zero() -> __m256d {
        // SAFETY: only called where the CPU has AVX2 and FMA (see the type).
        unsafe { _mm256_setzero_pd() }
    }
    #[inline(always)]
    unsafe fn load(p: *const f64) -> __m256d {
        unsafe { _mm256_loadu_pd(p) }
    }
    #[inline(always)]
    unsafe fn splat(p: *const f64) -> __m256d {
        unsafe { _mm256_broadcast_sd(&*p) }
    }
    #[inline(always)]
    fn fma(a: __m256d, b: __m256d, c: __m256d) -> __m256d {
        // SAFETY: as `zero`.
        unsafe { _mm256_fmadd_pd(a, b, c) }
    }
    #[inline(always)]
    fn mul(a: __m256d, b: __m256d) -> __m256d {
        // SAFETY: as `zero`.
        unsafe { _mm256_mul_pd(a, b) }
    }
    #[inline(always)]
    fn add(a: __m256d, b: __m256d) -> __m256d {
        // SAFETY: as `zero`.
        unsafe { _mm256_add_pd(a, b) }
    }
    #[inline(always)]
    fn sub(a: __m256d, b: __m256d) -> __m256d {
        // SAFETY: as `zero`.
        unsafe { _mm256_sub_pd(a, b) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut f64, v: __m256d) {
        unsafe { _mm256_storeu_pd(p, v) }
    }
    unsafe fn tile(a: *const f64, stride: usize, b: *const f64, depth: usize, dest: Dest) {
        // SAFETY: the caller's: the CPU has AVX2 and FMA.
        unsafe { tile_avx2(a, stride, b, depth, dest) }
    }
    unsafe fn pack(row: Row<'_>) {
        // SAFETY: the caller's: the CPU has AVX2 and FMA.
        unsafe { pack_avx2(row) }
    }
}

/// Where a tile goes: the column-major output, its size and column stride, the tile's first
/// row and column, and whether this depth block is the first (store) or a later one (add).
#[derive(Clone, Copy)]
pub(super) struct Dest {
    pub ptr: *mut f64,
    pub d: usize,
    pub col_stride: usize,
    pub row: usize,
    pub col: usize,
    pub first: bool,
    pub scale: f64,
}

/// out[row + i, col + c] (=, or +=) scale · Σ_k a[k, i] b[k, c] for i < 3W, c < W inside
/// d × d, from `a`: three panels `stride` apart and `b`: one panel, each panel `depth` rows
/// of W values.
///
/// # Safety
/// The CPU has the instructions of `S`; the panels hold `depth` rows; `dest` is valid for
/// the tile's entries inside d × d, and no other thread writes them.
#[inline(always)]
unsafe fn tile<S: Lanes<W>, const W: usize>(
    a: *const f64,
    stride: usize,
    b: *const f64,
    depth: usize,
    dest: Dest,
) {
    let mut acc = [[S::zero(); W]; 3];
    for k in 0..depth {
        // SAFETY: the panels hold `depth` rows of W values.
        let (rows, cols) = unsafe { (a.add(k * W), b.add(k * W)) };
        let v =
            unsafe { [S::load(rows), S::load(rows.add(stride)), S::load(rows.add(2 * stride))] };
        for c in 0..W {
            let x = unsafe { S::splat(cols.add(c)) };
            for r in 0..3 {
                acc[r][c] = S::fma(v[r], x, acc[r][c]);
            }
        }
    }
    let scale = unsafe { S::splat(&dest.scale) };
    let mut spill = [0.0; W];
    for c in 0..W.min(dest.d.saturating_sub(dest.col)) {
        let column = unsafe { dest.ptr.add((dest.col + c) * dest.col_stride) };
        for (r, acc) in acc.iter().enumerate() {
            let row = dest.row + r * W;
            if row >= dest.d {
                break;
            }
            let t = S::mul(acc[c], scale);
            // SAFETY: rows row..row + W of the column are inside d × d.
            let p = unsafe { column.add(row) };
            if row + W <= dest.d {
                let v = if dest.first { t } else { S::add(unsafe { S::load(p) }, t) };
                unsafe { S::store(p, v) };
            } else {
                unsafe { S::store(spill.as_mut_ptr(), t) };
                for (i, t) in spill.iter().enumerate().take(dest.d - row) {
                    // SAFETY: row + i < d.
                    unsafe { *p.add(i) = if dest.first { *t } else { *p.add(i) + t } };
                }
            }
        }
    }
}

/// Packs one row (see [`Row`]) with W-lane subtractions (the bits of x − m one by one); the
/// panel columns past the row's end are left as they are.
///
/// # Safety
/// The CPU has the instructions of `S`; the panels hold row `k` of every panel the row's
/// W-column chunks fall in; `mean` and `centred` have the row's length.
#[inline(always)]
unsafe fn pack_row<S: Lanes<W>, const W: usize>(row: Row<'_>) {
    let Row { x, mean, panels, k, mut centred } = row;
    let full = x.len() / W;
    for p in 0..full {
        // SAFETY: chunk p of x, mean (and centred) holds W values; panel p holds row k.
        unsafe {
            let v = S::sub(S::load(x.as_ptr().add(p * W)), S::load(mean.as_ptr().add(p * W)));
            S::store(panels.add((p * GEMM_DEPTH + k) * W), v);
            if let Some(out) = centred.as_deref_mut() {
                S::store(out.as_mut_ptr().add(p * W), v);
            }
        }
    }
    for j in full * W..x.len() {
        let v = x[j] - mean[j];
        // SAFETY: the partial last chunk has its panel.
        unsafe { *panels.add((full * GEMM_DEPTH + k) * W + j - full * W) = v };
        if let Some(out) = centred.as_deref_mut() {
            out[j] = v;
        }
    }
}
