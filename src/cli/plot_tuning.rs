//! `sslab plot-tuning`: the mean tuning error over the grid of one (dataset, method) of a
//! tuning.csv written by `run`, against one tuned key, the chosen point ringed (PNG).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sslab::report::{self, figures};
use sslab::{Error, Result};

use super::output::create_parent;

#[derive(clap::Args)]
pub struct Args {
    /// A tuning.csv written by `sslab run` (OUT/<name>/tuning.csv).
    tuning: PathBuf,
    /// Dataset entry (default: the table's first).
    #[arg(long)]
    dataset: Option<String>,
    /// Method entry (default: the table's first).
    #[arg(long)]
    method: Option<String>,
    /// The tuned key on the x axis (default: the method's first); the other keys' values
    /// make one line each.
    #[arg(long)]
    x: Option<String>,
    /// Output PNG.
    #[arg(short, long)]
    out: PathBuf,
}

type Record = BTreeMap<String, String>;

/// The config hash of the run whose folder holds `tuning` (from its results.csv), or
/// "unknown".
fn run_hash(tuning: &Path) -> String {
    let results = tuning.with_file_name("results.csv");
    sslab::protocol::read_results(&results)
        .ok()
        .and_then(|rows| rows.first().map(|r| r.config_hash.clone()))
        .unwrap_or_else(|| "unknown".into())
}

pub fn run(a: Args) -> Result<()> {
    let csv_err = |e: csv::Error| Error::Csv { path: a.tuning.clone(), message: e.to_string() };
    let mut reader = csv::Reader::from_path(&a.tuning).map_err(csv_err)?;
    let headers: Vec<String> =
        reader.headers().map_err(csv_err)?.iter().map(String::from).collect();
    let end = headers.iter().position(|h| h == "criterion").ok_or_else(|| {
        Error::Data(format!("{}: not a tuning table (no `criterion` column)", a.tuning.display()))
    })?;
    let records: Vec<Record> =
        reader.deserialize().collect::<std::result::Result<_, _>>().map_err(csv_err)?;
    let first =
        records.first().ok_or_else(|| Error::Data(format!("{}: no rows", a.tuning.display())))?;
    let dataset = a.dataset.clone().unwrap_or_else(|| first["dataset"].clone());
    let method = a.method.clone().unwrap_or_else(|| first["method"].clone());
    let mine: Vec<&Record> =
        records.iter().filter(|r| r["dataset"] == dataset && r["method"] == method).collect();
    if mine.is_empty() {
        let mut have: Vec<String> =
            records.iter().map(|r| format!("{} / {}", r["dataset"], r["method"])).collect();
        have.dedup();
        return Err(Error::Data(format!(
            "{}: no rows for dataset `{dataset}` and method `{method}` (have: {})",
            a.tuning.display(),
            have.join(", ")
        )));
    }
    let keys: Vec<&String> =
        headers[2..end].iter().filter(|k| mine.iter().any(|r| !r[*k].is_empty())).collect();
    let key = match &a.x {
        Some(x) if keys.contains(&x) => x.clone(),
        Some(x) => {
            let names: Vec<&str> = keys.iter().map(|k| k.as_str()).collect();
            return Err(Error::Data(format!(
                "--x {x}: not tuned by {method} (tuned: {})",
                names.join(", ")
            )));
        }
        None => keys[0].clone(),
    };
    let mut values: Vec<String> = Vec::new();
    for r in &mine {
        if !values.contains(&r[&key]) {
            values.push(r[&key].clone());
        }
    }
    if let Some(numbers) =
        values.iter().map(|v| v.parse::<f64>().ok()).collect::<Option<Vec<f64>>>()
    {
        let mut pairs: Vec<(f64, String)> = numbers.into_iter().zip(values).collect();
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
        values = pairs.into_iter().map(|p| p.1).collect();
    }
    let mut lines: Vec<figures::GridLine> = Vec::new();
    let mut chosen = None;
    for r in &mine {
        let others: Vec<String> =
            keys.iter().filter(|k| **k != &key).map(|k| format!("{k}={}", r[*k])).collect();
        let label = if others.is_empty() { method.clone() } else { others.join(", ") };
        let x = values.iter().position(|v| *v == r[&key]).expect("collected above");
        let (Ok(error), Ok(std)) =
            (r["error_percent"].parse::<f64>(), r["std_percent"].parse::<f64>())
        else {
            continue;
        };
        if !error.is_finite() {
            continue;
        }
        if r["chosen"] == "true" {
            chosen = Some((x, error));
        }
        match lines.iter_mut().find(|l| l.0 == label) {
            Some(l) => l.1.push((x, error, std)),
            None => lines.push((label, vec![(x, error, std)])),
        }
    }
    for l in &mut lines {
        l.1.sort_by_key(|p| p.0);
    }
    let plot = figures::TuningPlot {
        title: format!("tuning {method} on {dataset}"),
        key,
        values,
        lines,
        chosen,
        stamp: report::stamp(&run_hash(&a.tuning)),
    };
    create_parent(&a.out)?;
    figures::tuning_plot(&plot, &a.out)?;
    println!("wrote {}", a.out.display());
    Ok(())
}
