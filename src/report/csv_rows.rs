//! Any serialisable rows as a CSV file with a header (parent folders created).

use std::path::Path;

use serde::Serialize;

use crate::error::{Error, Result};

/// Writes `rows` to `path`, one row per item, columns named after the fields.
pub fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<()> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    }
    let csv_err = |e: csv::Error| Error::Csv { path: path.into(), message: e.to_string() };
    let mut w = csv::Writer::from_path(path).map_err(csv_err)?;
    for r in rows {
        w.serialize(r).map_err(csv_err)?;
    }
    w.flush().map_err(|e| Error::io(path, e))
}
