//! Scores of the unlabeled rows and how every run is scored: binary scores by their sign
//! (error and PRBEP), per-class scores by the argmax (error only).

use ndarray::{Array1, Array2};

use crate::data::Problem;
use crate::stats::prbep;

/// Scores of the unlabeled rows, one per row or one per (row, class).
#[derive(Debug, Clone)]
pub enum Scores {
    /// f(x), sign = predicted label (a score of 0 predicts +1).
    Binary(Array1<f64>),
    /// One column per class; the prediction is the first maximum of the row.
    PerClass(Array2<f64>),
}

impl Scores {
    /// Error on the unlabeled rows of `problem`.
    pub fn error(&self, problem: &Problem) -> f64 {
        self.error_on(&problem.y_u, &problem.classes_u)
    }

    /// Precision–recall break-even point on the unlabeled rows (NaN for per-class scores).
    pub fn prbep(&self, problem: &Problem) -> f64 {
        self.prbep_on(&problem.y_u)
    }

    /// Error against ±1 labels `y` (binary) or class ids `classes` (per class); NaN where
    /// some truth is unknown (`y` NaN).
    pub fn error_on(&self, y: &Array1<f64>, classes: &[usize]) -> f64 {
        if y.iter().any(|v| v.is_nan()) {
            return f64::NAN;
        }
        let n = match self {
            Scores::Binary(_) => y.len(),
            Scores::PerClass(_) => classes.len(),
        };
        self.wrong_on(y, classes, n) as f64 / n.max(1) as f64
    }

    /// Misclassified rows among the first `rows` unlabeled rows of `problem`.
    pub fn wrong(&self, problem: &Problem, rows: usize) -> usize {
        self.wrong_on(&problem.y_u, &problem.classes_u, rows)
    }

    /// Misclassified rows among the first `rows` against `y` (binary; a score of 0 predicts
    /// +1) or `classes` (per class, the first maximum).
    fn wrong_on(&self, y: &Array1<f64>, classes: &[usize], rows: usize) -> usize {
        match self {
            Scores::Binary(s) => {
                let predicted = s.iter().map(|v| if *v >= 0.0 { 1.0 } else { -1.0 });
                predicted.zip(y).take(rows).filter(|(p, t)| p != *t).count()
            }
            Scores::PerClass(s) => {
                argmax_rows(s).iter().zip(classes).take(rows).filter(|(p, t)| p != t).count()
            }
        }
    }

    /// PRBEP against ±1 labels `y` (NaN for per-class scores or unknown truth).
    pub fn prbep_on(&self, y: &Array1<f64>) -> f64 {
        match self {
            Scores::Binary(_) if y.iter().any(|v| v.is_nan()) => f64::NAN,
            Scores::Binary(s) => prbep(s.view(), y.view()),
            Scores::PerClass(_) => f64::NAN,
        }
    }
}

/// Predicted class per row: argmax over the row (first maximum on ties).
pub fn argmax_rows(scores: &Array2<f64>) -> Vec<usize> {
    scores
        .rows()
        .into_iter()
        .map(|r| (0..r.len()).fold(0, |best, k| if r[k] > r[best] { k } else { best }))
        .collect()
}

#[cfg(test)]
mod tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn argmax_takes_the_first_maximum() {
        assert_eq!(
            argmax_rows(&array![[0.1, 0.5, 0.5], [2.0, 1.0, 0.0], [0.0, 0.0, 3.0]]),
            [1, 0, 2]
        );
    }
}
