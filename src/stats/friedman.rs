//! Across datasets: ranks within a dataset, the Friedman test and the Iman–Davenport F
//! (Demšar, JMLR 2006, §3.2.2), with scipy's `friedmanchisquare` tie correction.

use super::special::{chi2_sf, f_sf};

/// Ranks of `values` (1 = smallest; ties share the mean of their positions).
pub fn average_ranks(values: &[f64]) -> Vec<f64> {
    values
        .iter()
        .map(|&mine| {
            let (below, tied) = values
                .iter()
                .fold((0, 0), |(b, t), &v| (b + usize::from(v < mine), t + usize::from(v == mine)));
            below as f64 + (tied as f64 + 1.0) / 2.0
        })
        .collect()
}

/// The Friedman test of k methods over N datasets.
#[derive(Debug, Clone, PartialEq)]
pub struct Friedman {
    /// k, the methods compared.
    pub methods: usize,
    /// N, the datasets.
    pub datasets: usize,
    /// Mean rank of each method over the datasets.
    pub mean_ranks: Vec<f64>,
    /// χ²_F (tie-corrected) and its p-value with k − 1 degrees of freedom.
    pub chi2: f64,
    pub chi2_p: f64,
    /// Iman–Davenport F_F = (N − 1) χ²_F / (N (k − 1) − χ²_F) and its p-value with
    /// (k − 1, (k − 1)(N − 1)) degrees of freedom; ∞ and 0 when every dataset ranks alike.
    pub f: f64,
    pub f_p: f64,
}

/// The test from `ranks[d][m]` (each row the ranks of one dataset, as [`average_ranks`]
/// gives): χ²_F = 12N / (k(k+1)) [Σ R_j² − k(k+1)²/4], divided by 1 − Σ(t³ − t) / (N k (k² − 1))
/// over the groups of t tied ranks, as scipy does. None with fewer than 2 methods or datasets.
pub fn friedman(ranks: &[Vec<f64>]) -> Option<Friedman> {
    let n = ranks.len();
    let k = ranks.first().map_or(0, Vec::len);
    if n < 2 || k < 2 {
        return None;
    }
    let mean_ranks: Vec<f64> =
        (0..k).map(|m| ranks.iter().map(|row| row[m]).sum::<f64>() / n as f64).collect();
    let ties: f64 = ranks
        .iter()
        .map(|row| {
            let mut sorted = row.clone();
            sorted.sort_by(f64::total_cmp);
            sorted.chunk_by(|a, b| a == b).map(|g| (g.len().pow(3) - g.len()) as f64).sum::<f64>()
        })
        .sum();
    let correction = 1.0 - ties / (n * k * (k * k - 1)) as f64;
    Some(from_mean_ranks(&mean_ranks, n, correction))
}

/// The test from the mean ranks of k methods over `n` datasets, χ²_F divided by the tie
/// `correction` (1 without ties); a correction of 0 (every dataset one big tie) gives χ²_F = 0.
pub fn from_mean_ranks(mean_ranks: &[f64], n: usize, correction: f64) -> Friedman {
    let (k, nf) = (mean_ranks.len() as f64, n as f64);
    let sum_sq: f64 = mean_ranks.iter().map(|r| r * r).sum();
    let raw = 12.0 * nf / (k * (k + 1.0)) * (sum_sq - k * (k + 1.0).powi(2) / 4.0);
    let chi2 = if correction > 0.0 { (raw / correction).max(0.0) } else { 0.0 };
    let (df1, df2) = (k - 1.0, (k - 1.0) * (nf - 1.0));
    let denominator = nf * (k - 1.0) - chi2;
    let (f, f_p) = if denominator > 1e-12 * nf * k {
        let f = (nf - 1.0) * chi2 / denominator;
        (f, f_sf(f, df1, df2))
    } else {
        (f64::INFINITY, 0.0)
    };
    Friedman {
        methods: mean_ranks.len(),
        datasets: n,
        mean_ranks: mean_ranks.to_vec(),
        chi2,
        chi2_p: chi2_sf(chi2, df1),
        f,
        f_p,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Demšar (2006), §3.2.4: four variants of C4.5 on 14 datasets with mean ranks 3.143,
    /// 2.000, 2.893 and 1.964 give χ²_F = 9.28 and F_F = 3.69.
    #[test]
    fn demsar_worked_example() {
        let r = from_mean_ranks(&[44.0 / 14.0, 2.0, 40.5 / 14.0, 27.5 / 14.0], 14, 1.0);
        assert!((r.chi2 - 9.28).abs() < 0.005, "{}", r.chi2);
        assert!((r.f - 3.69).abs() < 0.005, "{}", r.f);
        assert!(r.f_p < 0.05 && r.f_p > 0.01, "{}", r.f_p);
    }

    /// scipy 1.17.1: `stats.friedmanchisquare(*np.array(VALUES).T)` (columns = methods) gives
    /// statistic 10.952380952380956, p 0.011986176325417788 on these values with ties
    /// (a whole row tied, pairs tied); Iman–Davenport from it: F 4.585889570552149,
    /// `stats.f.sf(F, 3, 39)` = 0.007628838730725745.
    #[test]
    fn matches_scipy_with_ties() {
        let values: [[f64; 4]; 14] = [
            [0.763, 0.768, 0.771, 0.798],
            [0.599, 0.591, 0.590, 0.569],
            [0.954, 0.971, 0.968, 0.967],
            [0.628, 0.661, 0.654, 0.657],
            [0.882, 0.888, 0.886, 0.898],
            [0.936, 0.931, 0.916, 0.931],
            [0.661, 0.668, 0.609, 0.685],
            [0.583, 0.583, 0.563, 0.625],
            [0.775, 0.838, 0.866, 0.875],
            [1.000, 1.000, 1.000, 1.000],
            [0.940, 0.962, 0.965, 0.962],
            [0.619, 0.666, 0.614, 0.669],
            [0.972, 0.981, 0.975, 0.975],
            [0.957, 0.978, 0.946, 0.970],
        ];
        // Higher is better here, so rank the negated values.
        let ranks: Vec<Vec<f64>> =
            values.iter().map(|row| average_ranks(&row.map(|v| -v))).collect();
        assert_eq!(ranks[7], [2.5, 2.5, 4.0, 1.0]);
        let r = friedman(&ranks).unwrap();
        let close = |a: f64, b: f64| (a - b).abs() < 1e-10 * b;
        assert!(
            close(r.chi2, 10.952_380_952_380_956) && close(r.chi2_p, 0.011_986_176_325_417_788)
        );
        assert!(close(r.f, 4.585_889_570_552_149) && close(r.f_p, 0.007_628_838_730_725_745));
        assert!(friedman(&ranks[..1]).is_none());
    }

    #[test]
    fn identical_rankings_give_an_infinite_f_not_nan() {
        let ranks = vec![vec![1.0, 2.0, 3.0]; 5];
        let r = friedman(&ranks).unwrap();
        assert!((r.chi2 - 10.0).abs() < 1e-12 && r.f.is_infinite() && r.f_p == 0.0);
        let tied = vec![vec![2.0, 2.0, 2.0]; 5];
        let r = friedman(&tied).unwrap();
        assert!(r.chi2 == 0.0 && r.chi2_p == 1.0 && r.f == 0.0 && r.f_p == 1.0, "{r:?}");
    }
}
