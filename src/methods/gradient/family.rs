//! The gradient family's config (`kind = "gradient"`) and its method on a split.

use super::adam::Adam;
use super::grid::{OracleGrid, Training};
use super::objective::Inputs;
use super::{Labeled, Unlabeled};
use crate::engine::{Checked, Entry, Family, Fitted, Method, Split};
use crate::error::{Error, Result};
use crate::linalg::to_array2;
use crate::methods::qlds::{dense_memory, moments};

/// Linear semi-supervised losses trained by Adam, oracle-tuned over a grid (QLDS Table 4).
pub struct GradientFamily;

/// One loss with its grid and optimiser, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct GradientSsl {
    pub labeled: Labeled,
    pub unlabeled: Unlabeled,
    pub grid: OracleGrid,
    pub training: Training,
}

impl Family for GradientFamily {
    fn kinds(&self) -> &'static [&'static str] {
        &["gradient"]
    }

    fn check(&self, m: &Entry) -> Result<Checked> {
        m.only(&[
            "loss",
            "unlabeled",
            "alpha_l",
            "alpha_u",
            "lambda_scale",
            "learning_rate",
            "weight_decay",
            "iterations",
            "tolerance",
            "batch",
        ])?;
        let labeled = match m.string("loss")? {
            None => {
                return Err(
                    m.error("loss", format!("required (one of {})", Labeled::NAMES.join(", ")))
                );
            }
            Some(s) => Labeled::parse(&s).ok_or_else(|| {
                m.error("loss", format!("unknown `{s}` (known: {})", Labeled::NAMES.join(", ")))
            })?,
        };
        let unlabeled = match m.string("unlabeled")? {
            None => {
                return Err(m.error(
                    "unlabeled",
                    format!("required (one of {})", Unlabeled::NAMES.join(", ")),
                ));
            }
            Some(s) => Unlabeled::parse(&s).ok_or_else(|| {
                m.error(
                    "unlabeled",
                    format!("unknown `{s}` (known: {})", Unlabeled::NAMES.join(", ")),
                )
            })?,
        };
        let list = |key: &str, min: f64, strict: bool| -> Result<Vec<f64>> {
            let v: Vec<f64> =
                m.get(key)?.ok_or_else(|| m.error(key, "required: a list of numbers"))?;
            match v.iter().find(|&&x| !x.is_finite() || x < min || (strict && x == min)) {
                _ if v.is_empty() => Err(m.error(key, "must not be empty")),
                Some(x) => Err(m.error(
                    key,
                    format!(
                        "every value must be {} {min}, got {x}",
                        if strict { ">" } else { "≥" }
                    ),
                )),
                None => Ok(v),
            }
        };
        let grid = OracleGrid {
            alpha_l: list("alpha_l", 0.0, true)?,
            alpha_u: list("alpha_u", 0.0, false)?,
            lambda_scale: list("lambda_scale", 0.0, true)?,
        };
        let positive = |key: &str, default: f64| -> Result<f64> {
            match m.f64(key)? {
                None => Ok(default),
                Some(x) if x.is_finite() && x > 0.0 => Ok(x),
                Some(x) => Err(m.error(key, format!("must be > 0, got {x}"))),
            }
        };
        let weight_decay = match m.f64("weight_decay")? {
            Some(x) if !(x.is_finite() && x >= 0.0) => {
                return Err(m.error("weight_decay", format!("must be ≥ 0, got {x}")));
            }
            x => x.unwrap_or(Adam::WEIGHT_DECAY),
        };
        let adam = Adam {
            learning_rate: positive("learning_rate", Adam::LEARNING_RATE)?,
            weight_decay,
            max_iterations: m.count("iterations")?.unwrap_or(Adam::ITERATIONS),
            tolerance: positive("tolerance", Adam::TOLERANCE)?,
        };
        let training = Training { adam, batch: m.count("batch")?.unwrap_or(Training::BATCH) };
        if grid.invalid(unlabeled) == grid.points() {
            return Err(m.error(
                "lambda_scale",
                "every grid point is invalid: the quadratic margin needs some α_u < lambda_scale",
            ));
        }
        let name = format!("{}+{}", labeled.short(), unlabeled.short());
        Ok(Checked::new(name, GradientSsl { labeled, unlabeled, grid, training }))
    }
}

impl Method for GradientSsl {
    fn params(&self) -> String {
        let g = &self.grid;
        let a = &self.training.adam;
        format!(
            "loss={} unlabeled={} grid={}x{}x{} invalid={} lr={} weight_decay={} iterations={} tolerance={} batch={}",
            self.labeled.name(),
            self.unlabeled.name(),
            g.alpha_l.len(),
            g.alpha_u.len(),
            g.lambda_scale.len(),
            g.invalid(self.unlabeled),
            a.learning_rate,
            a.weight_decay,
            a.max_iterations,
            a.tolerance,
            self.training.batch
        )
    }

    /// Every valid grid point trains up to the iteration cap: passes over n×d.
    fn cost(&self, n: usize, dim: usize) -> f64 {
        let points = (self.grid.points() - self.grid.invalid(self.unlabeled)) as f64;
        points * self.training.adam.max_iterations as f64 * (n * dim) as f64
    }

    fn memory(&self, n: usize, dim: usize) -> f64 {
        dense_memory(n, dim)
    }

    /// Without unlabeled rows the unlabeled loss is empty: the supervised problem, λ taken
    /// as a multiple of λ_max(C_l) instead of λ_max(C_u).
    fn fit(&self, split: &Split) -> Result<Fitted> {
        let prep = moments(split)?;
        let (top_u, rows) = if split.problem.n_unlabeled() == 0 {
            (prep.top_eig_all()?, "labeled")
        } else {
            (prep.top_eig_unlabeled()?, "unlabeled")
        };
        if !(top_u > 0.0) {
            return Err(Error::Data(format!(
                "λ_max = {top_u}: the {rows} rows have no spread (λ is a multiple of it)"
            )));
        }
        let c_u = split.split_store.get("gradient C_u", || Ok(to_array2(prep.c_u.as_ref())))?;
        let data = Inputs {
            x_l: prep.x_l.view(),
            y_l: prep.y_l.view(),
            x_u: prep.x_u.view(),
            c_u: c_u.view(),
            scale: 1.0 / (prep.n() as f64).sqrt(),
        };
        let best = self.grid.oracle(
            data,
            top_u,
            (self.labeled, self.unlabeled),
            &self.training,
            split.problem.y_u.view(),
        )?;
        Ok(Fitted::from_model(prep.model(best.omega), split)?
            .with("alpha_l", best.alpha_l)
            .with("alpha_u", best.alpha_u)
            .labelled("lambda_policy", "oracle_grid")
            .with("lambda", best.lambda))
    }
}
