//! `kind = "named"`: a dataset of the registry (`configs/datasets.toml`), read from the data
//! directory. Keys: `dataset`; `parts` (default: every part not held out); `official_splits`
//! (the registry's splits with this many labelled rows, or the file's own split); the class
//! keys of [`files`](super::files); `test = { parts }` or `{ fraction }`.

use super::files::{self, Pool};
use super::{DatasetKind, Source, test_table};
use crate::data::load;
use crate::data::registry::Registry;
use crate::engine::Entry;
use crate::error::Result;

/// The `named` dataset kind.
pub struct Named;

impl DatasetKind for Named {
    fn kind(&self) -> &'static str {
        "named"
    }

    fn read(&self, entry: &Entry, splits: usize) -> Result<Source> {
        entry.only(&[
            "dataset",
            "parts",
            "classes",
            "positive",
            "preprocess",
            "official_splits",
            "test",
        ])?;
        let Some(name) = entry.string("dataset")? else {
            return Err(
                entry.error("dataset", "required for a named dataset (see configs/datasets.toml)")
            );
        };
        let test = test_table(entry, &["parts", "fraction"])?;
        let reg = Registry::builtin()?;
        let root = load::data_dir();
        let test_parts = test.as_ref().and_then(|t| t.parts.clone());
        // Without `parts`, the pool is every part not held out for testing.
        let parts = match (entry.get::<Vec<String>>("parts")?, &test_parts) {
            (Some(p), _) => Some(p),
            (None, Some(test)) => Some(
                reg.get(&name)?
                    .parts
                    .iter()
                    .map(|p| p.name.clone())
                    .filter(|p| !test.contains(p))
                    .collect(),
            ),
            (None, None) => None,
        };
        let data = load::load_named(&reg, &name, &root, parts.as_deref())
            .map_err(|e| entry.error("dataset", e))?;
        let fixed = match &test_parts {
            Some(test) => Some(
                load::load_named(&reg, &name, &root, Some(test))
                    .map_err(|e| entry.error("test", e))?,
            ),
            None => None,
        };
        let unknown = data.unknown_truth();
        let official =
            match entry.get::<i64>("official_splits")? {
                None if !unknown.is_empty() => {
                    return Err(entry.error("dataset", format!(
                    "{} rows have no label (the file's own split): use `official_splits = {}`",
                    unknown.len(),
                    data.len() - unknown.len()
                )));
                }
                None => None,
                // The file's own split: its labelled rows, every split alike.
                Some(k) if !unknown.is_empty() => {
                    let known: Vec<usize> =
                        (0..data.len()).filter(|i| !data.y[*i].is_nan()).collect();
                    if usize::try_from(k).ok() != Some(known.len()) {
                        return Err(entry.error(
                            "official_splits",
                            format!("the file's own split labels {} rows", known.len()),
                        ));
                    }
                    Some(vec![known; splits])
                }
                Some(k) => {
                    let labeled = usize::try_from(k).unwrap_or(0);
                    let s = load::official_splits(&reg, &name, &root, labeled, data.len())
                        .map_err(|e| entry.error("official_splits", e))?;
                    if splits > s.len() {
                        return Err(entry.error(
                            "official_splits",
                            format!("{} official splits but experiment.splits = {splits}", s.len()),
                        ));
                    }
                    Some(s)
                }
            };
        files::source(entry, Pool { data, fixed, official }, test.and_then(|t| t.fraction))
    }
}
