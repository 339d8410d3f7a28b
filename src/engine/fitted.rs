//! What a fit gives the result row: the scores, the scores of held-out test rows, the
//! model that scored them, and the parameters the fit used or chose, reported by name (each
//! becomes a `results.csv` column of that name, see `protocol::results`).

use ndarray::{Array1, Array2};

use super::{Model, Scores, Split};
use crate::error::Result;

/// One value a fit reports: a number (a column that `sslab table` and `plot-curve` can
/// summarise) or a label (e.g. the λ policy `max_eig_all`).
#[derive(Debug, Clone, PartialEq)]
pub enum Reported {
    Number(f64),
    Label(String),
}

/// What a fit gives the result row.
#[derive(Debug, Clone)]
pub struct Fitted {
    /// Scores of the unlabeled rows.
    pub scores: Scores,
    /// The parameters used or chosen (`alpha_l`, `lambda`, `lambda_policy`, a tuned `gamma`,
    /// `k`, ...), by name in the order reported; a later value of a name replaces an
    /// earlier one.
    pub reported: Vec<(String, Reported)>,
    /// Scores of the split's test rows (None: no test rows, or a transductive method).
    pub test: Option<Scores>,
    /// The model that scored the unlabeled and test rows (None: a transductive method, or
    /// an external program, whose test scores come from the program).
    pub model: Option<Model>,
    /// The wall time of the fit when the method measured it itself (an external program's
    /// run, without sslab's file exchange): the row's `fit_seconds`.
    pub seconds: Option<f64>,
}

impl Fitted {
    /// Binary scores, nothing reported yet.
    pub fn binary(scores: Array1<f64>) -> Self {
        Fitted::new(Scores::Binary(scores))
    }

    /// Per-class scores, nothing reported yet.
    pub fn per_class(scores: Array2<f64>) -> Self {
        Fitted::new(Scores::PerClass(scores))
    }

    /// The scores, nothing reported yet.
    pub fn new(scores: Scores) -> Self {
        Fitted { scores, reported: Vec::new(), test: None, model: None, seconds: None }
    }

    /// The split's unlabeled and test rows scored by `model`, nothing reported yet: the one
    /// scoring path of every method that leaves a model.
    pub fn from_model(model: Model, split: &Split) -> Result<Self> {
        let mut fitted = Fitted::new(model.score(&split.problem.x_u)?);
        fitted.test = split.test.map(|x| model.score(x)).transpose()?;
        fitted.model = Some(model);
        Ok(fitted)
    }

    /// The fit reporting the number `value` under `name`.
    pub fn with(self, name: &str, value: f64) -> Self {
        self.report(name, Reported::Number(value))
    }

    /// The fit reporting the label `label` under `name`.
    pub fn labelled(self, name: &str, label: &str) -> Self {
        self.report(name, Reported::Label(label.to_string()))
    }

    fn report(mut self, name: &str, value: Reported) -> Self {
        self.reported.retain(|(n, _)| n != name);
        self.reported.push((name.to_string(), value));
        self
    }

    /// The number reported under `name`, if any.
    pub fn number(&self, name: &str) -> Option<f64> {
        self.reported.iter().find_map(|(n, v)| match v {
            Reported::Number(x) if n == name => Some(*x),
            _ => None,
        })
    }

    /// The label reported under `name`, if any.
    pub fn label(&self, name: &str) -> Option<&str> {
        self.reported.iter().find_map(|(n, v)| match v {
            Reported::Label(s) if n == name => Some(s.as_str()),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_value_of_a_name_replaces_the_earlier_one_in_place_of_order() {
        let f = Fitted::binary(Array1::zeros(1))
            .with("lambda", 1.0)
            .labelled("p", "cv")
            .with("lambda", 2.0);
        let names: Vec<&str> = f.reported.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["p", "lambda"]);
        assert_eq!((f.number("lambda"), f.number("p"), f.number("k")), (Some(2.0), None, None));
    }
}
