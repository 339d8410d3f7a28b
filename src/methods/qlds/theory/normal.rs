//! The standard normal CDF Φ_N, through a Chebyshev fit of erfc (relative error < 1.2e-7,
//! Numerical Recipes' `erfcc`), enough for error rates.

/// Φ_N(x) = P(Z ≤ x) for Z ~ N(0, 1).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_tabulated_values() {
        // Φ(0) = 0.5, Φ(1) = 0.841344746, Φ(−1.96) = 0.024997895, Φ(−3) = 0.001349898.
        for (x, want) in
            [(0.0, 0.5), (1.0, 0.841_344_746), (-1.96, 0.024_997_895), (-3.0, 0.001_349_898)]
        {
            assert!(
                (normal_cdf(x) - want).abs() < 2e-7 * want.max(1e-3),
                "Φ({x}) = {}",
                normal_cdf(x)
            );
        }
        assert!((normal_cdf(2.5) + normal_cdf(-2.5) - 1.0).abs() < 1e-12);
    }
}
