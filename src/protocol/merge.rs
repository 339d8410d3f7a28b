//! Merging the row logs of a sharded run: every log of the run folder, checked against the
//! config copy the shards left there (`config.toml`): same hash, no task missing, none twice.

use std::collections::BTreeMap;
use std::path::Path;

use super::log::{TaskKey, check_tasks, read};
use super::status;
use super::{ResultRow, finish_rows};
use crate::config::Experiment;
use crate::error::{Error, Result};

/// The config and all rows of the run in `dir`, in run order; an error listing every
/// missing and duplicated task when the logs do not hold each task exactly once.
pub fn merge(dir: &Path) -> Result<(Experiment, Vec<ResultRow>)> {
    let config = dir.join("config.toml");
    if !config.exists() {
        return Err(Error::Data(format!(
            "{}: no config.toml (written by `sslab run`): not a run folder",
            dir.display()
        )));
    }
    let exp = crate::config::load(&config)?;
    let logs = status::logs(dir)?;
    let mut rows = Vec::new();
    let mut seen: BTreeMap<TaskKey, Vec<String>> = BTreeMap::new();
    for log in &logs {
        let name = log.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
        let found = read(log, &exp.hash)?;
        check_tasks(&exp, &found, log)?;
        for row in found {
            seen.entry((row.dataset.clone(), row.split, row.method.clone()))
                .or_default()
                .push(name.clone());
            rows.push(row);
        }
    }
    let mut problems = Vec::new();
    for d in &exp.datasets {
        for s in 0..exp.splits {
            for m in &exp.methods {
                if !seen.contains_key(&(d.name.clone(), s, m.name.clone())) {
                    problems
                        .push(format!("missing: dataset {} split {s} method {}", d.name, m.name));
                }
            }
        }
    }
    for ((d, s, m), files) in seen.iter().filter(|(_, f)| f.len() > 1) {
        problems
            .push(format!("duplicate: dataset {d} split {s} method {m} in {}", files.join(", ")));
    }
    if !problems.is_empty() {
        let finished = seen.into_keys().collect();
        let todo: Vec<String> = status::shards(&exp, status::shard_count(&logs), &finished)?
            .into_iter()
            .filter(|s| !s.missing.is_empty())
            .map(|s| {
                let name =
                    s.shard.map_or("the run".into(), |s| format!("shard {}/{}", s.index, s.count));
                format!(
                    "{name} ({} fits missing): {}",
                    s.missing.len(),
                    status::command(dir, s.shard)
                )
            })
            .collect();
        let todo = if todo.is_empty() {
            String::new()
        } else {
            format!("\nto complete it, run:\n{}", todo.join("\n"))
        };
        return Err(Error::Data(format!(
            "{}: the run is incomplete or inconsistent ({} logs):\n{}{todo}",
            dir.display(),
            logs.len(),
            problems.join("\n")
        )));
    }
    finish_rows(&exp, &mut rows);
    Ok((exp, rows))
}
