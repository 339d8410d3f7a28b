//! The order of ndarray's `unrolled_dot`, which the row passes reproduce bit for bit: its
//! eight partial sums and how it combines them with the tail.

/// Partial sums of ndarray's `unrolled_dot`.
pub(super) const LANES: usize = 8;

/// `unrolled_dot`'s sum of its partial sums `p`, then of the tail's products.
#[inline(always)]
pub(super) fn reduce(p: &[f64; LANES], tx: &[f64], ty: &[f64]) -> f64 {
    let mut sum = 0.0;
    sum += p[0] + p[4];
    sum += p[1] + p[5];
    sum += p[2] + p[6];
    sum += p[3] + p[7];
    for (x, y) in tx.iter().zip(ty) {
        sum += x * y;
    }
    sum
}
