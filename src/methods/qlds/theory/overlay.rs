//! Theoretical score distributions of a fitted QLDS on one problem, for the score
//! histograms of Fig. 1: with the true class means on synthetic data, with the setting
//! estimated from the labeled points (as QLDS(th) does) on other data.

use super::{Scale, Setting, estimate_setting, predict, theory_lambda};
use crate::data::{DataSource, Problem, class_counts};
use crate::error::{Error, Result};
use crate::methods::qlds::{LambdaPolicy, Prepared};

/// N(m_j, σ²) of Theorem 1 for the two classes at (α_l, α_u) and the λ policy.
pub fn score_gaussians(source: &DataSource, problem: &Problem, prep: &Prepared, policy: LambdaPolicy, (al, au): (f64, f64)) -> Result<[(f64, f64); 2]> {
    let count = |y: &ndarray::Array1<f64>| {
        let (pos, neg) = class_counts(y.view());
        [pos, neg]
    };
    let (setting, variance) = match source {
        DataSource::Synthetic(mixture) => (Setting::from_mixture(mixture, count(&problem.y_l), count(&problem.y_u))?, 1.0),
        _ => {
            let est = estimate_setting(prep, Scale::LabeledWithin)?;
            (est.setting, est.variance)
        }
    };
    let lambda = theory_lambda(&setting, policy, variance)?;
    let p = predict(&setting, al, au, lambda).map_err(|why| Error::Data(format!("theory at ({al}, {au}) has no value: {why}")))?;
    Ok([(p.m[0], p.sigma), (p.m[1], p.sigma)])
}
