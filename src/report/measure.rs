//! What a summary table (or a curve) summarises: a percentage computed from each row (the
//! error, the PRBEP) or any numeric column of results.csv as written.

use std::borrow::Cow;

use super::columns;
use crate::error::Result;
use crate::protocol::ResultRow;

/// What a table summarises.
#[derive(Debug, Clone)]
pub struct Measure {
    /// How the legend names it.
    pub label: Cow<'static, str>,
    pub source: Source,
    pub higher_is_better: bool,
}

/// Where a measure's value of a row comes from.
#[derive(Debug, Clone)]
pub enum Source {
    /// A percentage computed from the row.
    Percent(fn(&ResultRow) -> Option<f64>),
    /// A numeric column of results.csv as written (see [`columns`]).
    Column(String),
}

/// The error on the unlabeled set in % (lower is better).
pub const ERROR: Measure = Measure {
    label: Cow::Borrowed("Error on the unlabeled set in %"),
    source: Source::Percent(error_percent),
    higher_is_better: false,
};

/// The precision–recall break-even point on the unlabeled set in % (higher is better).
pub const PRBEP: Measure = Measure {
    label: Cow::Borrowed("PRBEP on the unlabeled set in %"),
    source: Source::Percent(|r| r.prbep.is_finite().then_some(100.0 * r.prbep)),
    higher_is_better: true,
};

/// The error on the held-out test rows in % (lower is better).
pub const TEST_ERROR: Measure = Measure {
    label: Cow::Borrowed("Error on the held-out test set in %"),
    source: Source::Percent(|r| r.test_error.filter(|v| v.is_finite()).map(|v| 100.0 * v)),
    higher_is_better: false,
};

/// The PRBEP on the held-out test rows in % (higher is better).
pub const TEST_PRBEP: Measure = Measure {
    label: Cow::Borrowed("PRBEP on the held-out test set in %"),
    source: Source::Percent(|r| r.test_prbep.filter(|v| v.is_finite()).map(|v| 100.0 * v)),
    higher_is_better: true,
};

impl Measure {
    /// Any numeric column of `rows` as written (a fixed column, a value the fits reported
    /// or a swept key), lower taken as better; an error lists the numeric columns.
    pub fn column(rows: &[ResultRow], name: &str) -> Result<Measure> {
        columns::check(rows, name)?;
        Ok(Measure {
            label: Cow::Owned(format!("`{name}` (results.csv column)")),
            source: Source::Column(name.to_string()),
            higher_is_better: false,
        })
    }

    /// The measure's value of a row.
    pub fn value(&self, r: &ResultRow) -> Option<f64> {
        match &self.source {
            Source::Percent(f) => f(r),
            Source::Column(name) => columns::value(r, name).number(),
        }
    }

    /// A mean or std as a table shows it: two decimals (percentages always; a column's
    /// small values in scientific notation).
    pub fn show(&self, x: f64) -> String {
        match self.source {
            Source::Column(_) if x != 0.0 && x.abs() < 0.01 => format!("{x:.2e}"),
            _ => format!("{x:.2}"),
        }
    }
}

/// Error in %, the value tables summarise.
pub fn error_percent(r: &ResultRow) -> Option<f64> {
    r.error.is_finite().then_some(100.0 * r.error)
}
