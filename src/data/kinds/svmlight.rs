//! `kind = "svmlight"`: one SVMlight file. Keys: `path`; `features` (the width, default
//! the largest index read); `labels` (label values in class order); the class keys of
//! [`files`](super::files); `test = { path }` (read with the pool's width and label order)
//! or `{ fraction }`.

use std::path::Path;

use super::files::{self, Pool};
use super::{DatasetKind, Source, test_table};
use crate::data::load;
use crate::engine::Entry;
use crate::error::Result;

/// The `svmlight` dataset kind.
pub struct Svmlight;

impl DatasetKind for Svmlight {
    fn kind(&self) -> &'static str {
        "svmlight"
    }

    fn read(&self, entry: &Entry, _splits: usize) -> Result<Source> {
        entry.only(&["path", "features", "labels", "classes", "positive", "preprocess", "test"])?;
        let Some(path) = entry.string("path")? else {
            return Err(entry.error("path", "required for an svmlight dataset"));
        };
        let test = test_table(entry, &["path", "fraction"])?;
        let features = entry.count("features")?;
        let labels = entry.get::<Vec<f64>>("labels")?;
        let data = load::load_svmlight(Path::new(&path), features, labels)
            .map_err(|e| entry.error("path", e))?;
        let fixed = match test.as_ref().and_then(|t| t.path.as_ref()) {
            Some(test) => {
                // The pool's width and label order, so that columns and class ids agree.
                let order = data
                    .class_names
                    .iter()
                    .map(|c| c.parse::<f64>())
                    .collect::<std::result::Result<Vec<_>, _>>()
                    .ok();
                Some(
                    load::load_svmlight(Path::new(test), Some(data.dim()), order)
                        .map_err(|e| entry.error("test", e))?,
                )
            }
            None => None,
        };
        let pool = Pool { data, fixed, official: None };
        files::source(entry, pool, test.and_then(|t| t.fraction))
    }
}
