//! Result rows: one per (dataset, split, method), written as CSV with a fixed header.
//! The columns are documented in docs/output.md ("Result columns").

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::atomic::write_atomic;
use crate::error::{Error, Result};

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
    pub alpha_l: Option<f64>,
    pub alpha_u: Option<f64>,
    pub lambda_policy: String,
    pub lambda: f64,
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
        lambda: 1.0,
        error,
        prbep: f64::NAN,
        n_labeled: 1,
        n_unlabeled: 1,
        dim: 1,
        status: "ok".into(),
        ..empty_row()
    }
}

/// Writes rows to `path` (header first; the swept keys of all rows as extra columns, in
/// first-seen order), whole or not at all ([`write_atomic`]).
pub fn write_results(path: &Path, rows: &[ResultRow]) -> Result<()> {
    let csv_err = |e: csv::Error| Error::Csv { path: path.to_path_buf(), message: e.to_string() };
    let mut keys: Vec<&str> = Vec::new();
    for (k, _) in rows.iter().flat_map(|r| &r.swept) {
        if !keys.contains(&k.as_str()) {
            keys.push(k);
        }
    }
    let fixed = fixed_columns()?;
    let mut w = csv::Writer::from_writer(Vec::new());
    let header = keys
        .iter()
        .map(|k| if fixed.iter().any(|f| f == k) { format!("swept.{k}") } else { k.to_string() });
    w.write_record(fixed.iter().cloned().chain(header)).map_err(csv_err)?;
    for row in rows {
        let extra = keys
            .iter()
            .map(|k| row.swept.iter().find(|(j, _)| j == k).map_or("", |(_, v)| v.as_str()));
        w.write_record(fields(row)?.iter().chain(extra)).map_err(csv_err)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::Csv { path: path.to_path_buf(), message: e.to_string() })?;
    write_atomic(path, &bytes)
}

/// The cells of a row's fixed columns.
fn fields(row: &ResultRow) -> Result<csv::StringRecord> {
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
fn fixed_columns() -> Result<Vec<String>> {
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
        lambda: 0.0,
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
        swept: Vec::new(),
    }
}

/// Reads rows written by [`write_results`] (columns not among the fixed ones are swept
/// keys); a bad row names its line.
pub fn read_results(path: &Path) -> Result<Vec<ResultRow>> {
    let csv_err = |e: csv::Error| Error::Csv { path: path.to_path_buf(), message: e.to_string() };
    let mut r = csv::Reader::from_path(path).map_err(csv_err)?;
    let headers = r.headers().map_err(csv_err)?.clone();
    let fixed = fixed_columns()?;
    let extra: Vec<(usize, String)> = headers
        .iter()
        .enumerate()
        .filter(|(_, h)| !fixed.iter().any(|f| f == h))
        .map(|(i, h)| (i, h.strip_prefix("swept.").unwrap_or(h).to_string()))
        .collect();
    r.records()
        .map(|record| {
            let record = record.map_err(csv_err)?;
            let mut row: ResultRow = record.deserialize(Some(&headers)).map_err(csv_err)?;
            row.swept = extra
                .iter()
                .filter_map(|(i, k)| {
                    record.get(*i).filter(|v| !v.is_empty()).map(|v| (k.clone(), v.to_string()))
                })
                .collect();
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
