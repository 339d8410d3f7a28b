//! P(D > 0 in every coordinate) for a Gaussian vector D ~ N(m, C): the probability that the
//! argmax rule is right, by Genz's separation of variables (Genz 1992) with seeded uniform
//! draws. One coordinate is exact; more are an average of products of normal CDFs, whose
//! spread over draws is far below a plain Monte-Carlo count's.

use faer::Mat;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::normal_cdf;

/// Pivots of the Cholesky factor below this fraction of the largest variance count as 0
/// (that coordinate of D is then a deterministic function of the earlier ones).
const PIVOT_TOL: f64 = 1e-12;

/// P(D_i > 0 for all i), D ~ N(`mean`, `cov`) (`cov` symmetric positive semi-definite),
/// averaged over `draws` draws of the uniform variables from `seed`.
pub fn orthant_probability(mean: &[f64], cov: &Mat<f64>, draws: usize, seed: u64) -> f64 {
    let p = mean.len();
    let l = semidefinite_cholesky(cov);
    let draws = if p <= 1 { 1 } else { draws.max(1) };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut z = vec![0.0; p];
    let mut total = 0.0;
    for _ in 0..draws {
        let mut product = 1.0;
        for i in 0..p {
            // D_i = mean_i + Σ_{j<i} L_ij z_j + L_ii z_i > 0.
            let shift = mean[i] + (0..i).map(|j| l[(i, j)] * z[j]).sum::<f64>();
            if l[(i, i)] == 0.0 {
                z[i] = 0.0;
                product *= if shift > 0.0 { 1.0 } else { 0.0 };
            } else {
                let e = normal_cdf(shift / l[(i, i)]);
                product *= e;
                // z_i from N(0, 1) truncated to z_i > −shift/L_ii, by inversion.
                let w: f64 = rng.random();
                z[i] = -inverse_normal_cdf(((1.0 - w) * e).max(f64::MIN_POSITIVE));
            }
            if product == 0.0 {
                break;
            }
        }
        total += product;
    }
    total / draws as f64
}

/// The lower Cholesky factor of a positive semi-definite matrix, with the columns of
/// (numerically) zero pivots set to 0.
fn semidefinite_cholesky(a: &Mat<f64>) -> Mat<f64> {
    let p = a.nrows();
    let scale = (0..p).map(|i| a[(i, i)]).fold(0.0f64, f64::max);
    let mut l = Mat::<f64>::zeros(p, p);
    for j in 0..p {
        let pivot = a[(j, j)] - (0..j).map(|k| l[(j, k)] * l[(j, k)]).sum::<f64>();
        if !(pivot > PIVOT_TOL * scale) {
            continue;
        }
        let root = pivot.sqrt();
        l[(j, j)] = root;
        for i in j + 1..p {
            let dot: f64 = (0..j).map(|k| l[(i, k)] * l[(j, k)]).sum();
            l[(i, j)] = (a[(i, j)] - dot) / root;
        }
    }
    l
}

/// Φ⁻¹(q) for q ∈ (0, 1): Acklam's rational approximation (relative error < 1.2e-9).
pub fn inverse_normal_cdf(q: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    const LOW: f64 = 0.024_25;
    let tail = |q: f64| {
        let t = (-2.0 * q.ln()).sqrt();
        (((((C[0] * t + C[1]) * t + C[2]) * t + C[3]) * t + C[4]) * t + C[5])
            / ((((D[0] * t + D[1]) * t + D[2]) * t + D[3]) * t + 1.0)
    };
    if q < LOW {
        tail(q)
    } else if q > 1.0 - LOW {
        -tail(1.0 - q)
    } else {
        let x = q - 0.5;
        let r = x * x;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * x
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_cdf_matches_scipy() {
        // python -c "from scipy.stats import norm; print(norm.ppf([0.001, 0.3, 0.975, 0.9999]))"
        let want = [
            (0.001, -3.090_232_306_167_813),
            (0.3, -0.524_400_512_708_040_9),
            (0.975, 1.959_963_984_540_054),
            (0.9999, 3.719_016_485_455_709),
        ];
        for (q, x) in want {
            assert!((inverse_normal_cdf(q) - x).abs() < 1e-8 * x.abs(), "Φ⁻¹({q})");
        }
    }

    #[test]
    fn orthants_match_closed_forms() {
        let equi = |p: usize, rho: f64| Mat::from_fn(p, p, |i, j| if i == j { 1.0 } else { rho });
        // Bivariate: 1/4 + asin(ρ)/(2π); trivariate: 1/8 + Σ asin(ρ_ij)/(4π) (ρ = 1/2: 1/3, 1/4).
        let two = orthant_probability(&[0.0; 2], &equi(2, 0.5), 4000, 1);
        assert!((two - 1.0 / 3.0).abs() < 2e-3, "{two}");
        let three = orthant_probability(&[0.0; 3], &equi(3, 0.5), 4000, 1);
        assert!((three - 0.25).abs() < 2e-3, "{three}");
        // Independent coordinates: the product of the marginals, exactly (no randomness left).
        let diag = Mat::from_fn(3, 3, |i, j| if i == j { [1.0, 4.0, 0.25][i] } else { 0.0 });
        let got = orthant_probability(&[0.5, -1.0, 0.1], &diag, 10, 2);
        let want = normal_cdf(0.5) * normal_cdf(-0.5) * normal_cdf(0.2);
        assert!((got - want).abs() < 1e-14, "{got} vs {want}");
        // A deterministic coordinate (zero variance) is an indicator.
        let degenerate = Mat::from_fn(2, 2, |i, j| if i == 0 && j == 0 { 1.0 } else { 0.0 });
        assert_eq!(orthant_probability(&[0.0, -1.0], &degenerate, 10, 3), 0.0);
        let one = orthant_probability(&[1.0, 1.0], &degenerate, 10, 3);
        assert!((one - normal_cdf(1.0)).abs() < 1e-15);
    }
}
