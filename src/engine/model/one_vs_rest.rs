//! A one-vs-rest model: one binary [`Model`] per class (class k against the rest), whose
//! score columns side by side are the per-class scores; the prediction is their argmax.
//! As `.npz`: `one_vs_rest` (1,) holds K and the arrays of class k's model carry the prefix
//! `class{k}_` (docs/output.md, "Saved models").

use ndarray::{Array1, Array2};

use super::{Linear, Model, Rows};
use crate::engine::Scores;
use crate::error::{Error, Result};

/// The K binary models of a one-vs-rest fit, class k's at index k.
#[derive(Debug, Clone, PartialEq)]
pub struct OneVsRest {
    pub models: Vec<Model>,
}

/// The name of class `k`'s arrays in a saved one-vs-rest model.
pub fn prefix(k: usize) -> String {
    format!("class{k}_")
}

impl OneVsRest {
    /// The K binary models (at least two, of one width, each with one score column).
    pub fn new(models: Vec<Model>) -> Result<Self> {
        let bad = |why: String| Err(Error::Data(format!("a one-vs-rest model: {why}")));
        let Some(first) = models.first() else { return bad("no class model".into()) };
        if models.len() < 2 {
            return bad(format!("{} class model, at least 2 needed", models.len()));
        }
        if let Some(m) = models.iter().find(|m| m.dim() != first.dim()) {
            return bad(format!("class models of {} and {} features", first.dim(), m.dim()));
        }
        if let Some(m) = models.iter().find(|m| m.columns() != 1) {
            return bad(format!("a class model of {} score columns, not 1", m.columns()));
        }
        Ok(OneVsRest { models })
    }

    /// Per-class scores of the rows of `x`: column k is class k's binary score.
    pub fn score(&self, x: Rows) -> Result<Scores> {
        let mut out = Array2::zeros((x.shape().0, self.models.len()));
        for (k, m) in self.models.iter().enumerate() {
            match m.score(x)? {
                Scores::Binary(s) => out.column_mut(k).assign(&s),
                Scores::PerClass(_) => unreachable!("checked in new: one column per class"),
            }
        }
        Ok(Scores::PerClass(out))
    }

    /// The K models as one linear model of K columns when they are all linear with one
    /// centre and one scale (every linear family: the same scores, bit for bit).
    pub fn linear(&self) -> Option<Linear> {
        let linear: Vec<&Linear> = self
            .models
            .iter()
            .map(|m| match m {
                Model::Linear(l) => Some(l),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let first = linear[0];
        if linear.iter().any(|l| l.center != first.center || l.scale != first.scale) {
            return None;
        }
        let columns: Vec<_> = linear.iter().map(|l| l.weights.column(0)).collect();
        Some(Linear {
            weights: ndarray::stack(ndarray::Axis(1), &columns).expect("one width, checked in new"),
            center: first.center.clone(),
            scale: first.scale,
            bias: Array1::from_iter(linear.iter().map(|l| l.bias[0])),
        })
    }
}
