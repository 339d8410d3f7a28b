//! Self-training parameters, validated once into [`SelfTraining`].

use crate::error::{Error, Result};
use crate::methods::qlds::LambdaPolicy;

/// Which unlabeled points are pseudo-labeled at each round.
///
/// The paper optimises a margin threshold with the transductive bound of Feofanov et al.
/// (2019); that bound is not reproduced here. Both policies below are documented stand-ins.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Threshold {
    /// Each round, the `step` fraction (of the initial unlabeled count) with the largest
    /// |f(x)|, split over the predicted classes in proportion to the labeled class shares
    /// (a class with too few remaining points leaves its share to the other).
    Fraction { step: f64 },
    /// Each round, every remaining point with |f(x)| ≥ θ·s, s the standard deviation of the
    /// scores of the remaining points; stops when none passes.
    Margin { theta: f64 },
}

/// Unchecked self-training parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SelfTrainingParams {
    pub threshold: Threshold,
    /// Maximum number of pseudo-labeling rounds.
    pub max_rounds: usize,
    /// λ of the LS-SVM base classifier, fixed from the whole training set once.
    pub lambda: LambdaPolicy,
}

impl SelfTrainingParams {
    /// The threshold policy and round cap as `key=value` pairs (config spelling).
    pub fn describe(&self) -> String {
        let policy = match self.threshold {
            Threshold::Fraction { step } => format!("policy=fraction step={step}"),
            Threshold::Margin { theta } => format!("policy=margin theta={theta}"),
        };
        format!("{policy} max_rounds={}", self.max_rounds)
    }
}

impl Default for SelfTrainingParams {
    fn default() -> Self {
        SelfTrainingParams {
            threshold: Threshold::Fraction { step: 0.1 },
            max_rounds: 10,
            lambda: LambdaPolicy::default(),
        }
    }
}

impl SelfTrainingParams {
    /// Validates: 0 < step ≤ 1, θ > 0, at least one round, a valid λ policy.
    pub fn check(self) -> Result<SelfTraining> {
        match self.threshold {
            Threshold::Fraction { step } if !(step > 0.0 && step <= 1.0) => {
                return Err(Error::param("step", format!("must be in (0, 1], got {step}")));
            }
            Threshold::Margin { theta } if !(theta.is_finite() && theta > 0.0) => {
                return Err(Error::param("threshold", format!("must be > 0, got {theta}")));
            }
            _ => {}
        }
        if self.max_rounds == 0 {
            return Err(Error::param("max_rounds", "must be ≥ 1"));
        }
        crate::methods::qlds::QldsParams::new(1.0, 0.0).lambda(self.lambda).check()?;
        Ok(SelfTraining { params: self })
    }
}

/// Checked self-training: build with [`SelfTrainingParams::check`], then `fit`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SelfTraining {
    params: SelfTrainingParams,
}

impl SelfTraining {
    /// The validated parameters.
    pub fn params(&self) -> &SelfTrainingParams {
        &self.params
    }
}
