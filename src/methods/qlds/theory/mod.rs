//! Random-matrix theory of QLDS (Feofanov et al. 2023, Theorem 1; spec `qlds.md` §2–§3):
//! the Gaussian limit N(m_j, σ²) of the scores of each class, hence the error, from d, the
//! per-class counts and G = MᵀM only. Invalid points are reported as [`Invalid`], never as
//! numbers.

mod check;
mod common;
mod edge;
mod estimate;
mod estimators;
mod general;
mod isotropic;
mod monte_carlo;
mod multiclass;
mod multiclass_check;
mod multiclass_estimate;
mod multiclass_setting;
mod multiclass_split;
mod normal;
mod orthant;
mod overlay;
mod setting;

pub use check::{CheckRow, CheckSetting, run_check, spec_grid};
pub use common::{CommonSetting, common_edge, common_lambda, predict_common};
pub use edge::{EdgeMatrix, lambda_th, spectrum_edge, theory_lambda};
pub use estimate::{Estimate, Scale, estimate_setting};
pub use estimators::{Estimator, common_setting, estimated_gaussians};
pub use general::{GeneralPrediction, GeneralSetting, predict_general};
pub use isotropic::{Invalid, Prediction, predict};
pub use monte_carlo::{Empirical, simulate, theory_at_policy};
pub use multiclass::{
    ARGMAX_DRAWS, MulticlassPrediction, multiclass_edge, multiclass_lambda, predict_multiclass,
    predict_multiclass_limit,
};
pub use multiclass_check::{
    EmpiricalMulticlass, MulticlassCheckRow, MulticlassCheckSetting, multiclass_grid,
    multiclass_holdout_grid, run_multiclass_check, simulate_multiclass,
};
pub use multiclass_estimate::{MulticlassEstimate, estimate_multiclass_setting};
pub use multiclass_setting::MulticlassSetting;
pub use multiclass_split::SPLIT_LIMIT;
pub use normal::normal_cdf;
pub use orthant::{inverse_normal_cdf, orthant_probability};
pub use overlay::score_gaussians;
pub use setting::Setting;

#[cfg(test)]
mod tests;
