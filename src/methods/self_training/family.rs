//! The self-training family's config (`kind = "self_training"`) and its method on a split.

use super::{SelfTraining, SelfTrainingParams, Threshold};
use crate::engine::{Checked, Entry, Family, Fitted, Method, Split};
use crate::error::Result;
use crate::methods::qlds::{dense_cost, dense_memory, lambda_policy, moments};

/// ST(LS-SVM).
pub struct SelfTrainingFamily;

impl Family for SelfTrainingFamily {
    fn kinds(&self) -> &'static [&'static str] {
        &["self_training"]
    }

    fn check(&self, m: &Entry) -> Result<Checked> {
        m.only(&["lambda", "epsilon", "policy", "step", "theta", "max_rounds"])?;
        let lambda = lambda_policy(m)?;
        let threshold = match m.string("policy")?.as_deref() {
            None | Some("fraction") => Threshold::Fraction { step: m.f64("step")?.unwrap_or(0.1) },
            Some("margin") => Threshold::Margin { theta: m.f64("theta")?.unwrap_or(1.0) },
            Some(other) => {
                return Err(m.error(
                    "policy",
                    format!("unknown policy `{other}` (known: fraction, margin)"),
                ));
            }
        };
        let wrong = match threshold {
            Threshold::Fraction { .. } => "theta",
            Threshold::Margin { .. } => "step",
        };
        if m.has(wrong) {
            return Err(m.error(wrong, "not used by this policy"));
        }
        let max_rounds = m.count("max_rounds")?.unwrap_or(SelfTrainingParams::default().max_rounds);
        let st = SelfTrainingParams { threshold, max_rounds, lambda }
            .check()
            .map_err(|e| m.param_error(e, ""))?;
        Ok(Checked::new("ST(LS-SVM)", st))
    }
}

impl Method for SelfTraining {
    fn params(&self) -> String {
        self.params().describe()
    }

    fn cost(&self, n: usize, dim: usize) -> f64 {
        self.params().max_rounds as f64 * dense_cost(n, dim)
    }

    fn memory(&self, n: usize, dim: usize) -> f64 {
        dense_memory(n, dim)
    }

    fn fit(&self, split: &Split) -> Result<Fitted> {
        let prep = moments(split)?;
        let f = self.fit_prepared(&prep)?;
        Ok(Fitted::from_model(prep.model(f.omega), split)?
            .with("alpha_l", 1.0)
            .with("alpha_u", 0.0)
            .labelled("lambda_policy", self.params().lambda.name())
            .with("lambda", f.lambda))
    }
}
