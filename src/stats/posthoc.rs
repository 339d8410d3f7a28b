//! Post-hoc tests after Friedman (Demšar, JMLR 2006, §3.2.2): Nemenyi's critical
//! difference and pairwise p-values, and each method against a control with Holm's
//! step-down correction (also used for the comparisons within one table row).

use super::special::{nemenyi_q, normal_sf, range_cdf};

/// The standard error of a difference of mean ranks: √(k(k+1) / (6N)).
pub fn rank_se(methods: usize, datasets: usize) -> f64 {
    let k = methods as f64;
    (k * (k + 1.0) / (6.0 * datasets as f64)).sqrt()
}

/// Nemenyi's critical difference at level `alpha`: q_α √(k(k+1) / (6N)).
pub fn critical_difference(alpha: f64, methods: usize, datasets: usize) -> f64 {
    nemenyi_q(alpha, methods) * rank_se(methods, datasets)
}

/// Nemenyi's p-value for two methods whose mean ranks differ by `diff`: the probability
/// that the range of k standard normals exceeds √2 |diff| / SE.
pub fn nemenyi_p(diff: f64, methods: usize, datasets: usize) -> f64 {
    let q = std::f64::consts::SQRT_2 * diff.abs() / rank_se(methods, datasets);
    (1.0 - range_cdf(q, methods)).clamp(0.0, 1.0)
}

/// z = (R_i − R_control) / SE and its two-sided normal p-value, per method.
pub fn against_control(mean_ranks: &[f64], control: usize, datasets: usize) -> Vec<(f64, f64)> {
    let se = rank_se(mean_ranks.len(), datasets);
    mean_ranks
        .iter()
        .map(|r| {
            let z = (r - mean_ranks[control]) / se;
            (z, (2.0 * normal_sf(z.abs())).min(1.0))
        })
        .collect()
}

/// Holm's step-down adjusted p-values, in the input order: the i-th smallest of m p-values
/// times (m − i + 1), kept non-decreasing, capped at 1. Rejecting where the adjusted p < α
/// is Holm's procedure at level α.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (i, &j) in order.iter().enumerate() {
        running = running.max(((m - i) as f64 * p[j]).min(1.0));
        adjusted[j] = running;
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Demšar (2006), §3.2.4: k = 4, N = 14, mean ranks 3.143, 2.000, 2.893, 1.964.
    /// Nemenyi: CD = 2.569 √(4·5 / (6·14)) = 1.25. Holm against C4.5+m+cf (the last):
    /// SE = 0.488; C4.5 z = 2.416, p = 0.016 < 0.05/3, significant; C4.5+cf z = 1.904,
    /// p = 0.057 > 0.05/2, stop (C4.5+m p = 0.942).
    #[test]
    fn demsar_worked_example() {
        let ranks = [44.0 / 14.0, 2.0, 40.5 / 14.0, 27.5 / 14.0];
        assert!((critical_difference(0.05, 4, 14) - 1.25).abs() < 0.005);
        assert!((rank_se(4, 14) - 0.488).abs() < 0.0005);
        let zp = against_control(&ranks, 3, 14);
        assert!((zp[0].0 - 2.416).abs() < 0.002 && (zp[0].1 - 0.016).abs() < 0.0005, "{zp:?}");
        assert!((zp[2].0 - 1.904).abs() < 0.002 && (zp[2].1 - 0.057).abs() < 0.0005, "{zp:?}");
        assert!((zp[1].1 - 0.942).abs() < 0.0005 && zp[3] == (0.0, 1.0), "{zp:?}");
        let adjusted = holm(&[zp[0].1, zp[1].1, zp[2].1]);
        assert!(adjusted[0] < 0.05 && adjusted[2] > 0.05 && adjusted[1] > 0.05, "{adjusted:?}");
        // The Nemenyi p of a difference of exactly CD is α.
        let cd = critical_difference(0.05, 4, 14);
        assert!((nemenyi_p(cd, 4, 14) - 0.05).abs() < 1e-6);
    }

    /// By hand: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04,
    /// made non-decreasing: 0.02, 0.03, 0.06, 0.06.
    #[test]
    fn holm_adjusts_step_down_and_stays_monotone() {
        let a = holm(&[0.01, 0.04, 0.03, 0.005]);
        let want = [0.03, 0.06, 0.06, 0.02];
        assert!(a.iter().zip(want).all(|(x, y)| (x - y).abs() < 1e-15), "{a:?}");
        assert_eq!(holm(&[0.6, 0.9]), [1.0, 1.0]);
        assert!(holm(&[]).is_empty());
    }
}
