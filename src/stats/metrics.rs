//! Metrics beyond the error rate: the precision–recall break-even point (recorded for every
//! fit), mean ± std, the mean with its t confidence interval (effect sizes), and the log–log
//! fit of training time against size (SVMlin scaling).

use ndarray::ArrayView1;

/// PRBEP: with k the number of true positives, the precision (= recall) of the k highest
/// scores (ties broken by position). NaN when there is no positive.
pub fn prbep(scores: ArrayView1<f64>, truth: ArrayView1<f64>) -> f64 {
    let k = truth.iter().filter(|t| **t > 0.0).count();
    if k == 0 {
        return f64::NAN;
    }
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    let hits = order.iter().take(k).filter(|&&i| truth[i] > 0.0).count();
    hits as f64 / k as f64
}

/// Mean and sample standard deviation (ddof = 1; 0 for a single value).
pub fn mean_std(v: &[f64]) -> (f64, f64) {
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (v.len() as f64 - 1.0).max(1.0);
    (mean, var.sqrt())
}

/// The mean of `v` and its two-sided Student t confidence interval at level 1 − `alpha`:
/// mean ± t_{1−α/2, n−1} · std / √n. Bounds NaN below two values.
pub fn mean_ci(v: &[f64], alpha: f64) -> (f64, f64, f64) {
    let (mean, std) = mean_std(v);
    if v.len() < 2 {
        return (mean, f64::NAN, f64::NAN);
    }
    let half = super::special::t_quantile_two_sided(alpha, v.len() as f64 - 1.0) * std
        / (v.len() as f64).sqrt();
    (mean, mean - half, mean + half)
}

/// Least-squares fit log y = slope·log x + intercept over positive points; returns
/// (slope, intercept), NaN with fewer than two distinct x.
pub fn log_log_fit(points: &[(f64, f64)]) -> (f64, f64) {
    let n = points.len() as f64;
    let logs: Vec<(f64, f64)> = points.iter().map(|p| (p.0.ln(), p.1.ln())).collect();
    let mx = logs.iter().map(|p| p.0).sum::<f64>() / n;
    let my = logs.iter().map(|p| p.1).sum::<f64>() / n;
    let sxy: f64 = logs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = logs.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let slope = if sxx > 0.0 { sxy / sxx } else { f64::NAN };
    (slope, my - slope * mx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn break_even_of_small_rankings() {
        let truth = array![1.0, -1.0, 1.0, -1.0, 1.0];
        assert_eq!(prbep(array![5.0, 4.0, 3.0, 2.0, 1.0].view(), truth.view()), 2.0 / 3.0);
        assert_eq!(prbep(array![5.0, -4.0, 3.0, -2.0, 1.0].view(), truth.view()), 1.0);
        assert_eq!(prbep(array![-5.0, 4.0, -3.0, 2.0, -1.0].view(), truth.view()), 1.0 / 3.0);
        assert!(prbep(array![1.0].view(), array![-1.0].view()).is_nan());
    }

    /// scipy 1.17.1: `stats.t.interval(0.95, 5, loc=v.mean(), scale=stats.sem(v))` for
    /// v = [1.5, -0.5, 2.0, 3.25, 0.0, 1.0] is (-0.22306636038106098, 2.6397330270477273).
    #[test]
    fn mean_ci_matches_scipy() {
        let (m, lo, hi) = mean_ci(&[1.5, -0.5, 2.0, 3.25, 0.0, 1.0], 0.05);
        assert!((m - 1.208_333_333_333_333_3).abs() < 1e-14);
        assert!(
            (lo + 0.223_066_360_381_060_98).abs() < 1e-9
                && (hi - 2.639_733_027_047_727_3).abs() < 1e-9
        );
        let (m, lo, hi) = mean_ci(&[4.0], 0.05);
        assert!(m == 4.0 && lo.is_nan() && hi.is_nan());
    }

    #[test]
    fn log_log_fit_recovers_a_power_law() {
        let pts: Vec<(f64, f64)> =
            [1e4, 3e4, 1e5, 1e6].iter().map(|&n: &f64| (n, 2e-5 * n.powf(1.1))).collect();
        let (slope, intercept) = log_log_fit(&pts);
        assert!((slope - 1.1).abs() < 1e-12 && (intercept - 2e-5f64.ln()).abs() < 1e-10);
        assert!(log_log_fit(&[(1.0, 2.0)]).0.is_nan());
    }
}
