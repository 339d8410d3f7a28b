//! The Monte-Carlo acceptance grid of spec §5: theory against simulation for every
//! (d, n_l, n_u, ‖μ‖, α_l, α_u), one row per setting.

use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::Serialize;

use super::{Setting, simulate, theory_at_policy};
use crate::error::{Error, Result};
use crate::methods::qlds::LambdaPolicy;

/// One setting of the check: per-class counts, ‖μ‖ (μ₁ = −μ₂) and (α_l, α_u).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CheckSetting {
    pub dim: usize,
    pub labeled_per_class: usize,
    pub unlabeled_per_class: usize,
    pub mean_norm: f64,
    pub alpha_l: f64,
    pub alpha_u: f64,
}

/// Spec §5: d ∈ {100, 400}, n_l ∈ {10, 50}, n_u ∈ {500, 1000} per class, ‖μ‖ ∈ {1, 1.5, 2},
/// (α_l, α_u) ∈ {(1, 0), (0, 1), (0.5, 0.5), (0.1, 1), (1, 0.3)}: 120 settings.
pub fn spec_grid() -> Vec<CheckSetting> {
    let mut out = Vec::new();
    for dim in [100, 400] {
        for labeled_per_class in [10, 50] {
            for unlabeled_per_class in [500, 1000] {
                for mean_norm in [1.0, 1.5, 2.0] {
                    for (alpha_l, alpha_u) in
                        [(1.0, 0.0), (0.0, 1.0), (0.5, 0.5), (0.1, 1.0), (1.0, 0.3)]
                    {
                        out.push(CheckSetting {
                            dim,
                            labeled_per_class,
                            unlabeled_per_class,
                            mean_norm,
                            alpha_l,
                            alpha_u,
                        });
                    }
                }
            }
        }
    }
    out
}

/// Theory and simulation for one setting (`theory_*` empty where the theory is invalid).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckRow {
    pub dim: usize,
    pub labeled_per_class: usize,
    pub unlabeled_per_class: usize,
    pub mean_norm: f64,
    pub alpha_l: f64,
    pub alpha_u: f64,
    pub lambda_policy: &'static str,
    pub draws: usize,
    pub theory_valid: bool,
    pub theory_m1: Option<f64>,
    pub theory_m2: Option<f64>,
    pub theory_sigma: Option<f64>,
    pub theory_error: Option<f64>,
    pub empirical_m1: f64,
    pub empirical_m2: f64,
    pub empirical_sigma: f64,
    pub empirical_error: f64,
    pub empirical_error_std: f64,
    /// m_1, m_2 and σ within 10% of the simulation.
    pub moments_within_10pct: bool,
    /// m_1/σ within 10% of the simulation's (scale-free; what the error depends on).
    pub ratio_within_10pct: bool,
    /// |theory − empirical error| ≤ 0.02.
    pub error_within_002: bool,
}

/// Runs every setting (in parallel over settings) with `draws` draws each; setting `i`
/// uses the seeds `seed + 1000·i + k`. `progress` draws a bar on stderr (when a terminal).
pub fn run_check(
    settings: &[CheckSetting],
    policy: LambdaPolicy,
    draws: usize,
    seed: u64,
    progress: bool,
) -> Result<Vec<CheckRow>> {
    over_settings(settings, draws, progress, |i, c| {
        let s = Setting::symmetric(
            c.dim,
            [c.labeled_per_class; 2],
            [c.unlabeled_per_class; 2],
            c.mean_norm,
        )?;
        let th = theory_at_policy(&s, c.alpha_l, c.alpha_u, policy)?.ok();
        let emp =
            simulate(&s, c.mean_norm, c.alpha_l, c.alpha_u, policy, draws, seed + 1000 * i as u64)?;
        let close = |a: f64, b: f64| (a / b - 1.0).abs() <= 0.1;
        let moments = th.is_some_and(|t| {
            close(t.m[0], emp.m[0]) && close(t.m[1], emp.m[1]) && close(t.sigma, emp.sigma)
        });
        let ratio = th.is_some_and(|t| close(t.m[0] / t.sigma, emp.m[0] / emp.sigma));
        Ok(CheckRow {
            dim: c.dim,
            labeled_per_class: c.labeled_per_class,
            unlabeled_per_class: c.unlabeled_per_class,
            mean_norm: c.mean_norm,
            alpha_l: c.alpha_l,
            alpha_u: c.alpha_u,
            lambda_policy: policy.name(),
            draws,
            theory_valid: th.is_some(),
            theory_m1: th.map(|t| t.m[0]),
            theory_m2: th.map(|t| t.m[1]),
            theory_sigma: th.map(|t| t.sigma),
            theory_error: th.map(|t| t.error),
            empirical_m1: emp.m[0],
            empirical_m2: emp.m[1],
            empirical_sigma: emp.sigma,
            empirical_error: emp.error,
            empirical_error_std: emp.error_std,
            moments_within_10pct: moments,
            ratio_within_10pct: ratio,
            error_within_002: th.is_some_and(|t| (t.error - emp.error).abs() <= 0.02),
        })
    })
}

/// `row(i, setting)` for every setting, in parallel (the index seeds the setting's draws),
/// once `draws` ≥ 2 is checked; a progress bar on stderr when `progress`.
pub(super) fn over_settings<S: Sync, R: Send>(
    settings: &[S],
    draws: usize,
    progress: bool,
    row: impl Fn(usize, &S) -> Result<R> + Sync,
) -> Result<Vec<R>> {
    if draws < 2 {
        return Err(Error::param("draws", format!("must be ≥ 2, got {draws}")));
    }
    let bar =
        if progress { ProgressBar::new(settings.len() as u64) } else { ProgressBar::hidden() };
    let rows = settings
        .par_iter()
        .enumerate()
        .map(|(i, c)| {
            let r = row(i, c);
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();
    rows
}
