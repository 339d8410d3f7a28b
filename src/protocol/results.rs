//! Result rows: one per (dataset, split, method), written as CSV: the fixed columns, the
//! values a fit reports under new names, and the swept keys. The columns are documented in
//! docs/output.md ("Result columns").
//!
//! Column rules: a reported value named like a parameter column (`alpha_l`, `alpha_u`,
//! `lambda_policy`, `lambda`) fills it; one of another new name gets its own column right
//! after `lambda` (before `error`; names in first-seen order over the rows), which is how a
//! reader tells reported columns from swept ones; a reported name equal to any other fixed
//! column fails the row. A swept key named like a fixed or reported column is written as
//! `swept.KEY`.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::engine::Reported;
use crate::error::{Error, Result};
use crate::support::atomic::write_atomic;

/// The fixed columns that the values a fit reports under their names fill.
pub const PARAMETER_COLUMNS: [&str; 4] = ["alpha_l", "alpha_u", "lambda_policy", "lambda"];

/// One result row. Optional parameters are empty cells where a method has no such parameter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultRow {
    pub experiment: String,
    pub config_hash: String,
    pub dataset: String,
    pub split: usize,
    pub split_seed: u64,
    pub method: String,
    pub kind: String,
    /// The method's other parameters as `key=value` pairs separated by spaces (graph and
    /// SVMlin methods; empty where the columns below say it all, and in files written
    /// before this column existed).
    #[serde(default)]
    pub params: String,
    /// The values the fit reported under these names (empty where it reported none).
    pub alpha_l: Option<f64>,
    pub alpha_u: Option<f64>,
    pub lambda_policy: String,
    pub lambda: Option<f64>,
    pub error: f64,
    /// Precision–recall break-even point of the unlabeled scores (NaN without positives).
    pub prbep: f64,
    /// Error and PRBEP on the dataset's held-out test rows: empty without a test set or
    /// for a transductive method (older files lack the columns).
    #[serde(default)]
    pub test_error: Option<f64>,
    #[serde(default)]
    pub test_prbep: Option<f64>,
    pub n_labeled: usize,
    pub n_unlabeled: usize,
    pub dim: usize,
    /// `ok`, or `failed` when the method returned an error (then `error` is NaN).
    pub status: String,
    /// Empty, or the failure's reason.
    pub message: String,
    pub fit_seconds: f64,
    /// The other values the fit reported, by name, as cells: one column per name after
    /// `lambda`; empty cells where a row's fit did not report the name.
    #[serde(skip)]
    pub reported: Vec<(String, String)>,
    /// The swept keys of the config and the values this row's dataset and method took: one
    /// extra column per key after the fixed ones (named `swept.KEY` where KEY is a fixed
    /// column's name); empty cells where the row's entries do not sweep the key.
    #[serde(skip)]
    pub swept: Vec<(String, String)>,
}

impl ResultRow {
    /// True when the method ran to completion.
    pub fn is_ok(&self) -> bool {
        self.status == "ok"
    }

    /// Takes the values a fit reported: the [`PARAMETER_COLUMNS`] by name, the others as
    /// extra columns; a name of another fixed column, or a label for a number column (or the
    /// reverse), is an error.
    pub fn report(&mut self, values: Vec<(String, Reported)>) -> Result<()> {
        let fixed = fixed_columns()?;
        for (name, value) in values {
            match (name.as_str(), value) {
                ("alpha_l", Reported::Number(x)) => self.alpha_l = Some(x),
                ("alpha_u", Reported::Number(x)) => self.alpha_u = Some(x),
                ("lambda", Reported::Number(x)) => self.lambda = Some(x),
                ("lambda_policy", Reported::Label(s)) => self.lambda_policy = s,
                (n, _) if fixed.iter().any(|f| f == n) => {
                    return Err(Error::Data(format!(
                        "the fit reports `{n}`, {}",
                        match PARAMETER_COLUMNS.contains(&n) {
                            true => "a column that takes a number (lambda_policy: a label)",
                            false => "the name of a fixed result column",
                        }
                    )));
                }
                (_, value) => {
                    let cell = match value {
                        Reported::Number(x) => number_cell(x)?,
                        Reported::Label(s) => s,
                    };
                    self.reported.retain(|(k, _)| *k != name);
                    self.reported.push((name, cell));
                }
            }
        }
        Ok(())
    }
}

/// A number as the CSV writer writes the fixed columns' numbers (`1.0`, `1e-5`, `NaN`).
fn number_cell(x: f64) -> Result<String> {
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    w.serialize(x).map_err(|e| Error::Report(e.to_string()))?;
    let bytes = w.into_inner().map_err(|e| Error::Report(e.to_string()))?;
    Ok(String::from_utf8_lossy(&bytes).trim_end().to_string())
}

/// [`Error::FitsFailed`] (exit code 3) when any row failed, naming the first failure.
pub fn check_failed(rows: &[ResultRow]) -> Result<()> {
    let failed: Vec<&ResultRow> = rows.iter().filter(|r| !r.is_ok()).collect();
    match failed.first() {
        None => Ok(()),
        Some(r) => Err(Error::FitsFailed {
            failed: failed.len(),
            total: rows.len(),
            first: format!("{} on {} split {}: {}", r.method, r.dataset, r.split, r.message),
        }),
    }
}

/// A row with the given keys and neutral values elsewhere, for tests.
#[cfg(test)]
pub(crate) fn test_row(dataset: &str, method: &str, split: usize, error: f64) -> ResultRow {
    ResultRow {
        experiment: "e".into(),
        config_hash: "h".into(),
        dataset: dataset.into(),
        split,
        method: method.into(),
        kind: "qlds".into(),
        lambda_policy: "fixed".into(),
        lambda: Some(1.0),
        error,
        prbep: f64::NAN,
        n_labeled: 1,
        n_unlabeled: 1,
        dim: 1,
        status: "ok".into(),
        ..empty_row()
    }
}

/// The names of `lists` in first-seen order.
fn names<'a>(lists: impl Iterator<Item = &'a Vec<(String, String)>>) -> Vec<&'a str> {
    let mut names: Vec<&str> = Vec::new();
    for (k, _) in lists.flatten() {
        if !names.contains(&k.as_str()) {
            names.push(k);
        }
    }
    names
}

/// The cells of `list` under `names` (empty where absent).
fn cells<'a>(names: &'a [&str], list: &'a [(String, String)]) -> impl Iterator<Item = &'a str> {
    names.iter().map(|k| list.iter().find(|(j, _)| j == k).map_or("", |(_, v)| v.as_str()))
}

/// Writes rows to `path` (header first; the reported and swept columns of all rows, see the
/// module's column rules), whole or not at all ([`write_atomic`]).
pub fn write_results(path: &Path, rows: &[ResultRow]) -> Result<()> {
    let csv_err = |e: csv::Error| Error::Csv { path: path.to_path_buf(), message: e.to_string() };
    let reported = names(rows.iter().map(|r| &r.reported));
    let swept = names(rows.iter().map(|r| &r.swept));
    let fixed = fixed_columns()?;
    let at = reported_at(&fixed)?;
    let swept_header = swept.iter().map(|k| {
        if fixed.iter().any(|f| f == k) || reported.contains(k) {
            format!("swept.{k}")
        } else {
            k.to_string()
        }
    });
    let header: Vec<String> = fixed[..at]
        .iter()
        .cloned()
        .chain(reported.iter().map(|k| k.to_string()))
        .chain(fixed[at..].iter().cloned())
        .chain(swept_header)
        .collect();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(&header).map_err(csv_err)?;
    for row in rows {
        let f = fields(row)?;
        let record = f
            .iter()
            .take(at)
            .chain(cells(&reported, &row.reported))
            .chain(f.iter().skip(at).chain(cells(&swept, &row.swept)));
        w.write_record(record).map_err(csv_err)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::Csv { path: path.to_path_buf(), message: e.to_string() })?;
    write_atomic(path, &bytes)
}

/// Where the reported columns go among the fixed ones: right after `lambda`.
fn reported_at(fixed: &[String]) -> Result<usize> {
    fixed
        .iter()
        .position(|f| f == "lambda")
        .map(|i| i + 1)
        .ok_or_else(|| Error::Report("no `lambda` column among the fixed ones".into()))
}

/// The cells of a row's fixed columns.
pub(super) fn fields(row: &ResultRow) -> Result<csv::StringRecord> {
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    w.serialize(row).map_err(|e| Error::Report(e.to_string()))?;
    let line = w.into_inner().map_err(|e| Error::Report(e.to_string()))?;
    let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(line.as_slice());
    r.records()
        .next()
        .and_then(|r| r.ok())
        .ok_or_else(|| Error::Report("cannot serialise a result row".into()))
}

/// The names of the fixed columns, in order.
pub(super) fn fixed_columns() -> Result<Vec<String>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.serialize(empty_row()).map_err(|e| Error::Report(e.to_string()))?;
    let text = w.into_inner().map_err(|e| Error::Report(e.to_string()))?;
    let header = String::from_utf8_lossy(&text).lines().next().unwrap_or_default().to_string();
    Ok(header.split(',').map(str::to_string).collect())
}

/// A row of empty strings and zeros.
fn empty_row() -> ResultRow {
    ResultRow {
        experiment: String::new(),
        config_hash: String::new(),
        dataset: String::new(),
        split: 0,
        split_seed: 0,
        method: String::new(),
        kind: String::new(),
        params: String::new(),
        alpha_l: None,
        alpha_u: None,
        lambda_policy: String::new(),
        lambda: None,
        error: 0.0,
        prbep: 0.0,
        test_error: None,
        test_prbep: None,
        n_labeled: 0,
        n_unlabeled: 0,
        dim: 0,
        status: String::new(),
        message: String::new(),
        fit_seconds: 0.0,
        reported: Vec::new(),
        swept: Vec::new(),
    }
}

/// Reads rows written by [`write_results`]: columns not among the fixed ones are reported
/// values between `lambda` and `error`, swept keys elsewhere; a bad row names its line.
pub fn read_results(path: &Path) -> Result<Vec<ResultRow>> {
    let csv_err = |e: csv::Error| Error::Csv { path: path.to_path_buf(), message: e.to_string() };
    let mut r = csv::Reader::from_path(path).map_err(csv_err)?;
    let headers = r.headers().map_err(csv_err)?.clone();
    let fixed = fixed_columns()?;
    let position = |name: &str| headers.iter().position(|h| h == name);
    let between = match (position("lambda"), position("error")) {
        (Some(l), Some(e)) => l + 1..e,
        _ => 0..0,
    };
    let (mut reported, mut swept) = (Vec::new(), Vec::new());
    for (i, h) in headers.iter().enumerate().filter(|(_, h)| !fixed.iter().any(|f| f == h)) {
        match between.contains(&i) {
            true => reported.push((i, h.to_string())),
            false => swept.push((i, h.strip_prefix("swept.").unwrap_or(h).to_string())),
        }
    }
    let pick = |record: &csv::StringRecord, columns: &[(usize, String)]| {
        columns
            .iter()
            .filter_map(|(i, k)| {
                record.get(*i).filter(|v| !v.is_empty()).map(|v| (k.clone(), v.to_string()))
            })
            .collect()
    };
    r.records()
        .map(|record| {
            let record = record.map_err(csv_err)?;
            let mut row: ResultRow = record.deserialize(Some(&headers)).map_err(csv_err)?;
            row.reported = pick(&record, &reported);
            row.swept = pick(&record, &swept);
            Ok(row)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_with_commas_and_missing_parameters() {
        let dir = std::env::temp_dir().join(format!("sslab-results-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.csv");
        let row = ResultRow {
            split_seed: u64::MAX,
            method: "QLDS(0.5,0.5)".into(),
            alpha_l: Some(0.5),
            prbep: 0.75,
            status: "failed".into(),
            message: "matrix is not positive definite, \"quoted\"".into(),
            ..test_row("d", "m", 3, 0.1)
        };
        write_results(&path, std::slice::from_ref(&row)).unwrap();
        assert_eq!(read_results(&path).unwrap(), vec![row]);
        // A file from before the params column reads with empty params.
        let header = "experiment,config_hash,dataset,split,split_seed,method,kind,alpha_l,alpha_u,lambda_policy,lambda,error,prbep,n_labeled,n_unlabeled,dim,status,message,fit_seconds";
        std::fs::write(
            &path,
            format!("{header}\ne,h,d,3,0,m,qlds,,,fixed,1.0,0.1,NaN,1,1,1,ok,,0.0\n"),
        )
        .unwrap();
        let old = &read_results(&path).unwrap()[0];
        assert_eq!((old.params.as_str(), old.error, old.split), ("", 0.1, 3));
        std::fs::write(&path, "experiment\nx\n").unwrap();
        assert!(read_results(&path).unwrap_err().to_string().contains("r.csv"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
