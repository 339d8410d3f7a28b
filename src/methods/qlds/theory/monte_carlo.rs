//! Monte-Carlo check of the theory (spec §5): fit QLDS on fresh draws of N(±μ, I_d) and
//! compare the unlabeled scores' per-class means, spread and error with [`predict`].

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Invalid, Prediction, Setting, predict, theory_lambda};
use crate::data::Sampler;
use crate::data::error_rate;
use crate::data::synthetic::GaussianMixture;
use crate::error::Result;
use crate::methods::qlds::{LambdaPolicy, QldsParams};

/// Empirical summary over independent draws.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Empirical {
    /// Mean over draws of each class's mean unlabeled score.
    pub m: [f64; 2],
    /// Mean over draws of the pooled within-class standard deviation of the scores.
    pub sigma: f64,
    /// Mean and sample standard deviation over draws of the error.
    pub error: f64,
    pub error_std: f64,
}

/// Theory at the λ the policy corresponds to (λ_th = (1+ε)·edge, or the fixed λ).
pub fn theory_at_policy(
    setting: &Setting,
    al: f64,
    au: f64,
    policy: LambdaPolicy,
) -> Result<Result<Prediction, Invalid>> {
    Ok(predict(setting, al, au, theory_lambda(setting, policy, 1.0)?))
}

/// Fits QLDS(α_l, α_u) with `policy` on `draws` fresh problems of the symmetric setting;
/// draw `i` uses the seed `seed + i`.
pub fn simulate(
    setting: &Setting,
    norm: f64,
    al: f64,
    au: f64,
    policy: LambdaPolicy,
    draws: usize,
    seed: u64,
) -> Result<Empirical> {
    let mixture = GaussianMixture::symmetric(setting.dim, norm)?;
    let qlds = QldsParams { alpha_l: al, alpha_u: au, lambda: policy }.check()?;
    let (mut m, mut sigma, mut errors) = ([0.0; 2], 0.0, Vec::with_capacity(draws));
    for i in 0..draws {
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(i as u64));
        let p = mixture.sample_problem(setting.labeled, setting.unlabeled, &mut rng);
        let scores = qlds.fit(&p)?.scores(p.x_u.to_dense().view());
        let mut ss = 0.0;
        for (j, label) in [1.0, -1.0].into_iter().enumerate() {
            let class: Vec<f64> =
                scores.iter().zip(&p.y_u).filter(|(_, y)| **y == label).map(|(s, _)| *s).collect();
            let mean = class.iter().sum::<f64>() / class.len().max(1) as f64;
            ss += class.iter().map(|s| (s - mean).powi(2)).sum::<f64>();
            m[j] += mean / draws as f64;
        }
        sigma += (ss / (scores.len() as f64 - 2.0).max(1.0)).sqrt() / draws as f64;
        errors.push(error_rate(scores.view(), p.y_u.view()));
    }
    let error = errors.iter().sum::<f64>() / draws.max(1) as f64;
    let var =
        errors.iter().map(|e| (e - error).powi(2)).sum::<f64>() / (draws as f64 - 1.0).max(1.0);
    Ok(Empirical { m, sigma, error, error_std: var.sqrt() })
}
