//! Gram matrices scale · X_bᵀX_b of several blocks of rows X_b (optionally centred first),
//! with AVX-512 or AVX2: each depth block of [`GEMM_DEPTH`] rows is packed once into panels of
//! W columns (centred on the way), and the lower triangle is formed from 3W × W register
//! tiles ([`syrk_tile`](super::syrk_tile)), a group of row panels kept in the L2 cache while
//! the column panels stream past. Every entry is the sum faer's product forms (fused
//! multiply-adds in row order, in depth blocks each from +0, each block's sum scaled and
//! added in order), so the bits are those of faer's product ([`faer_lower`]), whatever
//! the tiling or the number of threads.

use std::mem::MaybeUninit;

use faer::linalg::matmul::triangular::{BlockStructure, matmul};
use faer::{Accum, Mat, MatMut};
use ndarray::{Array2, ArrayView2};
use rayon::prelude::*;

use super::sym_packed::GEMM_DEPTH;
#[cfg(target_arch = "x86_64")]
use super::syrk_tile::{Avx2, Avx512};
use super::syrk_tile::{Dest, Lanes, Row};
use super::view;

/// Triples of row panels per cache group: at most 30 panels of one depth block, ≤ 1 MB.
const GROUP: usize = 10;
/// Column panels per task (the unit of work shared among threads).
const TASK: usize = 16;
/// The smallest dimension whose depth blocks are shared among threads.
const PARALLEL_DIM: usize = 160;

/// One block's Gram matrix (its lower triangle) and, when kept, its centred rows.
pub(super) type BlockGram = (Mat<f64>, Option<Array2<f64>>);

/// Which tile kernel the CPU runs, or none (the caller uses faer's product).
#[derive(Clone, Copy)]
enum Width {
    #[cfg(target_arch = "x86_64")]
    Avx512,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

/// The tile kernel of the instruction-set level ([`super::simd::level`]), or none.
fn width() -> Option<Width> {
    match super::simd::level() {
        #[cfg(target_arch = "x86_64")]
        super::Level::Avx512 => Some(Width::Avx512),
        #[cfg(target_arch = "x86_64")]
        super::Level::Avx2 => Some(Width::Avx2),
        _ => None,
    }
}

/// For each block of rows: scale · YᵀY with Y = the block minus `mean` (if any) row by row,
/// the lower triangle only (the caller mirrors it), and Y itself for the blocks marked in
/// `keep` (centred blocks). None when the CPU has neither AVX-512 nor AVX2 with FMA.
pub(super) fn grams(
    blocks: &[ArrayView2<f64>],
    mean: Option<&[f64]>,
    scale: f64,
    keep: &[bool],
) -> Option<Vec<BlockGram>> {
    let threads = match faer::get_global_parallelism() {
        faer::Par::Rayon(n) => n.get(),
        faer::Par::Seq => 1,
    };
    match width()? {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU has AVX-512F.
        Width::Avx512 => {
            Some(unsafe { grams_with::<Avx512, 8>(blocks, mean, scale, keep, threads) })
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU has AVX2 and FMA.
        Width::Avx2 => Some(unsafe { grams_with::<Avx2, 4>(blocks, mean, scale, keep, threads) }),
    }
}

/// The lower triangle of `xᵀx · scale` by faer's triangular product (zeros above).
pub(super) fn faer_lower(x: &ArrayView2<f64>, scale: f64) -> Mat<f64> {
    let xf = view(x);
    let d = xf.ncols();
    let mut out = Mat::<f64>::zeros(d, d);
    matmul(
        out.as_mut(),
        BlockStructure::TriangularLower,
        Accum::Replace,
        xf.transpose(),
        BlockStructure::Rectangular,
        xf,
        BlockStructure::Rectangular,
        scale,
        faer::get_global_parallelism(),
    );
    out
}

/// A pointer shared by the threads of one depth block, each writing its own entries.
#[derive(Clone, Copy)]
struct Shared(*mut f64);
// SAFETY: the tasks of a depth block write disjoint entries (see `compute`).
unsafe impl Send for Shared {}
unsafe impl Sync for Shared {}

/// [`grams`] with the tile kernel of `S` (W lanes).
///
/// # Safety
/// The CPU has the instructions of `S`.
unsafe fn grams_with<S: Lanes<W> + Send + Sync, const W: usize>(
    blocks: &[ArrayView2<f64>],
    mean: Option<&[f64]>,
    scale: f64,
    keep: &[bool],
    threads: usize,
) -> Vec<BlockGram> {
    let d = blocks.first().map_or(0, |b| b.ncols());
    // Below PARALLEL_DIM a depth block is too little work to share.
    let threads = if d < PARALLEL_DIM { 1 } else { threads };
    let panels = d.div_ceil(W);
    let triples = panels.div_ceil(3);
    // Panel p holds columns pW..pW + W of a depth block, row k at (p·GEMM_DEPTH + k)·W; the
    // panels past d and the columns past d stay zero.
    let mut packed = vec![0.0; 3 * triples * GEMM_DEPTH * W];
    // Subtracting +0 leaves every value (−0 included) as it is.
    let zeros = vec![0.0; d];
    let mean = mean.unwrap_or(&zeros);
    blocks
        .iter()
        .zip(keep)
        .map(|(x, &keep)| {
            let mut out = Mat::<f64>::zeros(d, d);
            let mut centred = keep.then(|| Array2::<f64>::uninit(x.raw_dim()));
            for k0 in (0..x.nrows()).step_by(GEMM_DEPTH) {
                let depth = GEMM_DEPTH.min(x.nrows() - k0);
                let first = k0 == 0;
                // SAFETY: the caller's: the CPU has S's instructions.
                unsafe {
                    pack::<S, W>(x, mean, k0, depth, &mut packed, centred.as_mut(), threads);
                    compute::<S, W>(&packed, panels, depth, out.as_mut(), first, scale, threads);
                }
            }
            // SAFETY: `pack` wrote every row of `centred`.
            (out, centred.map(|c| unsafe { c.assume_init() }))
        })
        .collect()
}

/// Rows k0..k0 + depth of `x` minus `mean` into the panels and into the same rows of
/// `centred` (standard layout), split among `threads` by rows.
///
/// # Safety
/// The CPU has the instructions of `S`.
unsafe fn pack<S: Lanes<W>, const W: usize>(
    x: &ArrayView2<f64>,
    mean: &[f64],
    k0: usize,
    depth: usize,
    packed: &mut [f64],
    centred: Option<&mut Array2<MaybeUninit<f64>>>,
    threads: usize,
) {
    let d = x.ncols();
    let (panels, rows) =
        (Shared(packed.as_mut_ptr()), centred.map(|c| Shared(c.as_mut_ptr().cast())));
    let one = |k: usize| {
        let row = x.row(k0 + k);
        let copy;
        let x = match row.as_slice() {
            Some(s) => s,
            None => {
                copy = row.to_vec();
                &copy
            }
        };
        // SAFETY: row k0 + k of the standard-layout `centred` holds d values, written by this
        // call only; the panels hold GEMM_DEPTH ≥ depth rows; the CPU has S's instructions.
        unsafe {
            let centred =
                rows.map(|c| std::slice::from_raw_parts_mut({ c }.0.add((k0 + k) * d), d));
            S::pack(Row { x, mean, panels: { panels }.0, k, centred });
        }
    };
    if threads > 1 {
        (0..depth).into_par_iter().with_min_len(32).for_each(one);
    } else {
        (0..depth).for_each(one);
    }
}

/// The tiles of one depth block into the lower triangle of `out` (and some entries above it,
/// which the caller overwrites): groups of row-panel triples, and within a group, tasks of
/// column panels, each column panel reused across the group's triples.
///
/// # Safety
/// The CPU has the instructions of `S`.
unsafe fn compute<S: Lanes<W> + Send + Sync, const W: usize>(
    packed: &[f64],
    panels: usize,
    depth: usize,
    mut out: MatMut<'_, f64>,
    first: bool,
    scale: f64,
    threads: usize,
) {
    let (d, col_stride) = (out.nrows(), out.col_stride() as usize);
    let ptr = Shared(out.as_mut().as_ptr_mut());
    let triples = panels.div_ceil(3);
    let stride = GEMM_DEPTH * W;
    let tasks: Vec<(usize, usize)> = (0..triples)
        .step_by(GROUP)
        .flat_map(|t0| {
            let last = (3 * (t0 + GROUP).min(triples)).min(panels);
            (0..last).step_by(TASK).map(move |q0| (t0, q0))
        })
        .collect();
    let run = |&(t0, q0): &(usize, usize)| {
        let t1 = (t0 + GROUP).min(triples);
        for q in q0..(q0 + TASK).min(3 * t1).min(panels) {
            // Triples whose rows reach column panel q: 3t + 2 ≥ q.
            for t in (q / 3).max(t0)..t1 {
                let dest = Dest {
                    ptr: { ptr }.0,
                    d,
                    col_stride,
                    row: 3 * W * t,
                    col: W * q,
                    first,
                    scale,
                };
                // SAFETY: the panels hold GEMM_DEPTH ≥ depth rows; the tile's entries are in
                // `out` and written by this task only (tasks differ in triples or columns).
                unsafe {
                    S::tile(
                        packed.as_ptr().add(3 * t * stride),
                        stride,
                        packed.as_ptr().add(q * stride),
                        depth,
                        dest,
                    );
                }
            }
        }
    };
    if threads > 1 {
        tasks.par_iter().for_each(run);
    } else {
        tasks.iter().for_each(run);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Every kernel the CPU has, with 1 and 3 threads, gives faer's triangular product bit for
    /// bit and the centred rows x − m: odd sizes around the tiles (W = 4, 8; 3W rows), depths
    /// of several blocks, a partial last block, one row, no rows.
    #[test]
    fn every_kernel_has_the_bits_of_faers_product() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(47);
        let mut shapes = vec![(1100, 400), (100, 400), (1900, 97), (600, 1000), (1, 7), (0, 5)];
        for _ in 0..25 {
            shapes.push((rng.random_range(0..1200), rng.random_range(1..60)));
        }
        type Kernel =
            unsafe fn(&[ArrayView2<f64>], Option<&[f64]>, f64, &[bool], usize) -> Vec<BlockGram>;
        let mut kernels: Vec<(&str, Kernel)> = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            use crate::linalg::{Level, simd::cpu};
            if cpu() >= Level::Avx512 {
                kernels.push(("avx512", grams_with::<Avx512, 8>));
            }
            if cpu() >= Level::Avx2 {
                kernels.push(("avx2", grams_with::<Avx2, 4>));
            }
        }
        for (n, d) in shapes {
            let x = Array2::from_shape_fn((n, d), |_| rng.random_range(-2.0..3.0));
            let y = Array2::from_shape_fn((n / 3, d), |_| rng.random_range(-1.0..1.0));
            let mean: Vec<f64> = (0..d).map(|_| rng.random_range(-1.0..1.0)).collect();
            let centred =
                |x: &Array2<f64>| Array2::from_shape_fn(x.raw_dim(), |(i, j)| x[(i, j)] - mean[j]);
            let want = [faer_lower(&centred(&x).view(), 0.3), faer_lower(&centred(&y).view(), 0.3)];
            for &(name, kernel) in &kernels {
                for threads in [1, 3] {
                    // SAFETY: the kernel's instructions were detected above.
                    let got = unsafe {
                        kernel(&[x.view(), y.view()], Some(&mean), 0.3, &[true, false], threads)
                    };
                    for (b, ((g, c), w)) in got.iter().zip(&want).enumerate() {
                        let block = if b == 0 { &x } else { &y };
                        let kept = (b == 0).then(|| centred(block));
                        assert!(*c == kept, "{name} centred {n}×{d}");
                        for j in 0..d {
                            for i in j..d {
                                assert_eq!(
                                    g[(i, j)].to_bits(),
                                    w[(i, j)].to_bits(),
                                    "{name}, {threads} threads, block {b}, {n}×{d}, ({i}, {j})"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
