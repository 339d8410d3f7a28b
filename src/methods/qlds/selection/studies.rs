//! Theory-only studies over the (α_l, α_u) grid with the true setting: the gain of
//! theory-tuned QLDS over LS-SVM (the paper's Fig. 5) and the cost of assuming the
//! unlabeled class proportions equal the labeled ones (Fig. 4).

use serde::Serialize;

use super::grid::{ErrorGrid, Grid};
use crate::data::Sampler;
use crate::data::synthetic::GaussianMixture;
use crate::error::{Error, Result};
use crate::methods::qlds::LambdaPolicy;
use crate::methods::qlds::theory::{Setting, predict, theory_lambda};

/// Theoretical errors over the grid for a setting (None where invalid).
pub fn theory_grid(setting: &Setting, grid: &Grid, policy: LambdaPolicy) -> Result<ErrorGrid> {
    let lambda = theory_lambda(setting, policy, 1.0)?;
    ErrorGrid::build(grid, |al, au| {
        Ok::<_, Error>(predict(setting, al, au, lambda).ok().map(|p| p.error))
    })
}

/// One cell of the phase diagram (errors as fractions).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PhasePoint {
    pub labeled_per_class: usize,
    /// ‖μ₁ − μ₂‖ (μ₁ = −μ₂).
    pub distance: f64,
    pub ls_svm_error: f64,
    pub tuned_error: f64,
    pub alpha_l: f64,
    pub alpha_u: f64,
    /// ls_svm_error − tuned_error.
    pub gain: f64,
}

/// Theory-tuned QLDS (minimum over the grid) against LS-SVM = QLDS(1, 0), both by the
/// theory, for each labeled count per class and mean distance; (1, 0) must be on the grid.
pub fn phase_diagram(
    dim: usize,
    unlabeled_per_class: usize,
    labeled: &[usize],
    distances: &[f64],
    grid: &Grid,
    policy: LambdaPolicy,
) -> Result<Vec<PhasePoint>> {
    let mut out = Vec::new();
    for &nl in labeled {
        for &dist in distances {
            let setting = Setting::symmetric(dim, [nl; 2], [unlabeled_per_class; 2], dist / 2.0)?;
            let errors = theory_grid(&setting, grid, policy)?;
            let ls = errors.at_point(1.0, 0.0);
            let (best, ls) = match (errors.best(), ls) {
                (Some(b), Some(l)) => (b, l),
                _ => {
                    return Err(Error::Data(format!(
                        "theory invalid at n_l = {nl}, distance {dist}"
                    )));
                }
            };
            out.push(PhasePoint {
                labeled_per_class: nl,
                distance: dist,
                ls_svm_error: ls,
                tuned_error: best.2,
                alpha_l: best.0,
                alpha_u: best.1,
                gain: ls - best.2,
            });
        }
    }
    Ok(out)
}

/// The gains of `points` in percentage points, one row per distance and one column per
/// labeled count (NaN where the diagram has no cell), for the heatmap of Fig. 5.
pub fn gain_table(points: &[PhasePoint], labeled: &[usize], distances: &[f64]) -> Vec<Vec<f64>> {
    let gain = |n: usize, d: f64| {
        points
            .iter()
            .find(|p| p.labeled_per_class == n && p.distance == d)
            .map_or(f64::NAN, |p| 100.0 * p.gain)
    };
    distances.iter().map(|&d| labeled.iter().map(|&n| gain(n, d)).collect()).collect()
}

/// One unlabeled class share of the proportion study.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ProportionPoint {
    /// Share of class +1 among the unlabeled points (the labeled set is balanced).
    pub unlabeled_share: f64,
    /// True error of the point chosen assuming unlabeled shares = labeled shares.
    pub assumed_error: f64,
    /// Best true error over the grid (unlabeled shares known).
    pub known_error: f64,
}

/// Fig. 4: balanced labeled set, unlabeled class +1 share p; the grid point is chosen by the
/// theory either with the assumption (balanced unlabeled counts) or with the true counts,
/// and evaluated with the true counts. G is that of μ₁ = −μ₂, ‖μ‖ = `mean_norm`, centred
/// with the true population mean.
pub fn proportion_study(
    dim: usize,
    labeled_per_class: usize,
    unlabeled: usize,
    mean_norm: f64,
    shares: &[f64],
    grid: &Grid,
    policy: LambdaPolicy,
) -> Result<Vec<ProportionPoint>> {
    let mixture = GaussianMixture::symmetric(dim, mean_norm)?;
    let half = unlabeled / 2;
    shares
        .iter()
        .map(|&p| {
            if !(0.0..=1.0).contains(&p) {
                return Err(Error::param("shares", format!("must be in [0, 1], got {p}")));
            }
            let u1 = (p * unlabeled as f64).round() as usize;
            let truth =
                Setting::from_mixture(&mixture, [labeled_per_class; 2], [u1, unlabeled - u1])?;
            let assumed = Setting { unlabeled: [half, unlabeled - half], ..truth };
            let true_grid = theory_grid(&truth, grid, policy)?;
            let invalid = || Error::Data(format!("theory invalid on the whole grid at share {p}"));
            let (al, au, _) = theory_grid(&assumed, grid, policy)?.best().ok_or_else(invalid)?;
            let lambda = theory_lambda(&truth, policy, 1.0)?;
            let assumed_error = predict(&truth, al, au, lambda).map_err(|_| invalid())?.error;
            let known_error = true_grid.best().ok_or_else(invalid)?.2;
            Ok(ProportionPoint { unlabeled_share: p, assumed_error, known_error })
        })
        .collect()
}

/// A simulation spot check of one phase-diagram cell (errors as fractions, means over draws).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SpotCheck {
    pub labeled_per_class: usize,
    pub distance: f64,
    pub draws: usize,
    /// Empirical LS-SVM error and empirical error of QLDS(th) (G estimated from the data).
    pub ls_svm_error: f64,
    pub tuned_error: f64,
    pub gain: f64,
}

/// Fits LS-SVM and QLDS(th) on `draws` fresh draws of a phase-diagram cell (draw `i` seeded
/// with `seed + i`), with the λ policy, grid and dimension of the diagram.
pub fn spot_check(
    dim: usize,
    unlabeled_per_class: usize,
    labeled_per_class: usize,
    distance: f64,
    grid: &Grid,
    draws: usize,
    seed: u64,
) -> Result<SpotCheck> {
    use rand::SeedableRng;
    let mixture = GaussianMixture::symmetric(dim, distance / 2.0)?;
    let ls = crate::methods::qlds::QldsParams::new(1.0, 0.0).check()?;
    let th = super::SelectQlds::new(
        super::Policy::Theory { scale: crate::methods::qlds::theory::Scale::None },
        grid.clone(),
        LambdaPolicy::default(),
    )?;
    let (mut ls_err, mut th_err) = (0.0, 0.0);
    for i in 0..draws {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed.wrapping_add(i as u64));
        let p = mixture.sample_problem([labeled_per_class; 2], [unlabeled_per_class; 2], &mut rng);
        let x_u = p.x_u.to_dense();
        ls_err += crate::data::error_rate(ls.fit(&p)?.scores(x_u.view()).view(), p.y_u.view())
            / draws as f64;
        th_err += crate::data::error_rate(th.run(&p)?.scores.view(), p.y_u.view()) / draws as f64;
    }
    Ok(SpotCheck {
        labeled_per_class,
        distance,
        draws,
        ls_svm_error: ls_err,
        tuned_error: th_err,
        gain: ls_err - th_err,
    })
}
