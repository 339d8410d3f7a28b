//! What a run folder holds: the fits (dataset, split, method) its row logs have and lack,
//! per shard, and the command that completes each unfinished shard. Used by `sslab status`,
//! by `sslab merge` to name the shards still to run, and by `sslab run` to refuse
//! overwriting a finished run.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::Shard;
pub use super::log::{TaskKey, done, read};
use super::shard::{all_tasks, assign};
use crate::config::Experiment;
use crate::error::Result;

/// The fits of one shard (or of the whole run) that its row logs hold and lack.
#[derive(Debug, Clone)]
pub struct ShardStatus {
    /// None: the whole, unsharded run.
    pub shard: Option<Shard>,
    pub done: usize,
    /// The missing fits, in run order.
    pub missing: Vec<TaskKey>,
}

/// The row logs of `dir` (`rows.log`, `rows.shard-I-of-N.log`), sorted by name.
pub fn logs(dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|e| crate::error::Error::io(dir, e))?;
    let mut logs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("rows") && n.ends_with(".log"))
        })
        .collect();
    logs.sort();
    Ok(logs)
}

/// The shard count N of the `rows.shard-I-of-N.log` files in `logs` (the largest if they
/// differ), or None when there are none.
pub fn shard_count(logs: &[PathBuf]) -> Option<usize> {
    logs.iter()
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?;
            name.strip_prefix("rows.shard-")?
                .strip_suffix(".log")?
                .split_once("-of-")?
                .1
                .parse()
                .ok()
        })
        .max()
}

/// Per shard of `count` (one entry for the whole run when None): the fits of `exp` that
/// `finished` holds and lacks.
pub fn shards(
    exp: &Experiment,
    count: Option<usize>,
    finished: &HashSet<TaskKey>,
) -> Result<Vec<ShardStatus>> {
    let tasks = all_tasks(exp);
    let owner = match count {
        None => vec![0; tasks.len()],
        Some(n) => assign(exp, n)?,
    };
    let n = count.unwrap_or(1);
    Ok((0..n)
        .map(|k| {
            let mut status = ShardStatus {
                shard: count.map(|count| Shard { index: k + 1, count }),
                done: 0,
                missing: Vec::new(),
            };
            for (&(d, s), _) in tasks.iter().zip(&owner).filter(|(_, o)| **o == k) {
                for m in &exp.methods {
                    let key = (exp.datasets[d].name.clone(), s, m.name.clone());
                    if finished.contains(&key) {
                        status.done += 1;
                    } else {
                        status.missing.push(key);
                    }
                }
            }
            status
        })
        .collect())
}

/// The command that completes `shard` of the run in `dir` from its config copy.
pub fn command(dir: &Path, shard: Option<Shard>) -> String {
    let out = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let shard = shard.map_or(String::new(), |s| format!(" --shard {}/{}", s.index, s.count));
    format!(
        "sslab run {} --out {}{shard} --resume",
        dir.join("config.toml").display(),
        out.display()
    )
}

/// What an earlier run of the same config left in `dir` for this run (or `shard` of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Previous {
    /// No rows of this config.
    Nothing,
    /// `done` of `total` fits, from an interrupted run.
    Partial { done: usize, total: usize },
    /// Every fit, and (for a whole run) results.csv written.
    Finished { total: usize },
}

/// The rows of this config that the row log of this run (or shard) already holds; rows of
/// another config, or an unreadable log, count as nothing (the run replaces them).
pub fn previous(exp: &Experiment, dir: &Path, shard: Option<Shard>) -> Result<Previous> {
    let log = dir.join(shard.map_or_else(|| "rows.log".to_string(), |s| s.log_name()));
    let Ok(rows) = read(&log, &exp.hash) else { return Ok(Previous::Nothing) };
    let have = done(&rows);
    let mine = shards(exp, shard.map(|s| s.count), &have)?;
    let status = &mine[shard.map_or(0, |s| s.index - 1)];
    let total = status.done + status.missing.len();
    if status.done == 0 {
        Ok(Previous::Nothing)
    } else if status.missing.is_empty() && (shard.is_some() || dir.join("results.csv").exists()) {
        Ok(Previous::Finished { total })
    } else {
        Ok(Previous::Partial { done: status.done, total })
    }
}

/// The missing fits of `status` as lines `dataset D split S: M1, M2` (at most `limit`, then
/// how many more).
pub fn describe_missing(status: &ShardStatus, limit: usize) -> Vec<String> {
    let mut groups: Vec<(String, usize, Vec<String>)> = Vec::new();
    for (d, s, m) in &status.missing {
        match groups.last_mut() {
            Some((gd, gs, ms)) if gd == d && gs == s => ms.push(m.clone()),
            _ => groups.push((d.clone(), *s, vec![m.clone()])),
        }
    }
    let mut lines: Vec<String> = groups
        .iter()
        .take(limit)
        .map(|(d, s, ms)| format!("dataset {d} split {s}: {}", ms.join(", ")))
        .collect();
    if groups.len() > limit {
        lines.push(format!("… and {} more (dataset, split) tasks", groups.len() - limit));
    }
    lines
}
