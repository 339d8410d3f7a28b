//! Shards of a run: the (dataset, split) tasks of a config, each with all its methods (they
//! share the split's caches), dealt to N shards by estimated time, heaviest first, each to
//! the least loaded shard (ties to the lower shard). Deterministic, disjoint and covering.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::str::FromStr;

use super::estimate::task_seconds;
use crate::config::Experiment;
use crate::error::{Error, Result};

/// Shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N` with 1 ≤ I ≤ N.
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        let bad = || format!("expected I/N with 1 ≤ I ≤ N, got `{s}`");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) =
            (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The row log of this shard in the run folder.
    pub fn log_name(&self) -> String {
        format!("rows.shard-{}-of-{}.log", self.index, self.count)
    }
}

/// Every (dataset, split) task of the config, in run order.
pub fn all_tasks(exp: &Experiment) -> Vec<(usize, usize)> {
    (0..exp.datasets.len()).flat_map(|d| (0..exp.splits).map(move |s| (d, s))).collect()
}

/// The shard (0-based) of every task of [`all_tasks`], for `count` shards (a heap keeps
/// the least loaded shard at hand: O(tasks · log count)).
pub fn assign(exp: &Experiment, count: usize) -> Result<Vec<usize>> {
    let tasks = all_tasks(exp);
    let costs =
        (0..exp.datasets.len()).map(|d| task_seconds(exp, d)).collect::<Result<Vec<f64>>>()?;
    let mut order: Vec<usize> = (0..tasks.len()).collect();
    order.sort_by(|&a, &b| costs[tasks[b].0].total_cmp(&costs[tasks[a].0]).then(a.cmp(&b)));
    let mut load: BinaryHeap<Reverse<Load>> =
        (0..count.max(1)).map(|k| Reverse(Load(0.0, k))).collect();
    let mut shard = vec![0; tasks.len()];
    for t in order {
        let Some(Reverse(Load(l, k))) = load.pop() else { break };
        shard[t] = k;
        load.push(Reverse(Load(l + costs[tasks[t].0], k)));
    }
    Ok(shard)
}

/// A shard's load and index, ordered by load, then index (ties to the lower shard).
#[derive(PartialEq)]
struct Load(f64, usize);

impl Eq for Load {}

impl PartialOrd for Load {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Load {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0).then(self.1.cmp(&other.1))
    }
}

/// An error when `count` shards exceed the config's (dataset, split) tasks (a shard
/// would be empty).
pub fn check_count(exp: &Experiment, count: usize) -> Result<()> {
    let tasks = exp.datasets.len() * exp.splits;
    if count > tasks {
        return Err(Error::param(
            "shard",
            format!("{count} shards but the config has only {tasks} (dataset, split) tasks"),
        ));
    }
    Ok(())
}

/// The tasks of one shard (all of them without a shard), in run order.
pub fn tasks(exp: &Experiment, shard: Option<Shard>) -> Result<Vec<(usize, usize)>> {
    let all = all_tasks(exp);
    Ok(match shard {
        None => all,
        Some(s) => {
            let owner = assign(exp, s.count)?;
            all.into_iter().zip(owner).filter(|(_, o)| *o == s.index - 1).map(|(t, _)| t).collect()
        }
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::path::Path;

    use super::*;

    const CONFIG: &str = "[experiment]\nname = \"s\"\nseed = 1\nsplits = 5\n\n[[datasets]]\nname = \"small\"\nkind = \"synthetic\"\ndim = 5\nmean_norm = 1\nlabeled = 4\nunlabeled = 20\n\n[[datasets]]\nname = \"big\"\nkind = \"synthetic\"\ndim = 50\nmean_norm = 1\nlabeled = 10\nunlabeled = 400\n\n[[methods]]\nkind = \"ls_svm\"\n";

    #[test]
    fn shards_are_disjoint_cover_the_run_and_balance_cost() {
        let exp = crate::config::parse(CONFIG, Path::new("s.toml")).unwrap();
        for count in 1..=7 {
            let mut seen = HashSet::new();
            let mut loads = Vec::new();
            for index in 1..=count {
                let mine = tasks(&exp, Some(Shard { index, count })).unwrap();
                loads.push(mine.iter().map(|t| task_seconds(&exp, t.0).unwrap()).sum::<f64>());
                for t in mine {
                    assert!(seen.insert(t), "{t:?} in two shards of {count}");
                }
            }
            assert_eq!(seen.len(), 10, "{count} shards must cover the 10 tasks");
            // Five heavy tasks: no shard holds two while another holds none of them.
            let heavy = task_seconds(&exp, 1).unwrap();
            let (max, min) = (
                loads.iter().cloned().fold(0.0, f64::max),
                loads.iter().cloned().fold(f64::INFINITY, f64::min),
            );
            assert!(max - min <= heavy, "{count} shards: loads {loads:?}");
        }
        assert_eq!(tasks(&exp, None).unwrap(), all_tasks(&exp));
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        for bad in ["0/3", "4/3", "x", "1/"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
