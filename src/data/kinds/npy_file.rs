//! `kind = "npy"`: NumPy arrays, read on first use. Keys: `path` (a folder holding `X.npy`,
//! n × d, and `y.npy`, n labels; or an `.npz` file holding arrays `X` and `y`), `labels`
//! (label values in class order), the class keys of [`files`](super::files), `test = { path }`
//! (a folder or `.npz` likewise) or `{ fraction }`.

use std::path::PathBuf;

use super::csv_file::{order, paths};
use super::files::{self, Pool, Refine};
use super::{DatasetKind, Source};
use crate::data::table;
use crate::error::Result;
use crate::support::{Entry, Lines};

/// The `npy` dataset kind.
pub struct Npy;

impl DatasetKind for Npy {
    fn kind(&self) -> &'static str {
        "npy"
    }

    fn read(&self, entry: &Entry, _splits: usize) -> Result<Source> {
        entry.only(&["path", "labels", "classes", "positive", "preprocess", "test"])?;
        let (path, test, fraction) = paths(entry, "an npy")?;
        let arrays = Arrays { path, test, order: order(entry)? };
        let refine = Refine::read(entry, false)?;
        let fixed = arrays.test.is_some();
        let at = entry.lines();
        let learned = refine.learned();
        files::source(entry, (false, fixed, fraction), learned, move || {
            refine.apply(arrays.read(&at)?, &at)
        })
    }
}

/// What an `npy` entry reads, checked.
struct Arrays {
    path: PathBuf,
    test: Option<PathBuf>,
    order: Option<Vec<String>>,
}

impl Arrays {
    /// Reads the pool and the test arrays (the pool's width and classes).
    fn read(&self, at: &Lines) -> Result<Pool> {
        let (x, y) = table::read_arrays(&self.path).map_err(|e| at.error("path", e))?;
        let data = table::dataset(x, &y, self.order.as_deref()).map_err(|e| at.error("path", e))?;
        let fixed = match &self.test {
            None => None,
            Some(p) => {
                let (x, y) = table::read_arrays(p).map_err(|e| at.error("test", e))?;
                if x.ncols() != data.dim() {
                    let message = format!("{} features, the pool has {}", x.ncols(), data.dim());
                    return Err(at.error("test", message));
                }
                Some(
                    table::dataset(x, &y, Some(&data.class_names))
                        .map_err(|e| at.error("test", e))?,
                )
            }
        };
        Ok(Pool { data, fixed, official: None })
    }
}
