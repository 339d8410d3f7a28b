//! Tuning before evaluation: every method entry with a `tune` block chooses, per dataset
//! entry, the grid point of lowest mean error over splits drawn from its tuning seed (never
//! the experiment's seed, so evaluation splits are never seen), scored by its criterion.
//! Each (dataset, tuning seed, split) is one task; results are reduced in a fixed order, so
//! the choice does not depend on the thread count. Ties go to the first grid point.

pub mod edge;
mod folds;
mod table;

pub use table::write_table;

use std::collections::HashMap;
use std::sync::Arc;

use indicatif::ProgressBar;
use rayon::prelude::*;

use super::derive_seed;
use super::draw::draw;
use super::fit::fit;
use crate::config::{Criterion, Experiment};
use crate::data::Problem;
use crate::engine::{Method, Split, Store};
use crate::error::Result;
use crate::stats::mean_std;
use crate::support::memory;

/// The tuning of one (dataset, method) pair.
#[derive(Debug, Clone)]
pub struct Tuned {
    /// Indices of the dataset entry and of the method entry in the experiment.
    pub dataset: usize,
    pub method: usize,
    /// Per grid point: mean and std (ddof = 1) of the error over the tuning splits, or why
    /// the point failed on some split.
    pub points: Vec<Result<(f64, f64), String>>,
    /// The grid point of lowest mean error (first on ties), or why there is none.
    pub chosen: Result<usize, String>,
}

/// The tuning of every tuned (dataset, method) pair of a run, in config order.
#[derive(Debug, Clone, Default)]
pub struct Choices(pub Vec<Tuned>);

impl Choices {
    /// The method to evaluate for dataset `d` and method `m` with its `params` column (the
    /// chosen point's, then `tuned=key:value,...`); an error when tuning chose nothing.
    pub fn method<'a>(
        &self,
        exp: &'a Experiment,
        d: usize,
        m: usize,
    ) -> Result<(&'a dyn Method, String), String> {
        let spec = &exp.methods[m];
        let Some(t) = &spec.tuning else { return Ok((spec.method.as_ref(), spec.method.params())) };
        let tuned = self
            .0
            .iter()
            .find(|x| x.dataset == d && x.method == m)
            .ok_or("not tuned on this dataset")?;
        let chosen =
            tuned.chosen.as_ref().map_err(|e| format!("tuning chose no grid point: {e}"))?;
        let point = &t.grid[*chosen];
        let values: Vec<String> = point.values.iter().map(|(k, v)| format!("{k}:{v}")).collect();
        let params = [point.method.params(), format!("tuned={}", values.join(","))].join(" ");
        Ok((point.method.as_ref(), params.trim_start().to_string()))
    }
}

impl Choices {
    /// One warning per (dataset, method) whose chosen point lies on the edge of its grid.
    pub fn edge_warnings(&self, exp: &Experiment) -> Vec<String> {
        let mut out = Vec::new();
        for tuned in &self.0 {
            let (Ok(p), Some(t)) = (&tuned.chosen, &exp.methods[tuned.method].tuning) else {
                continue;
            };
            let at: Vec<String> = edge::edges(t, *p)
                .into_iter()
                .map(|(k, side)| {
                    let v = t.grid[*p].values.iter().find(|(j, _)| *j == k).map_or("", |x| &x.1);
                    format!("{k} = {v}, the {side} value")
                })
                .collect();
            if !at.is_empty() {
                out.push(format!(
                    "warning: tuning {} on {} chose the edge of its grid ({}): the best value may lie outside it; widen the grid",
                    exp.methods[tuned.method].name,
                    exp.datasets[tuned.dataset].name,
                    at.join(", ")
                ));
            }
        }
        out
    }
}

/// One tuning split: a dataset entry, a tuning seed and a split index.
type Key = (usize, u64, usize);

/// Per tuning split (by index): each grid point's error, or why its fit failed.
type SplitErrors = Vec<(usize, Vec<Result<f64, String>>)>;

/// Tunes every tuned method on the dataset entries `datasets` (in the caller's rayon pool),
/// sharing the run's per-dataset stores.
pub fn tune(
    exp: &Experiment,
    datasets: &[usize],
    stores: &[Arc<Store>],
    bar: &ProgressBar,
) -> Result<Choices> {
    let tuned: Vec<usize> =
        (0..exp.methods.len()).filter(|&m| exp.methods[m].tuning.is_some()).collect();
    let mut keys: Vec<Key> = Vec::new();
    for &d in datasets {
        for &m in &tuned {
            let t = exp.methods[m].tuning.as_ref().expect("filtered on tuning");
            keys.extend(
                (0..t.splits)
                    .map(|s| (d, t.seed, s))
                    .filter(|k| !keys.contains(k))
                    .collect::<Vec<_>>(),
            );
        }
    }
    bar.set_length(keys.len() as u64);
    let errors: Vec<SplitErrors> = keys
        .par_iter()
        .map(|&key| {
            let out = split_errors(exp, &tuned, key, &stores[key.0]);
            bar.inc(1);
            out
        })
        .collect::<Result<_>>()?;
    let by_key: HashMap<Key, &SplitErrors> = keys.into_iter().zip(&errors).collect();
    let mut out = Vec::new();
    for &d in datasets {
        for &m in &tuned {
            let t = exp.methods[m].tuning.as_ref().expect("filtered on tuning");
            let per_split: Vec<&Vec<Result<f64, String>>> = (0..t.splits)
                .map(|s| {
                    by_key[&(d, t.seed, s)]
                        .iter()
                        .find(|(j, _)| *j == m)
                        .map(|(_, e)| e)
                        .expect("every tuned method is scored on its splits")
                })
                .collect();
            out.push(reduce(d, m, t.grid.len(), &per_split));
        }
    }
    Ok(Choices(out))
}

/// Mean ± std of each grid point over the splits, and the argmin.
fn reduce(
    dataset: usize,
    method: usize,
    points: usize,
    per_split: &[&Vec<Result<f64, String>>],
) -> Tuned {
    let points: Vec<Result<(f64, f64), String>> = (0..points)
        .map(|p| {
            let errors = per_split
                .iter()
                .enumerate()
                .map(|(s, e)| e[p].clone().map_err(|why| format!("split {s}: {why}")))
                .collect::<Result<Vec<f64>, String>>()?;
            Ok(mean_std(&errors))
        })
        .collect();
    let best =
        points.iter().enumerate().filter_map(|(p, r)| r.as_ref().ok().map(|(mean, _)| (p, *mean)));
    let chosen =
        best.fold(
            None,
            |b: Option<(usize, f64)>, (p, mean)| {
                if b.is_some_and(|(_, m)| m <= mean) { b } else { Some((p, mean)) }
            },
        );
    let chosen = chosen
        .map(|(p, _)| p)
        .ok_or_else(|| points.iter().find_map(|p| p.clone().err()).unwrap_or_default());
    Tuned { dataset, method, points, chosen }
}

/// Draws one tuning split and scores every grid point of every method tuned on its seed
/// (and with at least that many splits) by the method's criterion.
fn split_errors(
    exp: &Experiment,
    tuned: &[usize],
    (d, seed, s): Key,
    dataset_store: &Store,
) -> Result<SplitErrors> {
    let spec = &exp.datasets[d];
    let drawn = draw(spec, seed, s)?;
    let (problem, rows) = (&drawn.problem, &drawn.rows);
    let split_store = Store::default();
    let whole = Split {
        problem,
        source: Some(&spec.source),
        rows: rows.as_deref(),
        dataset_store,
        split_store: &split_store,
        test: None,
        seed: derive_seed(seed, &spec.name, s),
        index: s,
    };
    let mut views: HashMap<usize, Result<Vec<FoldView>, String>> = HashMap::new();
    let limit = memory::limit()?;
    let mut out = Vec::new();
    for &m in tuned {
        let t = exp.methods[m].tuning.as_ref().expect("filtered on tuning");
        let native = exp.methods[m].multiclass;
        if t.seed != seed || s >= t.splits {
            continue;
        }
        let errors = match t.criterion {
            Criterion::Unlabeled => t
                .grid
                .iter()
                .map(|p| {
                    fit(p.method.as_ref(), native, &whole, limit)
                        .map(|f| f.scores.error(problem))
                        .map_err(|e| e.to_string())
                })
                .collect(),
            Criterion::KFold(k) => {
                let views =
                    views.entry(k).or_insert_with(|| fold_views(problem, rows.as_deref(), k));
                match views {
                    Err(why) => vec![Err(why.clone()); t.grid.len()],
                    Ok(views) => t
                        .grid
                        .iter()
                        .map(|p| kfold_error(p.method.as_ref(), native, views, &whole, limit))
                        .collect(),
                }
            }
        };
        out.push((m, errors));
    }
    Ok(out)
}

/// A tuning split with one fold held out: the problem, its dataset rows, its own store, and
/// how many rows it holds out (the first unlabeled ones).
struct FoldView {
    problem: Problem,
    rows: Option<Vec<usize>>,
    store: Store,
    held: usize,
}

/// The split with each fold held out in turn.
fn fold_views(p: &Problem, rows: Option<&[usize]>, k: usize) -> Result<Vec<FoldView>, String> {
    let folds = folds::folds(p, k).map_err(|e| e.to_string())?;
    let view = |held: &Vec<usize>| {
        folds::hold_out(p, rows, held).map(|(problem, rows)| FoldView {
            problem,
            rows,
            store: Store::default(),
            held: held.len(),
        })
    };
    folds.iter().map(view).collect::<Result<_>>().map_err(|e| e.to_string())
}

/// Misclassified held-out rows over all folds (of the split `whole`), divided by the number
/// of labeled rows.
fn kfold_error(
    method: &dyn Method,
    native: bool,
    views: &[FoldView],
    whole: &Split,
    limit: f64,
) -> Result<f64, String> {
    let (mut wrong, mut held) = (0, 0);
    for v in views {
        let split = Split {
            problem: &v.problem,
            source: whole.source,
            rows: v.rows.as_deref(),
            dataset_store: whole.dataset_store,
            split_store: &v.store,
            test: None,
            seed: whole.seed,
            index: whole.index,
        };
        wrong += fit(method, native, &split, limit)
            .map_err(|e| e.to_string())?
            .scores
            .wrong(&v.problem, v.held);
        held += v.held;
    }
    Ok(wrong as f64 / held as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lowest_mean_wins_ties_go_first_and_failed_points_never_win() {
        let fail = || Err("singular".to_string());
        let s0 = vec![Ok(0.25), Ok(0.5), Ok(0.0), fail()];
        let s1 = vec![Ok(0.25), Ok(0.0), Ok(0.5), Ok(0.0)];
        let t = reduce(1, 2, 4, &[&s0, &s1]);
        assert_eq!(
            (t.dataset, t.method, t.chosen.clone()),
            (1, 2, Ok(0)),
            "three means of 0.25: the first"
        );
        assert_eq!(t.points[3], Err("split 0: singular".to_string()));
        let s0 = vec![Ok(0.5), Ok(0.25), fail()];
        assert_eq!(reduce(0, 0, 3, &[&s0]).chosen, Ok(1));
        assert_eq!(reduce(0, 0, 1, &[&vec![fail()]]).chosen, Err("split 0: singular".to_string()));
    }
}
