//! The p-step of deterministic annealing: p_j = 1/(1 + exp((g_j − ν)/T)) with ν the root of
//! mean(p) = r, found by Newton steps safeguarded by bisection.

use crate::error::{Error, Result};

/// Accuracy of the mean constraint.
pub const TOLERANCE: f64 = 1e-10;

/// Fills `p` and returns ν such that |mean(p) − r| ≤ [`TOLERANCE`]; needs 0 < r < 1, T > 0.
/// `g(j)` gives g_j for j < `p.len()` (evaluated on demand, so that no copy is kept).
pub fn p_step(g: impl Fn(usize) -> f64, temperature: f64, r: f64, p: &mut [f64]) -> Result<f64> {
    let u = p.len() as f64;
    let shift = temperature * (r / (1.0 - r)).ln();
    // p_j(ν) = r exactly at ν = g_j + T·logit(r); the root lies between the extremes.
    let mut lo = (0..p.len()).map(&g).fold(f64::INFINITY, f64::min) + shift;
    let mut hi = (0..p.len()).map(&g).fold(f64::NEG_INFINITY, f64::max) + shift;
    if p.is_empty() || !(lo.is_finite() && hi.is_finite()) {
        return Err(Error::Data(format!("DA p-step: {} outputs, bracket [{lo}, {hi}]", p.len())));
    }
    let mut nu = 0.5 * (lo + hi);
    for _ in 0..200 {
        let (mut mean, mut slope) = (0.0, 0.0);
        for (j, pj) in p.iter_mut().enumerate() {
            *pj = logistic((nu - g(j)) / temperature);
            mean += *pj;
            slope += *pj * (1.0 - *pj);
        }
        let f = mean / u - r;
        if f.abs() <= TOLERANCE {
            return Ok(nu);
        }
        if f < 0.0 {
            lo = nu;
        } else {
            hi = nu;
        }
        let newton = nu - f * u * temperature / slope;
        nu = if slope > 0.0 && newton > lo && newton < hi { newton } else { 0.5 * (lo + hi) };
    }
    Err(Error::Data(format!("DA p-step: mean constraint not met at T = {temperature}, r = {r}")))
}

/// 1/(1 + e^(−z)) without overflow.
fn logistic(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

/// Mean binary entropy (natural log) of the probabilities `p`, with 0·log 0 = 0.
pub fn mean_entropy(p: &[f64]) -> f64 {
    let h = |x: f64| if x > 0.0 { -x * x.ln() } else { 0.0 };
    p.iter().map(|&x| h(x) + h(1.0 - x)).sum::<f64>() / p.len().max(1) as f64
}

/// Mean KL(p‖q) of Bernoulli pairs. Only the logarithm's argument is guarded (q kept off 0 and
/// 1 by 1e-300); the public release instead shifts almost every probability by 1e-8 (a typo
/// in its clipping), which we do not copy.
pub fn mean_kl(p: &[f64], q: &[f64]) -> f64 {
    let term = |a: f64, b: f64| if a > 0.0 { a * (a / b.max(1e-300)).ln() } else { 0.0 };
    p.iter().zip(q).map(|(&a, &b)| term(a, b) + term(1.0 - a, 1.0 - b)).sum::<f64>()
        / p.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn meets_the_mean_constraint_over_temperatures_and_fractions() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let g: Vec<f64> = (0..1000).map(|_| rng.random_range(-4.0..4.0)).collect();
        let mut p = vec![0.0; g.len()];
        for t in [10.0, 1.0, 0.1, 1e-3, 5e-5] {
            for r in [0.5, 0.1, 0.93] {
                let nu = p_step(|j| g[j], t, r, &mut p).unwrap();
                let mean = p.iter().sum::<f64>() / p.len() as f64;
                assert!((mean - r).abs() <= 1e-10, "T = {t}, r = {r}: mean {mean}");
                // Independent formula for one point.
                assert!((p[7] - 1.0 / (1.0 + ((g[7] - nu) / t).exp())).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn entropy_and_kl_special_values() {
        assert!((mean_entropy(&[0.5, 0.5]) - 2f64.ln()).abs() < 1e-15);
        assert_eq!(mean_entropy(&[0.0, 1.0]), 0.0);
        assert_eq!(mean_kl(&[0.3, 0.9], &[0.3, 0.9]), 0.0);
        let kl = 0.2 * (0.2f64 / 0.5).ln() + 0.8 * (0.8f64 / 0.5).ln();
        assert!((mean_kl(&[0.2], &[0.5]) - kl).abs() < 1e-15);
    }
}
