//! One-sided Wilcoxon signed-rank test for paired differences, exact under ties: zero
//! differences are dropped, tied |d| get average ranks, and the p-value is the share of the
//! 2ⁿ sign assignments whose positive rank sum is at least the observed one (computed by
//! dynamic programming over doubled ranks, which are integers).

/// p-value of H₁ "the differences tend to be positive" (e.g. method error − best error).
pub fn signed_rank_p_greater(diffs: &[f64]) -> f64 {
    let nonzero: Vec<f64> = diffs.iter().copied().filter(|d| *d != 0.0 && d.is_finite()).collect();
    let n = nonzero.len();
    if n == 0 {
        return 1.0;
    }
    let doubled = doubled_ranks(&nonzero);
    let observed: usize =
        nonzero.iter().zip(&doubled).filter(|(d, _)| **d > 0.0).map(|(_, r)| r).sum();
    let total: usize = doubled.iter().sum();
    // counts[s] = number of sign assignments whose positive doubled-rank sum is s.
    let mut counts = vec![0.0f64; total + 1];
    counts[0] = 1.0;
    let mut reach = 0;
    for &r in &doubled {
        reach += r;
        for s in (r..=reach).rev() {
            counts[s] += counts[s - r];
        }
    }
    let tail: f64 = counts[observed..].iter().sum();
    tail / counts.iter().sum::<f64>()
}

/// Twice the average ranks of |d| (ties share the mean of their positions, 1-based).
fn doubled_ranks(d: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..d.len()).collect();
    order.sort_by(|&a, &b| d[a].abs().total_cmp(&d[b].abs()));
    let mut ranks = vec![0; d.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && d[order[j + 1]].abs() == d[order[i]].abs() {
            j += 1;
        }
        // Positions i..=j (0-based) share the rank ((i+1) + (j+1)) / 2; doubled: i + j + 2.
        for &k in &order[i..=j] {
            ranks[k] = i + j + 2;
        }
        i = j + 1;
    }
    ranks
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Reference: enumerate all sign flips of the observed |d| and count rank sums.
    fn brute_force(d: &[f64]) -> f64 {
        let nz: Vec<f64> = d.iter().copied().filter(|x| *x != 0.0).collect();
        let r = doubled_ranks(&nz);
        let obs: usize = nz.iter().zip(&r).filter(|(x, _)| **x > 0.0).map(|(_, r)| r).sum();
        let n = nz.len();
        let hits = (0..1u32 << n)
            .filter(|mask| {
                (0..n).filter(|i| mask >> i & 1 == 1).map(|i| r[i]).sum::<usize>() >= obs
            })
            .count();
        hits as f64 / (1u64 << n) as f64
    }

    #[test]
    fn known_exact_values() {
        assert_eq!(signed_rank_p_greater(&[1.0, 2.0, 3.0, 4.0, 5.0]), 1.0 / 32.0);
        assert_eq!(signed_rank_p_greater(&[-1.0, -2.0, -3.0, -4.0, -5.0]), 1.0);
        assert_eq!(signed_rank_p_greater(&[0.0, 0.0]), 1.0);
        // One negative at the smallest rank among 6: W+ = 20 of 21, P(W+ ≥ 20) = 2/64.
        assert_eq!(signed_rank_p_greater(&[-0.1, 1.0, 2.0, 3.0, 4.0, 5.0]), 2.0 / 64.0);
    }

    #[test]
    fn matches_enumeration_with_ties_and_zeros() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for _ in 0..200 {
            let n = rng.random_range(1..=12);
            let d: Vec<f64> = (0..n).map(|_| rng.random_range(-3i32..=4) as f64 * 0.5).collect();
            let (p, q) = (signed_rank_p_greater(&d), brute_force(&d));
            assert!((p - q).abs() < 1e-12, "{d:?}: {p} vs {q}");
        }
    }
}
