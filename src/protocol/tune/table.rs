//! The tuning table, `tuning.csv`: one row per (dataset, method, grid point) with the
//! point's values, its mean and std tuning error (in %, as in the tables), whether it was
//! chosen and, for the chosen point, the keys at the edge of the grid.

use std::path::Path;

use super::{Choices, edge};
use crate::config::Experiment;
use crate::error::{Error, Result};
use crate::support::atomic::write_atomic;

/// Writes `dataset,method,<tuned keys…>,criterion,seed,splits,error_percent,std_percent,chosen,edge,message` (keys of
/// every tuned method, in first-seen order; empty where a method does not tune the key).
pub fn write_table(path: &Path, exp: &Experiment, choices: &Choices) -> Result<()> {
    let csv_err = |e: csv::Error| Error::Csv { path: path.to_path_buf(), message: e.to_string() };
    let mut keys: Vec<&str> = Vec::new();
    for (k, _) in
        exp.methods.iter().filter_map(|m| m.tuning.as_ref()).flat_map(|t| &t.grid[0].values)
    {
        if !keys.contains(&k.as_str()) {
            keys.push(k);
        }
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    let tail = [
        "criterion",
        "seed",
        "splits",
        "error_percent",
        "std_percent",
        "chosen",
        "edge",
        "message",
    ];
    w.write_record(["dataset", "method"].iter().chain(&keys).chain(&tail)).map_err(csv_err)?;
    for tuned in &choices.0 {
        let (spec, t) = (
            &exp.methods[tuned.method],
            exp.methods[tuned.method].tuning.as_ref().expect("only tuned methods are in the table"),
        );
        for (p, (point, result)) in t.grid.iter().zip(&tuned.points).enumerate() {
            let mut record = vec![exp.datasets[tuned.dataset].name.clone(), spec.name.clone()];
            record.extend(keys.iter().map(|k| {
                point.values.iter().find(|(j, _)| j == k).map_or(String::new(), |(_, v)| v.clone())
            }));
            record.extend([t.criterion.name(), t.seed.to_string(), t.splits.to_string()]);
            let (error, std, message) = match result {
                Ok((mean, std)) => {
                    ((100.0 * mean).to_string(), (100.0 * std).to_string(), String::new())
                }
                Err(why) => ("NaN".into(), "NaN".into(), why.clone()),
            };
            let chosen = tuned.chosen == Ok(p);
            let edge = if chosen { edge::describe(&edge::edges(t, p)) } else { String::new() };
            record.extend([error, std, chosen.to_string(), edge, message]);
            w.write_record(&record).map_err(csv_err)?;
        }
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::Csv { path: path.to_path_buf(), message: e.to_string() })?;
    write_atomic(path, &bytes)
}
