//! The loss-free row log of a run: each finished (dataset, split, method) is appended as one
//! CSV line (no header; the fixed columns of `results.csv`, then the row's reported values
//! as name, value pairs) and flushed at once, so an interrupted run keeps everything that
//! finished and `--resume` can skip it.

use std::collections::HashSet;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::ResultRow;
use super::results::{fields, fixed_columns};
use crate::config::Experiment;
use crate::error::{Error, Result};
use crate::support::atomic::{open_append, write_atomic};

/// Key of one task: (dataset, split, method).
pub type TaskKey = (String, usize, String);

/// An append-only CSV of result rows, shared by the worker threads.
pub struct RowLog {
    path: PathBuf,
    file: Mutex<File>,
}

impl RowLog {
    /// Opens `path` for a run of the config with hash `hash`. Without `resume` any previous
    /// log is replaced (never written through a symlink); with it, the rows already there are returned (a trailing partial line
    /// left by a crash is dropped). Rows from another config hash are an error.
    pub fn open(path: &Path, hash: &str, resume: bool) -> Result<(RowLog, Vec<ResultRow>)> {
        let previous = if resume && path.exists() {
            // Keep complete lines only, and each task once (the first row of a task wins).
            let rows = read(path, hash)?;
            let mut seen = HashSet::new();
            let rows: Vec<ResultRow> = rows
                .into_iter()
                .filter(|r| seen.insert((r.dataset.clone(), r.split, r.method.clone())))
                .collect();
            let mut text = Vec::new();
            for r in &rows {
                text.extend(line(r, path)?);
            }
            // Written beside and renamed over: a kill at any moment leaves the old log or
            // the new one, never a truncated one.
            write_atomic(path, &text)?;
            rows
        } else {
            write_atomic(path, b"")?;
            Vec::new()
        };
        let file = open_append(path)?;
        Ok((RowLog { path: path.to_path_buf(), file: Mutex::new(file) }, previous))
    }

    /// Appends one row as a single write, flushed to the OS before returning.
    pub fn append(&self, row: &ResultRow) -> Result<()> {
        let line = line(row, &self.path)?;
        let mut file =
            self.file.lock().map_err(|_| Error::Report("row log lock poisoned".into()))?;
        file.write_all(&line).and_then(|_| file.flush()).map_err(|e| Error::io(&self.path, e))
    }
}

/// One log line: the row's fixed cells, then its reported values as name, value pairs.
fn line(row: &ResultRow, path: &Path) -> Result<Vec<u8>> {
    let fixed = fields(row)?;
    let pairs = row.reported.iter().flat_map(|(k, v)| [k.as_str(), v.as_str()]);
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    w.write_record(fixed.iter().chain(pairs))
        .map_err(|e| Error::Csv { path: path.to_path_buf(), message: e.to_string() })?;
    w.into_inner().map_err(|e| Error::Report(e.to_string()))
}

/// The rows of a log written by [`RowLog`] (a trailing partial line left by a crash is
/// dropped); rows of another config hash are an error.
pub fn read(path: &Path, hash: &str) -> Result<Vec<ResultRow>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let complete = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(complete.as_bytes());
    let columns = fixed_columns()?.len();
    let mut rows = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let bad = |e: &dyn std::fmt::Display| Error::Csv {
            path: path.to_path_buf(),
            message: format!("row {}: {e}", i + 1),
        };
        let record = record.map_err(|e| bad(&e))?;
        let fixed: csv::StringRecord = record.iter().take(columns).collect();
        let mut row: ResultRow = fixed.deserialize(None).map_err(|e| bad(&e))?;
        let pairs: Vec<&str> = record.iter().skip(columns).collect();
        if !pairs.len().is_multiple_of(2) {
            return Err(bad(&"a reported value without its name"));
        }
        row.reported = pairs.chunks(2).map(|p| (p[0].to_string(), p[1].to_string())).collect();
        if row.config_hash != hash {
            return Err(Error::Csv {
                path: path.to_path_buf(),
                message: format!(
                    "holds results of another config (hash {} ≠ {hash}); use another --out or run without --resume",
                    row.config_hash
                ),
            });
        }
        rows.push(row);
    }
    Ok(rows)
}

/// The tasks already done in `rows`.
pub fn done(rows: &[ResultRow]) -> HashSet<TaskKey> {
    rows.iter().map(|r| (r.dataset.clone(), r.split, r.method.clone())).collect()
}

/// The methods (config indices) of split `split` of dataset `d` whose rows are not in
/// `finished`.
pub fn todo(exp: &Experiment, finished: &HashSet<TaskKey>, d: usize, split: usize) -> Vec<usize> {
    let name = &exp.datasets[d].name;
    (0..exp.methods.len())
        .filter(|&m| !finished.contains(&(name.clone(), split, exp.methods[m].name.clone())))
        .collect()
}

/// An error naming the first row of `rows` (read from `path`) that is no task of `exp`: a
/// dataset, method or split (≥ `splits`) the config does not have. Such a line (a damaged
/// or hand-edited log) would otherwise survive `merge` and `--resume` into `results.csv`.
pub fn check_tasks(exp: &Experiment, rows: &[ResultRow], path: &Path) -> Result<()> {
    let known = |r: &ResultRow| {
        r.split < exp.splits
            && exp.datasets.iter().any(|d| d.name == r.dataset)
            && exp.methods.iter().any(|m| m.name == r.method)
    };
    match rows.iter().position(|r| !known(r)) {
        None => Ok(()),
        Some(i) => Err(Error::Csv {
            path: path.to_path_buf(),
            message: format!(
                "row {}: dataset {} split {} method {} is no task of the config ({} splits); remove the line or run without --resume",
                i + 1,
                rows[i].dataset,
                rows[i].split,
                rows[i].method,
                exp.splits
            ),
        }),
    }
}
