//! The scores of a run with `[experiment] save_scores = true`: each fit's unlabeled (and
//! test) scores go to a score log beside the row log (`scores.log`, a shard's
//! `scores.shard-I-of-N.log`: headerless lines `dataset,split,method,set,row,class,score`,
//! one write per fit, before its row), and the run's or merge's logs become `scores.csv`
//! in run order. A task's lines count only when its row is in the row log, so a resumed
//! run neither loses nor doubles them.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::ResultRow;
use super::draw::Drawn;
use super::log::TaskKey;
use crate::config::Experiment;
use crate::engine::{Fitted, Scores};
use crate::error::{Error, Result};
use crate::support::atomic::{open_append, write_atomic};

/// The columns of `scores.csv` (the score log's lines have no header).
pub const COLUMNS: &str = "dataset,split,method,set,row,class,score\n";

/// The score log of a run, shared by the worker threads.
pub struct ScoreLog {
    path: PathBuf,
    file: Mutex<File>,
}

impl ScoreLog {
    /// Opens `path`. Without `resume` any previous log is replaced; with it, the lines of
    /// the tasks in `kept` (the rows the row log kept, each task's first block) stay and
    /// every other line goes (a fit that stopped before its row was written runs again).
    pub fn open(path: &Path, resume: bool, kept: &HashSet<TaskKey>) -> Result<ScoreLog> {
        let text = if resume && path.exists() {
            let mut blocks = Blocks::default();
            blocks.read(path)?;
            let mut text = Vec::new();
            for key in blocks.order.iter().filter(|k| kept.contains(*k)) {
                text.extend(blocks.text(key)?);
            }
            text
        } else {
            Vec::new()
        };
        write_atomic(path, &text)?;
        let file = Mutex::new(open_append(path)?);
        Ok(ScoreLog { path: path.to_path_buf(), file })
    }

    /// Appends the scores of one fit (`row` names the task) as a single write, flushed to
    /// the OS before returning.
    pub fn append(&self, row: &ResultRow, drawn: &Drawn, fitted: &Fitted) -> Result<()> {
        let mut lines = Vec::new();
        let task = (row.dataset.as_str(), row.split, row.method.as_str());
        // The split's rows are labeled first: the unlabeled rows follow the labeled ones.
        let rows_u: Vec<usize> = match &drawn.rows {
            Some(r) => r.iter().skip(drawn.problem.n_labeled()).copied().collect(),
            None => (0..len(&fitted.scores)).collect(),
        };
        lines.extend(self.lines(task, "unlabeled", &rows_u, &fitted.scores)?);
        if let Some(scores) = &fitted.test {
            let rows_t = drawn.test_rows.clone().unwrap_or_else(|| (0..len(scores)).collect());
            lines.extend(self.lines(task, "test", &rows_t, scores)?);
        }
        let mut file =
            self.file.lock().map_err(|_| Error::Report("score log lock poisoned".into()))?;
        file.write_all(&lines).and_then(|_| file.flush()).map_err(|e| Error::io(&self.path, e))
    }

    /// The CSV lines of `scores` of the rows `rows` of one set of a task.
    fn lines(
        &self,
        (dataset, split, method): (&str, usize, &str),
        set: &str,
        rows: &[usize],
        scores: &Scores,
    ) -> Result<Vec<u8>> {
        let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
        let (split, mut record) = (split.to_string(), Vec::new());
        let mut put = |row: usize, class: String, score: f64| {
            record.clear();
            // `{:?}` of an f64: Rust's shortest form that reads back exactly, with an exponent
            // for very large or small magnitudes (`1e-300`, not 300 zeros).
            record.extend([dataset.to_string(), split.clone(), method.to_string()]);
            record.extend([set.to_string(), row.to_string(), class, format!("{score:?}")]);
            w.write_record(&record)
        };
        let bad = |e: csv::Error| Error::Csv { path: self.path.clone(), message: e.to_string() };
        match scores {
            Scores::Binary(s) => {
                for (row, v) in rows.iter().zip(s) {
                    put(*row, String::new(), *v).map_err(bad)?;
                }
            }
            Scores::PerClass(s) => {
                for (row, r) in rows.iter().zip(s.rows()) {
                    for (k, v) in r.iter().enumerate() {
                        put(*row, k.to_string(), *v).map_err(bad)?;
                    }
                }
            }
        }
        w.into_inner().map_err(|e| Error::Report(e.to_string()))
    }
}

/// The number of rows `scores` holds.
fn len(scores: &Scores) -> usize {
    match scores {
        Scores::Binary(s) => s.len(),
        Scores::PerClass(s) => s.nrows(),
    }
}

/// The lines of score logs by task, in first-seen order: each task's first block of
/// consecutive lines (a later block of the same task, which a run never writes, is dropped).
#[derive(Default)]
struct Blocks {
    order: Vec<TaskKey>,
    lines: HashMap<TaskKey, Vec<csv::StringRecord>>,
}

impl Blocks {
    /// Adds the complete lines of the score log `path` (a trailing partial line left by a
    /// crash is dropped).
    fn read(&mut self, path: &Path) -> Result<()> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let complete = text.rfind('\n').map_or("", |end| &text[..=end]);
        let mut reader =
            csv::ReaderBuilder::new().has_headers(false).from_reader(complete.as_bytes());
        let (mut current, mut skipping) = (None::<TaskKey>, false);
        for (i, record) in reader.records().enumerate() {
            let bad = |m: String| Error::Csv {
                path: path.to_path_buf(),
                message: format!("line {}: {m}", i + 1),
            };
            let record = record.map_err(|e| bad(e.to_string()))?;
            let split = record.get(1).and_then(|s| s.parse().ok());
            let key = match (record.len(), split) {
                (7, Some(split)) => (record[0].to_string(), split, record[2].to_string()),
                _ => return Err(bad(format!("expected {}", COLUMNS.trim_end()))),
            };
            if current.as_ref() != Some(&key) {
                // A task's lines already seen: this later block is skipped.
                skipping = self.lines.contains_key(&key);
                if !skipping {
                    self.order.push(key.clone());
                    self.lines.insert(key.clone(), Vec::new());
                }
                current = Some(key.clone());
            }
            if let (false, Some(lines)) = (skipping, self.lines.get_mut(&key)) {
                lines.push(record);
            }
        }
        Ok(())
    }

    /// The CSV text of the lines of `key` (empty when there are none).
    fn text(&self, key: &TaskKey) -> Result<Vec<u8>> {
        let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
        for record in self.lines.get(key).into_iter().flatten() {
            w.write_record(record).map_err(|e| Error::Report(e.to_string()))?;
        }
        w.into_inner().map_err(|e| Error::Report(e.to_string()))
    }
}

/// The score log beside the row log `row_log` (`rows…log` → `scores…log`).
pub fn log_for(row_log: &Path) -> PathBuf {
    let name = row_log.file_name().and_then(|n| n.to_str()).unwrap_or("rows.log");
    row_log.with_file_name(name.replacen("rows", "scores", 1))
}

/// Writes `dir/scores.csv` from the score logs beside the row logs `row_logs`: the lines of
/// the ok rows of `rows`, in their order; an error names an ok row whose scores are
/// missing. When the config does not save scores, a `scores.csv` of an earlier run there is
/// removed (it would not belong to these results).
pub fn write_scores(
    exp: &Experiment,
    rows: &[ResultRow],
    row_logs: &[PathBuf],
    dir: &Path,
) -> Result<()> {
    let out = dir.join("scores.csv");
    if !exp.save_scores {
        return match std::fs::remove_file(&out) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(&out, e)),
            _ => Ok(()),
        };
    }
    let mut blocks = Blocks::default();
    for log in row_logs.iter().map(|l| log_for(l)) {
        if log.exists() {
            blocks.read(&log)?;
        }
    }
    let mut text = COLUMNS.as_bytes().to_vec();
    for r in rows.iter().filter(|r| r.is_ok()) {
        let key = (r.dataset.clone(), r.split, r.method.clone());
        if !blocks.lines.contains_key(&key) {
            return Err(Error::Data(format!(
                "{}: no scores of dataset {} split {} method {} in the score logs (save_scores was added after they were written? run again with --force)",
                dir.display(),
                r.dataset,
                r.split,
                r.method
            )));
        }
        text.extend(blocks.text(&key)?);
    }
    write_atomic(&out, &text)
}
