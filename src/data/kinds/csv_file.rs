//! `kind = "csv"`: one CSV file with a header row, read on first use. Keys: `path`, `label`
//! (the label column's name), `delimiter` (one character, default `,`), `labels` (label
//! values in class order), the class keys of [`files`](super::files), `test = { path }` (a
//! CSV file with the same header) or `{ fraction }`. Every other column is a numeric
//! feature; a missing or non-numeric value is an error naming its line and column.

use std::path::PathBuf;

use toml::Value;

use super::files::{self, Pool, Refine};
use super::{DatasetKind, Source, test_table};
use crate::data::table;
use crate::error::{Error, Result};
use crate::support::{Entry, Lines};

/// The `csv` dataset kind.
pub struct Csv;

impl DatasetKind for Csv {
    fn kind(&self) -> &'static str {
        "csv"
    }

    fn read(&self, entry: &Entry, _splits: usize) -> Result<Source> {
        entry.only(&[
            "path",
            "label",
            "delimiter",
            "labels",
            "classes",
            "positive",
            "preprocess",
            "test",
        ])?;
        let (path, test_path, fraction) = paths(entry, "a csv")?;
        let Some(label) = entry.string("label")? else {
            return Err(entry.error("label", "required: the name of the label column"));
        };
        let delimiter = match entry.string("delimiter")?.as_deref() {
            None => b',',
            Some("\\t" | "\t") => b'\t',
            Some(d) if d.len() == 1 => d.as_bytes()[0],
            Some(d) => {
                return Err(entry.error("delimiter", format!("must be one character, got `{d}`")));
            }
        };
        let file = File { path, test: test_path, label, delimiter, order: order(entry)? };
        let refine = Refine::read(entry, false)?;
        let fixed = file.test.is_some();
        let at = entry.lines();
        let learned = refine.learned();
        files::source(entry, (false, fixed, fraction), learned, move || {
            refine.apply(file.read(&at)?, &at)
        })
    }
}

/// `path` (required, existing) and `test = { path }` (existing) or `{ fraction }`, paths
/// read from the config's folder (unchanged when absolute).
pub(super) fn paths(entry: &Entry, what: &str) -> Result<(PathBuf, Option<PathBuf>, Option<f64>)> {
    let Some(path) = entry.string("path")? else {
        return Err(entry.error("path", format!("required for {what} dataset")));
    };
    let test = test_table(entry, &["path", "fraction"])?;
    let base = entry.base();
    let exists = |written: &str, key: &str| {
        let p = base.resolve(written);
        std::fs::metadata(&p).map(|_| p.clone()).map_err(|e| {
            entry.error(key, format!("{}{}", Error::io(&p, e), base.relative_note(written)))
        })
    };
    let path = exists(&path, "path")?;
    let test_path = match test.as_ref().and_then(|t| t.path.as_deref()) {
        Some(p) => Some(exists(p, "test")?),
        None => None,
    };
    Ok((path, test_path, test.and_then(|t| t.fraction)))
}

/// `labels = [...]` (numbers or strings) as class names in order.
pub(super) fn order(entry: &Entry) -> Result<Option<Vec<String>>> {
    Ok(entry.get::<Vec<Value>>("labels")?.map(|list| {
        list.iter()
            .map(|v| match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect()
    }))
}

/// What a `csv` entry reads, checked.
struct File {
    path: PathBuf,
    test: Option<PathBuf>,
    label: String,
    delimiter: u8,
    order: Option<Vec<String>>,
}

impl File {
    /// Reads the pool and the test file (same header, the pool's classes).
    fn read(&self, at: &Lines) -> Result<Pool> {
        let (x, labels, header) = table::read_csv(&self.path, &self.label, self.delimiter)
            .map_err(|e| at.error("path", e))?;
        let data =
            table::dataset(x, &labels, self.order.as_deref()).map_err(|e| at.error("path", e))?;
        let fixed = match &self.test {
            None => None,
            Some(p) => {
                let (x, labels, h) = table::read_csv(p, &self.label, self.delimiter)
                    .map_err(|e| at.error("test", e))?;
                if h != header {
                    return Err(at.error(
                        "test",
                        format!("{}: its header differs from the pool's", p.display()),
                    ));
                }
                Some(
                    table::dataset(x, &labels, Some(&data.class_names))
                        .map_err(|e| at.error("test", e))?,
                )
            }
        };
        Ok(Pool { data, fixed, official: None })
    }
}
