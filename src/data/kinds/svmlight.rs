//! `kind = "svmlight"`: one SVMlight file, read on first use. Keys: `path`; `features` (the
//! width, default the largest index read); `labels` (label values in class order); the
//! class keys of [`files`](super::files); `test = { path }` (read with the pool's width and
//! label order) or `{ fraction }`. Checking the entry checks that the files exist.

use std::path::PathBuf;

use super::csv_file::paths;
use super::files::{self, Pool, Refine};
use super::{DatasetKind, Source};
use crate::data::load;
use crate::error::Result;
use crate::support::{Entry, Lines};

/// The `svmlight` dataset kind.
pub struct Svmlight;

impl DatasetKind for Svmlight {
    fn kind(&self) -> &'static str {
        "svmlight"
    }

    fn read(&self, entry: &Entry, _splits: usize) -> Result<Source> {
        entry.only(&["path", "features", "labels", "classes", "positive", "preprocess", "test"])?;
        let (path, test_path, fraction) = paths(entry, "an svmlight")?;
        let file = File {
            path,
            features: entry.count("features")?,
            labels: entry.get::<Vec<f64>>("labels")?,
            test: test_path,
        };
        let refine = Refine::read(entry, false)?;
        let fixed = file.test.is_some();
        let at = entry.lines();
        let learned = refine.learned();
        files::source(entry, (false, fixed, fraction), learned, move || {
            refine.apply(file.read(&at)?, &at)
        })
    }
}

/// What an `svmlight` entry reads, checked.
struct File {
    path: PathBuf,
    features: Option<usize>,
    labels: Option<Vec<f64>>,
    test: Option<PathBuf>,
}

impl File {
    /// Reads the pool and the test file.
    fn read(&self, at: &Lines) -> Result<Pool> {
        let data = load::load_svmlight(&self.path, self.features, self.labels.clone())
            .map_err(|e| at.error("path", e))?;
        let fixed = match &self.test {
            Some(test) => {
                // The pool's width and label order, so that columns and class ids agree.
                let order = data
                    .class_names
                    .iter()
                    .map(|c| c.parse::<f64>())
                    .collect::<std::result::Result<Vec<_>, _>>()
                    .ok();
                Some(
                    load::load_svmlight(test, Some(data.dim()), order)
                        .map_err(|e| at.error("test", e))?,
                )
            }
            None => None,
        };
        Ok(Pool { data, fixed, official: None })
    }
}
