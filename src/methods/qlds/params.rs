//! QLDS parameters, validated once into [`Qlds`].

use crate::error::{Error, Result};

/// How λ is chosen; ε is the relative margin above the top eigenvalue.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LambdaPolicy {
    /// λ = (1+ε)·λ_max(X Xᵀ/n) over all (centred) training points.
    MaxEigAll { epsilon: f64 },
    /// λ = (1+ε)·λ_max(C_u), as in the paper's Algorithm 1.
    MaxEigUnlabeled { epsilon: f64 },
    /// A fixed positive number.
    Fixed(f64),
}

impl LambdaPolicy {
    /// Default ε of the eigenvalue policies.
    pub const EPSILON: f64 = 1e-3;

    /// Reads a policy, the one parser of configs and command lines: `max_eig_all`,
    /// `max_eig_unlabeled` (both with ε) or a number (a fixed λ); None otherwise.
    pub fn parse(text: &str, epsilon: f64) -> Option<Self> {
        match text {
            "max_eig_all" => Some(LambdaPolicy::MaxEigAll { epsilon }),
            "max_eig_unlabeled" => Some(LambdaPolicy::MaxEigUnlabeled { epsilon }),
            number => number.trim().parse().ok().map(LambdaPolicy::Fixed),
        }
    }

    /// The config spelling of the policy (`max_eig_all`, `max_eig_unlabeled` or `fixed`).
    pub fn name(&self) -> &'static str {
        match self {
            LambdaPolicy::MaxEigAll { .. } => "max_eig_all",
            LambdaPolicy::MaxEigUnlabeled { .. } => "max_eig_unlabeled",
            LambdaPolicy::Fixed(_) => "fixed",
        }
    }
}

impl Default for LambdaPolicy {
    fn default() -> Self {
        LambdaPolicy::MaxEigAll { epsilon: Self::EPSILON }
    }
}

/// Unchecked QLDS parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QldsParams {
    pub alpha_l: f64,
    pub alpha_u: f64,
    pub lambda: LambdaPolicy,
}

impl QldsParams {
    /// Parameters with the default λ policy (`max_eig_all`, ε = 1e-3).
    pub fn new(alpha_l: f64, alpha_u: f64) -> Self {
        QldsParams { alpha_l, alpha_u, lambda: LambdaPolicy::default() }
    }

    /// Replaces the λ policy.
    pub fn lambda(mut self, lambda: LambdaPolicy) -> Self {
        self.lambda = lambda;
        self
    }

    /// Validates: α_l, α_u ≥ 0 and finite, not both 0; with an eigenvalue policy α_u ≤ 1
    /// (so the system stays positive definite); ε > 0; a fixed λ > 0.
    pub fn check(self) -> Result<Qlds> {
        for (name, v) in [("alpha_l", self.alpha_l), ("alpha_u", self.alpha_u)] {
            if !v.is_finite() || v < 0.0 {
                return Err(Error::param(name, format!("must be finite and ≥ 0, got {v}")));
            }
        }
        if self.alpha_l == 0.0 && self.alpha_u == 0.0 {
            return Err(Error::param("alpha_l", "alpha_l and alpha_u cannot both be 0"));
        }
        match self.lambda {
            LambdaPolicy::MaxEigAll { epsilon } | LambdaPolicy::MaxEigUnlabeled { epsilon } => {
                if !(epsilon.is_finite() && epsilon > 0.0) {
                    return Err(Error::param("epsilon", format!("must be > 0, got {epsilon}")));
                }
                if self.alpha_u > 1.0 {
                    return Err(Error::param(
                        "alpha_u",
                        format!(
                            "must be ≤ 1 with an eigenvalue λ policy (got {}); use a fixed λ instead",
                            self.alpha_u
                        ),
                    ));
                }
            }
            LambdaPolicy::Fixed(l) => {
                if !(l.is_finite() && l > 0.0) {
                    return Err(Error::param("lambda", format!("must be > 0, got {l}")));
                }
            }
        }
        Ok(Qlds { params: self })
    }
}

/// Checked QLDS: build with [`QldsParams::check`], then `fit` a problem.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Qlds {
    params: QldsParams,
}

impl Qlds {
    /// The validated parameters.
    pub fn params(&self) -> &QldsParams {
        &self.params
    }
}
