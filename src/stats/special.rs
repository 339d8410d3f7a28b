//! Distribution functions the tests need, from the regularised incomplete gamma and beta
//! functions (Numerical Recipes §6.1–6.4): normal, χ², F and Student t tails, the t
//! quantile, and the studentized range at infinite degrees of freedom (Nemenyi's q).

use std::f64::consts::{PI, SQRT_2};

/// ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms; relative error about 1e-15).
pub fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 − x) = π / sin(πx).
        return (PI / (PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let series = C[1..].iter().enumerate().fold(C[0], |s, (i, c)| s + c / (x + i as f64 + 1.0));
    0.5 * (2.0 * PI).ln() + (x + 0.5) * t.ln() - t + series.ln()
}

/// Upper regularised incomplete gamma Q(a, x) = Γ(a, x) / Γ(a), a > 0, x ≥ 0.
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let prefix = (a * x.ln() - x - ln_gamma(a)).exp();
    if x < a + 1.0 {
        // Series for P(a, x).
        let (mut term, mut sum, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..10_000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        1.0 - sum * prefix
    } else {
        // Continued fraction for Q(a, x) (modified Lentz).
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let (mut c, mut d) = (1.0 / tiny, 1.0 / b);
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            d = if d.abs() < tiny { 1.0 / tiny } else { 1.0 / d };
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        prefix * h
    }
}

/// Regularised incomplete beta I_x(a, b), a, b > 0, 0 ≤ x ≤ 1.
pub fn beta_i(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

/// The continued fraction of the incomplete beta function (modified Lentz).
fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    let tiny = 1e-300;
    let clamp = |v: f64| if v.abs() < tiny { tiny } else { v };
    let mut c = 1.0;
    let mut d = 1.0 / clamp(1.0 - (a + b) * x / (a + 1.0));
    let mut h = d;
    for m in 1..10_000 {
        let m = m as f64;
        let even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        d = 1.0 / clamp(1.0 + even * d);
        c = clamp(1.0 + even / c);
        h *= d * c;
        let odd = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
        d = 1.0 / clamp(1.0 + odd * d);
        c = clamp(1.0 + odd / c);
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    h
}

/// P(Z > z) for a standard normal Z, accurate in the far tail (erfc through Q(½, z²/2)).
pub fn normal_sf(z: f64) -> f64 {
    let tail = 0.5 * gamma_q(0.5, z * z / 2.0);
    if z >= 0.0 { tail } else { 1.0 - tail }
}

/// P(Z ≤ z) for a standard normal Z.
pub fn normal_cdf(z: f64) -> f64 {
    normal_sf(-z)
}

/// P(X > x) for X ~ χ² with `df` degrees of freedom.
pub fn chi2_sf(x: f64, df: f64) -> f64 {
    gamma_q(df / 2.0, x.max(0.0) / 2.0)
}

/// P(X > x) for X ~ F(d1, d2).
pub fn f_sf(x: f64, d1: f64, d2: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    beta_i(d2 / 2.0, d1 / 2.0, d2 / (d2 + d1 * x))
}

/// P(|T| > t) for T ~ Student t with `df` degrees of freedom.
fn t_two_sided(t: f64, df: f64) -> f64 {
    beta_i(df / 2.0, 0.5, df / (df + t * t))
}

/// The (1 − α/2) quantile of Student t with `df` ≥ 1 degrees of freedom (bisection).
pub fn t_quantile_two_sided(alpha: f64, df: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 1e7);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if t_two_sided(mid, df) > alpha {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// P(R ≤ q) for the range R of k independent standard normals (the studentized range at
/// infinite degrees of freedom): k ∫ φ(z) [Φ(z + q) − Φ(z)]^(k−1) dz, by Simpson's rule.
pub fn range_cdf(q: f64, k: usize) -> f64 {
    if q <= 0.0 {
        return 0.0;
    }
    let (lo, hi, steps) = (-9.0, 9.0, 3_000);
    let h = (hi - lo) / steps as f64;
    let f = |z: f64| {
        let density = (-z * z / 2.0).exp() / (2.0 * PI).sqrt();
        density * (normal_cdf(z + q) - normal_cdf(z)).max(0.0).powi(k as i32 - 1)
    };
    let inner: f64 =
        (1..steps).map(|i| f(lo + i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 }).sum();
    (k as f64 * h / 3.0 * (f(lo) + inner + f(hi))).min(1.0)
}

/// Nemenyi's critical value q_α for k methods: the (1 − α) quantile of the range of k
/// standard normals divided by √2 (Demšar 2006, Table 5a).
pub fn nemenyi_q(alpha: f64, k: usize) -> f64 {
    let (mut lo, mut hi) = (0.0, 20.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if range_cdf(mid, k) < 1.0 - alpha {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi) / SQRT_2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs().max(1e-300)
    }

    /// Reference values from scipy 1.17.1 (~/.cache/sslab-py-venv):
    /// `from scipy import stats; stats.norm.sf(z), stats.chi2.sf(x, df), stats.f.sf(x, d1, d2),
    /// stats.t.ppf(0.975, df), stats.studentized_range.cdf(q, k, np.inf)`.
    #[test]
    fn tails_match_scipy() {
        for (z, want) in [
            (0.0, 0.5),
            (1.96, 0.024_997_895_148_220_435),
            (-1.0, 0.841_344_746_068_542_9),
            (8.0, 6.220_960_574_271_74e-16),
            (30.0, 4.906_713_927_147_908e-198),
        ] {
            assert!(close(normal_sf(z), want, 1e-12), "norm.sf({z}) = {}", normal_sf(z));
        }
        for (x, df, want) in
            [(9.28, 3.0, 0.025_790_724_198_756_772), (0.5, 1.0, 0.479_500_122_186_953_37)]
        {
            assert!(close(chi2_sf(x, df), want, 1e-10), "chi2.sf({x}, {df}) = {}", chi2_sf(x, df));
        }
        for (x, d1, d2, want) in [
            (3.69, 3.0, 39.0, 0.019_744_099_689_488_88),
            (0.7, 18.0, 288.0, 0.810_703_012_615_475_1),
        ] {
            assert!(close(f_sf(x, d1, d2), want, 1e-10), "f.sf = {}", f_sf(x, d1, d2));
        }
        for (df, want) in [
            (1.0, 12.706_204_736_174_694),
            (19.0, 2.093_024_054_408_308_7),
            (99_999.0, 1.959_987_707_771_844_2),
        ] {
            assert!(close(t_quantile_two_sided(0.05, df), want, 1e-10), "t.ppf({df})");
        }
        for (q, k, want) in
            [(3.633, 4, 0.949_985_021_004_621_9), (5.0, 19, 0.952_920_755_455_275_2)]
        {
            assert!(
                close(range_cdf(q, k), want, 1e-8),
                "range_cdf({q}, {k}) = {}",
                range_cdf(q, k)
            );
        }
    }

    /// Demšar (2006), Table 5a: q_0.05 and q_0.10 for k = 2 … 10, given to three decimals
    /// (rounded, except 2.343 for 2.3437: truncated), so within 0.001.
    #[test]
    fn nemenyi_q_matches_demsar_table() {
        let q05 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164];
        let q10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920];
        for k in 2..=10 {
            assert!(
                (nemenyi_q(0.05, k) - q05[k - 2]).abs() < 1e-3,
                "k {k}: {}",
                nemenyi_q(0.05, k)
            );
            assert!(
                (nemenyi_q(0.10, k) - q10[k - 2]).abs() < 1e-3,
                "k {k}: {}",
                nemenyi_q(0.10, k)
            );
        }
        // Beyond the table: scipy `studentized_range.ppf(0.95, k, np.inf) / np.sqrt(2)`.
        assert!((nemenyi_q(0.05, 19) - 3.517_073_008_691_811).abs() < 1e-6);
        assert!((nemenyi_q(0.05, 20) - 3.543_799_131_517_781_5).abs() < 1e-6);
    }
}
