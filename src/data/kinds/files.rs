//! What the file kinds (`named`, `svmlight`) share: the class keys (`classes`: a subset in
//! order; `positive`: one against the rest), `preprocess` (applied to the pool and the
//! fixed test rows together) and `test = { fraction }`. Their values are checked with the
//! config; the rows they act on are read on first use.

use std::sync::{Arc, OnceLock};

use toml::Value;

use super::Source;
use crate::data::preprocess::{self, Preprocessing, Step};
use crate::data::{DataSource, Dataset, Features, FileSource, LoadedData, Test};
use crate::error::Result;
use crate::support::{Entry, Lines};

/// The rows a file kind read: the pool, the fixed test rows, and the official splits.
pub(super) struct Pool {
    pub data: Dataset,
    pub fixed: Option<Dataset>,
    pub official: Option<Vec<Vec<usize>>>,
}

/// The class keys and preprocessing of a file dataset entry, checked.
#[derive(Debug, Clone)]
pub(super) struct Refine {
    classes: Option<Vec<Value>>,
    positive: Option<Vec<Value>>,
    steps: Option<Vec<Step>>,
    /// What `preprocess` learned from the rows, once read.
    learned: Arc<OnceLock<Preprocessing>>,
}

impl Refine {
    /// Where [`apply`](Self::apply) leaves what the preprocessing learned (a file source's
    /// [`FileSource::preprocessing`]).
    pub fn learned(&self) -> Arc<OnceLock<Preprocessing>> {
        self.learned.clone()
    }

    /// Reads `classes`, `positive` and `preprocess`; `official`: the splits are official
    /// (which fix the rows, so no class subset).
    pub fn read(entry: &Entry, official: bool) -> Result<Refine> {
        let classes = entry.get::<Vec<Value>>("classes")?;
        if classes.is_some() && official {
            return Err(entry.error("classes", "a class subset changes the rows, so it cannot use official_splits (use `positive`)"));
        }
        let positive = entry.value("positive").map(|p| match p {
            Value::Array(a) => a.clone(),
            v => vec![v.clone()],
        });
        let steps = match entry.get::<Vec<String>>("preprocess")? {
            None => None,
            Some(names) => Some(
                names
                    .iter()
                    .map(|s| {
                        Step::parse(s).ok_or_else(|| {
                            entry.error(
                                "preprocess",
                                format!(
                                    "unknown step `{s}`{} (known: {})",
                                    crate::support::suggest::did_you_mean(
                                        s,
                                        Step::NAMES.iter().copied()
                                    ),
                                    Step::NAMES.join(", ")
                                ),
                            )
                        })
                    })
                    .collect::<Result<Vec<_>>>()?,
            ),
        };
        Ok(Refine { classes, positive, steps, learned: Arc::default() })
    }

    /// The pool and test rows with the class keys and preprocessing applied.
    pub fn apply(&self, pool: Pool, at: &Lines) -> Result<LoadedData> {
        let Pool { mut data, fixed: mut test, official } = pool;
        if let Some(c) = &self.classes {
            let ids = names(c, &data).map_err(|e| at.error("classes", e))?;
            data = data.select_classes(&ids).map_err(|e| at.error("classes", e))?;
            test = test
                .map(|t| t.select_classes(&ids))
                .transpose()
                .map_err(|e| at.error("classes", e))?;
        }
        if let Some(p) = &self.positive {
            let ids = names(p, &data).map_err(|e| at.error("positive", e))?;
            data = data.one_vs_rest(&ids).map_err(|e| at.error("positive", e))?;
            test = test
                .map(|t| t.one_vs_rest(&ids))
                .transpose()
                .map_err(|e| at.error("positive", e))?;
        }
        if let Some(steps) = &self.steps {
            let learned = match test.as_mut() {
                None => {
                    let (x, learned) = preprocess::learn(data.x, steps);
                    data.x = x;
                    learned
                }
                // Test rows are preprocessed with the pool (features only, as unlabeled rows are).
                Some(t) => {
                    let n = data.len();
                    let both = Features::stack(&[&data.x, &t.x], t.dim())
                        .map_err(|e| at.error("preprocess", e))?;
                    let (both, learned) = preprocess::learn(both, steps);
                    data.x = both.select_rows(&(0..n).collect::<Vec<_>>());
                    t.x = both.select_rows(&(n..both.nrows()).collect::<Vec<_>>());
                    learned
                }
            };
            // The rows are read once (FileSource): a second value would be the same.
            let _ = self.learned.set(learned);
        }
        Ok(LoadedData { dataset: data, official_splits: official, test: test.map(Arc::new) })
    }
}

/// A file kind's source: `read` reads its pool on first use, leaving what its preprocessing
/// learned in `learned` ([`Refine::learned`]); `fixed` is whether the entry holds out fixed
/// test rows, `fraction` its `test = { fraction }`.
pub(super) fn source(
    entry: &Entry,
    (official, fixed, fraction): (bool, bool, Option<f64>),
    learned: Arc<OnceLock<Preprocessing>>,
    read: impl Fn() -> Result<LoadedData> + Send + Sync + 'static,
) -> Result<Source> {
    let test = match fraction {
        Some(f) if official => {
            return Err(entry.error(
                "test",
                format!(
                    "fraction = {f}: official splits use every row; give a fixed test part instead"
                ),
            ));
        }
        Some(f) if f > 0.0 && f < 1.0 => Some(Test::Fraction(f)),
        Some(f) => return Err(entry.error("test", format!("fraction: must be in (0, 1), got {f}"))),
        None => fixed.then_some(Test::Fixed),
    };
    let file = FileSource::new(official, read).with_preprocessing(learned);
    Ok(Source { data: DataSource::Loaded(Arc::new(file)), test })
}

/// Class ids of class names given as strings or integers.
fn names(list: &[Value], data: &Dataset) -> Result<Vec<usize>> {
    list.iter()
        .map(|v| match v {
            Value::String(s) => data.class_id(s),
            Value::Integer(n) => data
                .class_id(&n.to_string())
                .or_else(|e| data.class_id(&format!("+{n}")).map_err(|_| e)),
            other => data.class_id(&other.to_string()),
        })
        .collect()
}
