//! Theoretical score distributions of a fitted QLDS on one problem, for the score
//! histograms of Fig. 1: with the true class means on synthetic data (the general-covariance
//! theory when the classes have other covariances than I), with the setting estimated from
//! the labeled points (as QLDS(th) does) on other data.

use super::setting::centred_means;
use super::{
    GeneralSetting, Scale, Setting, estimate_setting, predict, predict_general, theory_lambda,
};
use crate::data::{DataSource, Problem, class_counts};
use crate::error::{Error, Result};
use crate::methods::qlds::{LambdaPolicy, Moments};

/// N(m_j, σ_j²) of Theorem 1 for the two classes at (α_l, α_u): at λ_th of the policy for
/// the isotropic theory, at `lambda` (the λ the fit used) for general covariances.
pub fn score_gaussians(
    source: Option<&DataSource>,
    problem: &Problem,
    prep: &Moments,
    policy: LambdaPolicy,
    al: f64,
    au: f64,
    lambda: f64,
) -> Result<[(f64, f64); 2]> {
    let count = |y: &ndarray::Array1<f64>| {
        let (pos, neg) = class_counts(y.view());
        [pos, neg]
    };
    let (labeled, unlabeled) = (count(&problem.y_l), count(&problem.y_u));
    let no_value = |why: &dyn std::fmt::Display| {
        Error::Data(format!("theory at ({al}, {au}) has no value: {why}"))
    };
    let mixture = match source {
        Some(DataSource::Generated(g)) => g.mixture(),
        _ => None,
    };
    let (setting, variance) = match mixture {
        Some(mixture) if mixture.variances.iter().flatten().any(|v| *v != 1.0) => {
            let p = predict_general(
                &GeneralSetting::diagonal(
                    labeled,
                    unlabeled,
                    centred_means(mixture, labeled, unlabeled).map(|m| m.to_vec()),
                    &mixture.variances,
                ),
                al,
                au,
                lambda,
            )?
            .map_err(|why| no_value(&why))?;
            return Ok([(p.m[0], p.sigma[0]), (p.m[1], p.sigma[1])]);
        }
        Some(mixture) => (Setting::from_mixture(mixture, labeled, unlabeled)?, 1.0),
        None => {
            let est = estimate_setting(prep, Scale::LabeledWithin)?;
            (est.setting, est.variance)
        }
    };
    let lambda = theory_lambda(&setting, policy, variance)?;
    let p = predict(&setting, al, au, lambda).map_err(|why| no_value(&why))?;
    Ok([(p.m[0], p.sigma), (p.m[1], p.sigma)])
}
