//! What the file kinds (`named`, `svmlight`) share once their rows are read: the class keys
//! (`classes`: a subset in order; `positive`: one against the rest), `preprocess` (applied
//! to the pool and the fixed test rows together) and the `test` set.

use std::sync::Arc;

use toml::Value;

use super::Source;
use crate::data::preprocess::{self, Step};
use crate::data::{DataSource, Dataset, Features, LoadedData, Test};
use crate::engine::Entry;
use crate::error::Result;

/// The rows a file kind read: the pool, the fixed test rows, and the official splits.
pub(super) struct Pool {
    pub data: Dataset,
    pub fixed: Option<Dataset>,
    pub official: Option<Vec<Vec<usize>>>,
}

/// The source of a file kind's `pool` after the class keys and preprocessing; `fraction`
/// is `test = { fraction }`.
pub(super) fn source(entry: &Entry, pool: Pool, fraction: Option<f64>) -> Result<Source> {
    let Pool { mut data, fixed: mut test, official } = pool;
    if let Some(c) = entry.get::<Vec<Value>>("classes")? {
        if official.is_some() {
            return Err(entry.error("classes", "a class subset changes the rows, so it cannot use official_splits (use `positive`)"));
        }
        let ids = names(&c, &data).map_err(|e| entry.error("classes", e))?;
        data = data.select_classes(&ids).map_err(|e| entry.error("classes", e))?;
        test = test
            .map(|t| t.select_classes(&ids))
            .transpose()
            .map_err(|e| entry.error("classes", e))?;
    }
    if let Some(p) = entry.value("positive") {
        let list = match p {
            Value::Array(a) => a.clone(),
            v => vec![v.clone()],
        };
        let ids = names(&list, &data).map_err(|e| entry.error("positive", e))?;
        data = data.one_vs_rest(&ids).map_err(|e| entry.error("positive", e))?;
        test = test
            .map(|t| t.one_vs_rest(&ids))
            .transpose()
            .map_err(|e| entry.error("positive", e))?;
    }
    if let Some(p) = entry.get::<Vec<String>>("preprocess")? {
        let steps = p
            .iter()
            .map(|s| {
                Step::parse(s).ok_or_else(|| {
                    entry.error(
                        "preprocess",
                        format!("unknown step `{s}` (known: {})", Step::NAMES.join(", ")),
                    )
                })
            })
            .collect::<Result<Vec<_>>>()?;
        match test.as_mut() {
            None => data.x = preprocess::apply(data.x, &steps),
            // Test rows are preprocessed with the pool (features only, as unlabeled rows are).
            Some(t) => {
                let n = data.len();
                let both = Features::stack(&[&data.x, &t.x], t.dim())
                    .map_err(|e| entry.error("preprocess", e))?;
                let both = preprocess::apply(both, &steps);
                data.x = both.select_rows(&(0..n).collect::<Vec<_>>());
                t.x = both.select_rows(&(n..both.nrows()).collect::<Vec<_>>());
            }
        }
    }
    let test_kind = match fraction {
        Some(f) if official.is_some() => {
            return Err(entry.error(
                "test",
                format!(
                    "fraction = {f}: official splits use every row; give a fixed test part instead"
                ),
            ));
        }
        Some(f) if f > 0.0 && f < 1.0 => Some(Test::Fraction(f)),
        Some(f) => return Err(entry.error("test", format!("fraction: must be in (0, 1), got {f}"))),
        None => test.as_ref().map(|_| Test::Fixed),
    };
    let loaded = LoadedData { dataset: data, official_splits: official, test: test.map(Arc::new) };
    Ok(Source { data: DataSource::Loaded(Arc::new(loaded)), test: test_kind })
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
