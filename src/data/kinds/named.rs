//! `kind = "named"`: a dataset of the registry (`configs/datasets.toml`), read from the data
//! directory on first use. Keys: `dataset`; `parts` (default: every part not held out);
//! `official_splits` (the registry's splits with this many labelled rows, or the file's own
//! split); the class keys of [`files`](super::files); `test = { parts }` or `{ fraction }`.
//! Checking the entry looks the dataset up and checks that its files are present.

use std::path::PathBuf;

use super::files::{self, Pool, Refine};
use super::{DatasetKind, Source, test_table};
use crate::data::load;
use crate::data::registry::Registry;
use crate::error::Result;
use crate::support::{Entry, Lines};

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
        let registered = reg.get(&name).map_err(|e| entry.error("dataset", e))?;
        let root = entry.base().data_dir.clone();
        let test_parts = test.as_ref().and_then(|t| t.parts.clone());
        // Without `parts`, the pool is every part not held out for testing.
        let parts = match (entry.get::<Vec<String>>("parts")?, &test_parts) {
            (Some(p), _) => Some(p),
            (None, Some(test)) => Some(
                registered
                    .parts
                    .iter()
                    .map(|p| p.name.clone())
                    .filter(|p| !test.contains(p))
                    .collect(),
            ),
            (None, None) => None,
        };
        load::check_named(&reg, &name, &root, parts.as_deref())
            .map_err(|e| entry.error("dataset", e))?;
        if let Some(test) = &test_parts {
            load::check_named(&reg, &name, &root, Some(test))
                .map_err(|e| entry.error("test", e))?;
        }
        let official = entry.get::<i64>("official_splits")?;
        // Datasets with unlabelled rows may use their own split, known once they are read.
        if let Some(k) = official
            && registered.unlabeled_label.is_none()
        {
            let labeled = usize::try_from(k).unwrap_or(0);
            load::official_file(&reg, &name, &root, labeled)
                .map_err(|e| entry.error("official_splits", e))?;
        }
        let refine = Refine::read(entry, official.is_some())?;
        let fixed = test_parts.is_some();
        let fraction = test.and_then(|t| t.fraction);
        let named = Files { reg, name, root, parts, test_parts, official, splits };
        let at = entry.lines();
        let learned = refine.learned();
        files::source(entry, (official.is_some(), fixed, fraction), learned, move || {
            refine.apply(named.read(&at)?, &at)
        })
    }
}

/// What a `named` entry reads, checked.
struct Files {
    reg: Registry,
    name: String,
    root: PathBuf,
    parts: Option<Vec<String>>,
    test_parts: Option<Vec<String>>,
    official: Option<i64>,
    splits: usize,
}

impl Files {
    /// Reads the pool, the test parts and the official splits.
    fn read(&self, at: &Lines) -> Result<Pool> {
        let (reg, name, root) = (&self.reg, self.name.as_str(), &self.root);
        let data = load::load_named(reg, name, root, self.parts.as_deref())
            .map_err(|e| at.error("dataset", e))?;
        let fixed = match &self.test_parts {
            Some(test) => Some(
                load::load_named(reg, name, root, Some(test)).map_err(|e| at.error("test", e))?,
            ),
            None => None,
        };
        let unknown = data.unknown_truth();
        let official = match self.official {
            None if !unknown.is_empty() => {
                return Err(at.error(
                    "dataset",
                    format!(
                        "{} rows have no label (the file's own split): use `official_splits = {}`",
                        unknown.len(),
                        data.len() - unknown.len()
                    ),
                ));
            }
            None => None,
            // The file's own split: its labelled rows, every split alike.
            Some(k) if !unknown.is_empty() => {
                let known: Vec<usize> = (0..data.len()).filter(|i| !data.y[*i].is_nan()).collect();
                if usize::try_from(k).ok() != Some(known.len()) {
                    return Err(at.error(
                        "official_splits",
                        format!("the file's own split labels {} rows", known.len()),
                    ));
                }
                Some(vec![known; self.splits])
            }
            Some(k) => {
                let labeled = usize::try_from(k).unwrap_or(0);
                let s = load::official_splits(reg, name, root, labeled, data.len())
                    .map_err(|e| at.error("official_splits", e))?;
                if self.splits > s.len() {
                    return Err(at.error(
                        "official_splits",
                        format!(
                            "{} official splits but experiment.splits = {}",
                            s.len(),
                            self.splits
                        ),
                    ));
                }
                Some(s)
            }
        };
        Ok(Pool { data, fixed, official })
    }
}
