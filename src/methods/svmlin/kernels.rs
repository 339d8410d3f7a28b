//! The inner loops of the design's mat-vecs: gathers (row · v) and scatters (acc += s · row)
//! over CSR rows. Every sum is added in its row's order and every update of acc in row order,
//! so the variants below (which only interleave independent work differently) give the same
//! bits as one row after the other. Each loop is compiled for both stored column index
//! types ([`Column`]: u16 up to 65,536 columns, else u32).

use crate::data::Column;

/// A design row without its bias: feature indices and values (as many of each).
pub type Row<'a, I> = (&'a [I], &'a [f64]);

/// Rows whose gathers are interleaved (independent chains of additions).
pub const LANES: usize = 4;
/// Consecutive row pairs inspected to tell rows stored in sequence from scattered ones.
const SAMPLE: usize = 256;

/// Σ_k val[k] · v[idx[k]], added in k order from −0 (as `Iterator::sum`).
#[inline(always)]
pub fn gather<I: Column>(idx: &[I], val: &[f64], v: &[f64]) -> f64 {
    gather_from(-0.0, idx, val, v)
}

/// `sum` + val[k] · v[idx[k]] for k in order.
#[inline(always)]
fn gather_from<I: Column>(sum: f64, idx: &[I], val: &[f64], v: &[f64]) -> f64 {
    // SAFETY: column indices of a `Csr` are below its width `dim` (checked by `Csr::new` and
    // kept by every constructor) and every caller asserts v.len() == dim + 1.
    idx.iter().zip(val).fold(sum, |s, (&j, &x)| s + x * unsafe { *v.get_unchecked(j.at()) })
}

/// [`gather`] of LANES rows at once, each sum in its own row's order; the rows' chains of
/// additions (and their loads) are interleaved over their common length, so that they overlap.
#[inline(always)]
pub fn gather_lanes<I: Column>(rows: &[Row<I>; LANES], v: &[f64]) -> [f64; LANES] {
    let common = rows.iter().map(|(idx, _)| idx.len()).min().unwrap_or(0);
    let mut sums = [-0.0; LANES];
    for k in 0..common {
        for (s, (idx, val)) in sums.iter_mut().zip(rows) {
            // SAFETY: k < common ≤ the row's length; column indices as in `gather_from`.
            unsafe {
                *s += *val.get_unchecked(k) * *v.get_unchecked(idx.get_unchecked(k).at());
            }
        }
    }
    std::array::from_fn(|t| gather_from(sums[t], &rows[t].0[common..], &rows[t].1[common..], v))
}

/// Asks the cache for the memory of `s` ahead of its use (a hint; no effect off x86-64).
#[inline(always)]
pub fn prefetch<T>(s: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // Every 64-byte line that holds a byte of `s`.
        let p = s.as_ptr().cast::<i8>();
        let (first, end) = (p as usize & !63, p as usize + std::mem::size_of_val(s));
        for line in (first..end).step_by(64) {
            // SAFETY: a prefetch never faults; the address is that of a byte of `s` or of
            // the start of its line.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(line.wrapping_sub(p as usize))) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = s;
}

/// acc[idx[k]] += scale · val[k].
#[inline(always)]
pub fn scatter<I: Column>(idx: &[I], val: &[f64], scale: f64, acc: &mut [f64]) {
    for (&j, &x) in idx.iter().zip(val) {
        // SAFETY: as in `gather_from`, with acc.len() == dim + 1 asserted by every caller.
        unsafe { *acc.get_unchecked_mut(j.at()) += x * scale };
    }
}

/// acc[idx[k]] += scale · val[k]².
#[inline(always)]
pub fn scatter_squares<I: Column>(idx: &[I], val: &[f64], scale: f64, acc: &mut [f64]) {
    for (&j, &x) in idx.iter().zip(val) {
        // SAFETY: as in `scatter`.
        unsafe { *acc.get_unchecked_mut(j.at()) += x * x * scale };
    }
}

/// The fused pass over the rows `row(k)`, k < q.len(), with the bias coordinate `dim`:
/// q[k] = row(k) · v + v[dim] and acc = Σ_k c[k] q[k] (row(k), 1) (acc overwritten); returns
/// Σ_k c[k] q[k]² (= vᵀ acc), added in row order.
///
/// Rows stored one after the other (at least half of [`SAMPLE`] evenly spaced pairs of
/// consecutive rows adjacent in storage: a sequential pass) interleave the gather of row k + 1
/// with the scatter of row k; scattered rows (a selection in random order, a sparse active
/// set) gather LANES rows at a time, which overlaps their loads from memory. The gathers read
/// v and the scatters write acc only, so both give the bits of one row after the other.
pub fn gram<'a, I: Column>(
    row: impl Fn(usize) -> Row<'a, I>,
    dim: usize,
    c: &[f64],
    v: &[f64],
    q: &mut [f64],
    acc: &mut [f64],
) -> f64 {
    acc.fill(0.0);
    // The layout from SAMPLE evenly spaced pairs (two row lookups each, not all rows).
    let m = q.len();
    let pairs = m.saturating_sub(1).min(SAMPLE);
    let adjacent = (0..pairs)
        .map(|t| 1 + t * (m - 1) / pairs)
        .filter(|&k| row(k - 1).0.as_ptr_range().end == row(k).0.as_ptr())
        .count();
    if 2 * adjacent >= pairs {
        gram_pipelined(row, dim, c, v, q, acc)
    } else {
        gram_lanes(row, dim, c, v, q, acc)
    }
}

/// [`gram`] with the gather of each row interleaved with the scatter of the one before.
fn gram_pipelined<'a, I: Column>(
    row: impl Fn(usize) -> Row<'a, I>,
    dim: usize,
    c: &[f64],
    v: &[f64],
    q: &mut [f64],
    acc: &mut [f64],
) -> f64 {
    let m = q.len();
    if m == 0 {
        return 0.0;
    }
    let mut cqq = 0.0;
    let mut prev = row(0);
    q[0] = gather(prev.0, prev.1, v) + v[dim];
    for k in 1..m {
        let scale = c[k - 1] * q[k - 1];
        cqq += scale * q[k - 1];
        acc[dim] += scale;
        let cur = row(k);
        let common = cur.0.len().min(prev.0.len());
        let mut sum = -0.0;
        for t in 0..common {
            // SAFETY: t < common ≤ both rows' lengths; column indices as in `gather_from`.
            unsafe {
                sum += *cur.1.get_unchecked(t) * *v.get_unchecked(cur.0.get_unchecked(t).at());
                *acc.get_unchecked_mut(prev.0.get_unchecked(t).at()) +=
                    *prev.1.get_unchecked(t) * scale;
            }
        }
        q[k] = gather_from(sum, &cur.0[common..], &cur.1[common..], v) + v[dim];
        scatter(&prev.0[common..], &prev.1[common..], scale, acc);
        prev = cur;
    }
    let scale = c[m - 1] * q[m - 1];
    acc[dim] += scale;
    scatter(prev.0, prev.1, scale, acc);
    cqq + scale * q[m - 1]
}

/// [`gram`] LANES rows at a time: their gathers interleaved, then their scatters in order.
fn gram_lanes<'a, I: Column>(
    row: impl Fn(usize) -> Row<'a, I>,
    dim: usize,
    c: &[f64],
    v: &[f64],
    q: &mut [f64],
    acc: &mut [f64],
) -> f64 {
    let mut cqq = 0.0;
    let done = q.len() - q.len() % LANES;
    for g in (0..done).step_by(LANES) {
        let rows = std::array::from_fn(|k| row(g + k));
        let dots = gather_lanes(&rows, v);
        for (k, ((idx, val), d)) in rows.into_iter().zip(dots).enumerate() {
            q[g + k] = d + v[dim];
            let scale = c[g + k] * q[g + k];
            cqq += scale * q[g + k];
            scatter(idx, val, scale, acc);
            acc[dim] += scale;
        }
    }
    for k in done..q.len() {
        let (idx, val) = row(k);
        q[k] = gather(idx, val, v) + v[dim];
        scatter(idx, val, c[k] * q[k], acc);
        acc[dim] += c[k] * q[k];
        cqq += c[k] * q[k] * q[k];
    }
    cqq
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Both fused variants give the bits of the plain loop, one row after the other, on rows
    /// of random lengths (empty ones too) stored in order, reversed and shuffled, with four-
    /// and two-byte column indices.
    #[test]
    fn fused_variants_are_bit_identical_to_one_row_at_a_time() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let (n, dim) = (203, 60);
        let (mut starts, mut idx, mut val) = (vec![0], Vec::new(), Vec::new());
        for _ in 0..n {
            for j in 0..dim as u32 {
                if rng.random_bool(0.15) {
                    idx.push(j);
                    val.push(rng.random_range(-1.0..1.0));
                }
            }
            starts.push(idx.len());
        }
        let v: Vec<f64> = (0..=dim).map(|_| rng.random_range(-1.0..1.0)).collect();
        let stored = |i: usize| (&idx[starts[i]..starts[i + 1]], &val[starts[i]..starts[i + 1]]);
        // The same rows with two-byte indices.
        let narrow: Vec<u16> = idx.iter().map(|&j| j as u16).collect();
        let stored16 =
            |i: usize| (&narrow[starts[i]..starts[i + 1]], &val[starts[i]..starts[i + 1]]);
        let mut shuffled: Vec<usize> = (0..n).collect();
        for k in (1..n).rev() {
            shuffled.swap(k, rng.random_range(0..=k));
        }
        for order in [(0..n).collect(), (0..n).rev().collect(), shuffled] {
            let order: Vec<usize> = order;
            let row = |k: usize| stored(order[k]);
            let row16 = |k: usize| stored16(order[k]);
            let c: Vec<f64> = (0..n).map(|_| rng.random_range(0.0..2.0)).collect();
            let (mut q0, mut a0, mut cqq0) = (vec![0.0; n], vec![0.0; dim + 1], 0.0);
            for k in 0..n {
                let (i, x) = row(k);
                q0[k] = i.iter().zip(x).map(|(&j, &x)| x * v[j as usize]).sum::<f64>() + v[dim];
                for (&j, &x) in i.iter().zip(x) {
                    a0[j as usize] += x * (c[k] * q0[k]);
                }
                a0[dim] += c[k] * q0[k];
                cqq0 += c[k] * q0[k] * q0[k];
            }
            let bits = |a: &[f64]| a.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            for variant in 0..6 {
                let (mut q, mut acc) = (vec![9.0; n], vec![0.0; dim + 1]);
                let cqq = match variant {
                    0 => gram_pipelined(row, dim, &c, &v, &mut q, &mut acc),
                    1 => gram_lanes(row, dim, &c, &v, &mut q, &mut acc),
                    2 => gram(row, dim, &c, &v, &mut q, &mut acc),
                    3 => gram_pipelined(row16, dim, &c, &v, &mut q, &mut acc),
                    4 => gram_lanes(row16, dim, &c, &v, &mut q, &mut acc),
                    _ => gram(row16, dim, &c, &v, &mut q, &mut acc),
                };
                assert_eq!((bits(&q), bits(&acc)), (bits(&q0), bits(&a0)), "variant {variant}");
                assert_eq!(cqq.to_bits(), f64::to_bits(cqq0), "variant {variant}");
            }
        }
    }
}
