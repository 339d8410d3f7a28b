//! One-sided Wilcoxon signed-rank test for paired differences, as scipy's `wilcoxon` with
//! `zero_method="wilcox"` (zero differences dropped; tied |d| get average ranks):
//! - up to [`EXACT_MAX`] nonzero differences, exact under ties: the p-value is the share of
//!   the 2ⁿ sign assignments whose positive rank sum is at least the observed one (dynamic
//!   programming over doubled ranks, which are integers);
//! - beyond, the normal approximation with the tie correction of the variance and no
//!   continuity correction (scipy's `method="approx"`, `correction=False`).
//!
//! Never NaN; O(n log n) beyond the switch.

use super::special::normal_sf;

/// Largest number of nonzero differences tested exactly (scipy's `method="auto"` switch).
pub const EXACT_MAX: usize = 50;

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
    if n > EXACT_MAX {
        return normal_p_greater(&doubled, observed);
    }
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

/// Normal approximation: W⁺ has mean n(n+1)/4 and variance n(n+1)(2n+1)/24 − Σ(t³ − t)/48
/// over the groups of t tied |d|; p = P(Z > (W⁺ − mean) / sd).
fn normal_p_greater(doubled: &[usize], observed: usize) -> f64 {
    let n = doubled.len() as f64;
    let mut sorted = doubled.to_vec();
    sorted.sort_unstable();
    let ties: f64 = sorted
        .chunk_by(|a, b| a == b)
        .map(|group| {
            let t = group.len() as f64;
            t * t * t - t
        })
        .sum();
    let mean = n * (n + 1.0) / 4.0;
    let var = n * (n + 1.0) * (2.0 * n + 1.0) / 24.0 - ties / 48.0;
    normal_sf((observed as f64 / 2.0 - mean) / var.sqrt())
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

    /// d_i = (i·a mod m) − c for i = 0 … n−1: integers with many ties and zeros when c is.
    fn generated(n: usize, a: usize, m: usize, c: f64) -> Vec<f64> {
        (0..n).map(|i| ((i * a) % m) as f64 - c).collect()
    }

    /// Reference p-values from scipy 1.17.1, `python /tmp/wx.py` with
    /// `d = np.array([((i*a) % m) - c for i in range(n)], dtype=float)` and
    /// `stats.wilcoxon(d, alternative='greater', method=M, zero_method='wilcox', correction=False)`:
    /// M = 'exact' at 10 splits (no ties), `stats.PermutationMethod(n_resamples=np.inf)` on
    /// the nonzero d at 10 splits with ties, 'approx' at 1,000, 1,100 and 10⁵ splits.
    #[test]
    fn matches_scipy_on_both_sides_of_the_switch() {
        let cases = [
            (10, 7, 13, 4.3, 0.1875),
            (10, 3, 7, 2.0, 0.121_093_75),
            (1_000, 37, 41, 19.0, 0.003_569_670_535_646_592),
            (1_100, 37, 41, 19.0, 0.002_271_443_483_040_286_7),
            (100_000, 37, 41, 20.0, 0.502_157_583_454_314_4),
            (100_000, 37, 41, 19.9, 1.238_583_706_840_092_6e-11),
        ];
        for (n, a, m, c, want) in cases {
            let p = signed_rank_p_greater(&generated(n, a, m, c));
            assert!((p - want).abs() <= 1e-9 * want, "n {n}, c {c}: {p} vs scipy {want}");
        }
    }

    #[test]
    fn never_nan_far_beyond_the_old_overflow() {
        let all_worse = vec![1.0; 30_000];
        let p = signed_rank_p_greater(&all_worse);
        assert!(!p.is_nan() && p < 1e-100, "{p}");
        let p = signed_rank_p_greater(&generated(30_000, 37, 41, 20.0));
        assert!(p > 0.01 && p < 0.99, "{p}");
    }
}
