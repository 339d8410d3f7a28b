//! The K-class theory against simulation of its data model: fit multi-class QLDS on fresh
//! draws of N(μ_k, I_d) (orthogonal means of equal norm) and compare the argmax error,
//! the own-class mean score and the score spread with [`predict_multiclass`].

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::check::over_settings;
use super::{
    MulticlassSetting, SPLIT_LIMIT, multiclass_lambda, predict_multiclass, predict_multiclass_limit,
};
use crate::data::ClassMixture;
use crate::error::Result;
use crate::methods::qlds::{LambdaPolicy, QldsParams};

/// One setting: K classes, balanced or not, d, counts of class 1, ‖μ_j‖ and (α_l, α_u).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MulticlassCheckSetting {
    pub classes: usize,
    /// Equal counts, or class j with (2 − j/(K−1))× the counts of the last class.
    pub balanced: bool,
    pub dim: usize,
    /// Labeled and unlabeled points of the last (smallest) class.
    pub labeled_per_class: usize,
    pub unlabeled_per_class: usize,
    pub mean_norm: f64,
    pub alpha_l: f64,
    pub alpha_u: f64,
}

impl MulticlassCheckSetting {
    /// Labeled and unlabeled counts per class (the same class shares in both).
    pub fn counts(&self) -> (Vec<usize>, Vec<usize>) {
        let k = self.classes;
        let weight = |j: usize| {
            if self.balanced { 1.0 } else { 2.0 - j as f64 / (k - 1).max(1) as f64 }
        };
        let scaled =
            |base: usize| (0..k).map(|j| (base as f64 * weight(j)).round() as usize).collect();
        (scaled(self.labeled_per_class), scaled(self.unlabeled_per_class))
    }
}

/// The grid of `make qlds-multiclass-theory`: K ∈ {3, 4, 10}, balanced and not,
/// d ∈ {100, 200, 400}, 20 labeled and 300 unlabeled points in the smallest class,
/// ‖μ_j‖ = 3, (α_l, α_u) ∈ {(1, 0), (0.5, 0.5), (0.1, 1), (1, 0.3)}: 72 settings.
pub fn multiclass_grid() -> Vec<MulticlassCheckSetting> {
    grid(
        &[3, 4, 10],
        &[100, 200, 400],
        &[(20, 300)],
        &[3.0],
        &[(1.0, 0.0), (0.5, 0.5), (0.1, 1.0), (1.0, 0.3)],
    )
}

/// The hold-out grid of the finite-n rule (`make qlds-multiclass-theory-holdout`), fixed
/// before it was run: K ∈ {3, 5, 8}, balanced and not, d ∈ {150, 300}, (15, 250) or
/// (30, 500) points in the smallest class, ‖μ_j‖ ∈ {2.5, 3.5}, (α_l, α_u) ∈ {(0, 1),
/// (0.1, 1), (0.2, 0.9), (0.5, 0.5), (1, 0.3)}: 240 settings.
pub fn multiclass_holdout_grid() -> Vec<MulticlassCheckSetting> {
    grid(
        &[3, 5, 8],
        &[150, 300],
        &[(15, 250), (30, 500)],
        &[2.5, 3.5],
        &[(0.0, 1.0), (0.1, 1.0), (0.2, 0.9), (0.5, 0.5), (1.0, 0.3)],
    )
}

/// Every combination, balanced and not, in the order of the arguments.
fn grid(
    classes: &[usize],
    dims: &[usize],
    counts: &[(usize, usize)],
    norms: &[f64],
    alphas: &[(f64, f64)],
) -> Vec<MulticlassCheckSetting> {
    let points = classes.iter().flat_map(|&k| [true, false].map(|b| (k, b)));
    let points = points.flat_map(|p| dims.iter().map(move |&d| (p, d)));
    let points = points.flat_map(|p| counts.iter().map(move |&c| (p, c)));
    let points = points.flat_map(|p| norms.iter().map(move |&r| (p, r)));
    let points = points.flat_map(|p| alphas.iter().map(move |&a| (p, a)));
    points
        .map(|(((((classes, balanced), dim), (labeled, unlabeled)), mean_norm), (al, au))| {
            MulticlassCheckSetting {
                classes,
                balanced,
                dim,
                labeled_per_class: labeled,
                unlabeled_per_class: unlabeled,
                mean_norm,
                alpha_l: al,
                alpha_u: au,
            }
        })
        .collect()
}

/// Theory and simulation for one setting (`theory_*` empty where the theory is invalid).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MulticlassCheckRow {
    pub classes: usize,
    pub balanced: bool,
    pub dim: usize,
    pub labeled: String,
    pub unlabeled: String,
    pub mean_norm: f64,
    pub alpha_l: f64,
    pub alpha_u: f64,
    pub lambda_policy: &'static str,
    pub draws: usize,
    /// The limit's conditions hold and `split_ratio` < 0.1 (the finite-n rule).
    pub theory_valid: bool,
    /// Finite-n spread of coinciding signal spikes over λ's distance above them (empty
    /// where the limit's conditions fail).
    pub split_ratio: Option<f64>,
    /// The theory's error without the finite-n rule (empty where the limit's conditions fail).
    pub theory_error_limit: Option<f64>,
    /// Mean over classes j of the mean score of the own class, m_j[j].
    pub theory_own_mean: Option<f64>,
    /// Mean over classes c of the standard deviation of f_c.
    pub theory_sd: Option<f64>,
    pub theory_error: Option<f64>,
    pub empirical_own_mean: f64,
    pub empirical_sd: f64,
    pub empirical_error: f64,
    /// Sample standard deviation over draws of the error.
    pub empirical_error_std: f64,
    /// |theory − empirical error| ≤ 0.01.
    pub error_within_001: bool,
    /// The λ the theory is evaluated at ((1+ε)·theoretical edge) and the mean over draws of
    /// the λ the fits used ((1+ε)·λ̂_max).
    pub theory_lambda: f64,
    pub empirical_lambda: f64,
    /// The theory evaluated at `empirical_lambda` instead (empty when invalid there).
    pub theory_error_at_empirical_lambda: Option<f64>,
}

/// Simulation summary over draws: own-class mean score, score spread, error mean and std,
/// mean λ of the fits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EmpiricalMulticlass {
    pub own_mean: f64,
    pub sd: f64,
    pub error: f64,
    pub error_std: f64,
    pub lambda: f64,
}

/// Fits multi-class QLDS(α_l, α_u) with `policy` on `draws` fresh problems of the setting;
/// draw `i` uses the seed `seed + i`.
pub fn simulate_multiclass(
    c: &MulticlassCheckSetting,
    policy: LambdaPolicy,
    draws: usize,
    seed: u64,
) -> Result<EmpiricalMulticlass> {
    let mixture = ClassMixture::orthogonal(c.dim, c.classes, c.mean_norm)?;
    let qlds = QldsParams { alpha_l: c.alpha_l, alpha_u: c.alpha_u, lambda: policy }.check()?;
    let (labeled, unlabeled) = c.counts();
    let k = c.classes;
    let (mut own, mut sd, mut lambda) = (0.0, 0.0, 0.0);
    let mut errors = Vec::with_capacity(draws);
    for i in 0..draws {
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(i as u64));
        let p = mixture.sample_problem(&labeled, &unlabeled, &mut rng)?;
        let x = p.x_u.to_dense();
        let fitted = qlds.fit_multiclass(&p)?;
        lambda += fitted.lambda / draws as f64;
        let scores = fitted.scores(x.view());
        errors.push(fitted.error_rate(x.view(), &p.classes_u));
        // Per class j and column c: the mean and the within-class sum of squares.
        let rows_of = |j: usize| p.classes_u.iter().enumerate().filter(move |(_, y)| **y == j);
        let mut ss = vec![0.0; k];
        for j in 0..k {
            let count = rows_of(j).count().max(1) as f64;
            for (col, ss_col) in ss.iter_mut().enumerate() {
                let mean = rows_of(j).map(|(r, _)| scores[[r, col]]).sum::<f64>() / count;
                *ss_col += rows_of(j).map(|(r, _)| (scores[[r, col]] - mean).powi(2)).sum::<f64>();
                if col == j {
                    own += mean / (k * draws) as f64;
                }
            }
        }
        let dof = (p.classes_u.len() as f64 - k as f64).max(1.0);
        sd += ss.iter().map(|v| (v / dof).sqrt()).sum::<f64>() / (k * draws) as f64;
    }
    let error = errors.iter().sum::<f64>() / draws.max(1) as f64;
    let var =
        errors.iter().map(|e| (e - error).powi(2)).sum::<f64>() / (draws as f64 - 1.0).max(1.0);
    Ok(EmpiricalMulticlass { own_mean: own, sd, error, error_std: var.sqrt(), lambda })
}

/// Theory and simulation for every setting (in parallel over settings), `draws` draws
/// each; setting `i` uses the seeds `seed + 1000·i + k`. `progress` draws a bar on stderr.
pub fn run_multiclass_check(
    settings: &[MulticlassCheckSetting],
    policy: LambdaPolicy,
    draws: usize,
    seed: u64,
    progress: bool,
) -> Result<Vec<MulticlassCheckRow>> {
    over_settings(settings, draws, progress, |i, c| {
        let (labeled, unlabeled) = c.counts();
        let s =
            MulticlassSetting::orthogonal(c.dim, labeled.clone(), unlabeled.clone(), c.mean_norm)?;
        let lambda = multiclass_lambda(&s, policy, 1.0)?;
        let limit = predict_multiclass_limit(&s, c.alpha_l, c.alpha_u, lambda).ok();
        let th = limit.as_ref().filter(|p| p.split_ratio < SPLIT_LIMIT);
        let emp = simulate_multiclass(c, policy, draws, seed + 1000 * i as u64)?;
        let k = c.classes as f64;
        let list = |v: &[usize]| v.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(",");
        Ok(MulticlassCheckRow {
            classes: c.classes,
            balanced: c.balanced,
            dim: c.dim,
            labeled: list(&labeled),
            unlabeled: list(&unlabeled),
            mean_norm: c.mean_norm,
            alpha_l: c.alpha_l,
            alpha_u: c.alpha_u,
            lambda_policy: policy.name(),
            draws,
            theory_valid: th.is_some(),
            split_ratio: limit.as_ref().map(|p| p.split_ratio),
            theory_error_limit: limit.as_ref().map(|p| p.error),
            theory_own_mean: th.map(|t| (0..c.classes).map(|j| t.means[j][j]).sum::<f64>() / k),
            theory_sd: th
                .map(|t| (0..c.classes).map(|j| t.covariance[(j, j)].sqrt()).sum::<f64>() / k),
            theory_error: th.map(|t| t.error),
            empirical_own_mean: emp.own_mean,
            empirical_sd: emp.sd,
            empirical_error: emp.error,
            empirical_error_std: emp.error_std,
            error_within_001: th.is_some_and(|t| (t.error - emp.error).abs() <= 0.01),
            theory_lambda: lambda,
            empirical_lambda: emp.lambda,
            theory_error_at_empirical_lambda: predict_multiclass(
                &s, c.alpha_l, c.alpha_u, emp.lambda,
            )
            .ok()
            .map(|t| t.error),
        })
    })
}
