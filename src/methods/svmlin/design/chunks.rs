//! The fixed chunks of the design's scattered mat-vecs: how many rows each takes, their
//! accumulators, and their reduction in chunk order.

use rayon::prelude::*;

/// Subset rows per chunk of a scattered (transposed) mat-vec, at least.
pub(super) const CHUNK_ROWS: usize = 8192;
/// Chunks of a scattered mat-vec at most (each holds one partial sum of d + 1 entries).
pub(super) const MAX_CHUNKS: usize = 4;
/// Output entries per task of the row-wise mat-vecs (no reduction, so any split is exact).
pub(super) const ROW_TASK: usize = 2048;

/// Rows per chunk of a scattered mat-vec over `m` rows (fixed by m alone).
pub(super) fn chunk_len(m: usize) -> usize {
    m.div_ceil((m / CHUNK_ROWS).clamp(1, MAX_CHUNKS)).max(1)
}

/// Accumulators of `chunks` chunks: `out` for the first, slices of `spare`. Each task zeroes
/// its own just before its scatter, so that the accumulator is in that core's cache; with no
/// chunk (an empty subset) `out` is zeroed here.
pub(super) fn partials<'s>(
    out: &'s mut [f64],
    spare: &'s mut Vec<f64>,
    chunks: usize,
) -> Vec<&'s mut [f64]> {
    let d = out.len();
    if chunks == 0 {
        out.fill(0.0);
    }
    spare.resize(chunks.saturating_sub(1) * d, 0.0);
    std::iter::once(out).chain(spare.chunks_mut(d.max(1))).collect()
}

/// out += each partial sum of `spare`, in chunk order (entry by entry, so any split of the
/// entries across threads gives the same sums).
pub(super) fn reduce(out: &mut [f64], spare: &[f64]) {
    if spare.is_empty() {
        return;
    }
    let d = out.len();
    out.par_chunks_mut(ROW_TASK).enumerate().for_each(|(t, o)| {
        for part in spare.chunks(d) {
            for (oj, pj) in o.iter_mut().zip(&part[t * ROW_TASK..]) {
                *oj += pj;
            }
        }
    });
}
