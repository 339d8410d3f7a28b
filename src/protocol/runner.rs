//! Runs every (dataset, split, method) of an experiment in parallel with rayon.
//! Each (dataset, split) is one task: its problem is built once from the split's seed and
//! all methods run on it; faer stays sequential inside a task.

use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::{ResultRow, derive_seed};
use crate::config::{DataSource, DatasetSpec, Experiment, LoadedData};
use crate::data::split::{Split, class_shares, stratified};
use crate::data::{Problem, error_rate};
use crate::error::{Error, Result};

/// How to run: thread count (None = all cores) and whether to draw a progress bar
/// (it is hidden anyway when stderr is not a terminal).
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions {
    pub threads: Option<usize>,
    pub progress: bool,
}

/// The problem of split `split` of a dataset, drawn from the split's own seed.
/// Synthetic datasets draw fresh labeled and unlabeled points (equal class shares); loaded
/// datasets take the official split, or a stratified draw of their rows (class shares).
pub fn split_problem(spec: &DatasetSpec, seed: u64, split: usize) -> Result<Problem> {
    let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(seed, &spec.name, split));
    match &spec.source {
        DataSource::Synthetic(mixture) => {
            let shares = [0.5, 0.5];
            Ok(mixture.sample_problem(spec.labeled.per_class(shares), spec.unlabeled.per_class(shares), &mut rng))
        }
        DataSource::Loaded(data) => {
            let rows = loaded_split(spec, data, split, &mut rng)?;
            Ok(data.dataset.problem(&rows.labeled, &rows.unlabeled))
        }
    }
}

/// Rows of split `split`: line `split` of the official splits, or a stratified draw.
fn loaded_split(spec: &DatasetSpec, data: &LoadedData, split: usize, rng: &mut ChaCha8Rng) -> Result<Split> {
    let d = &data.dataset;
    match &data.official_splits {
        Some(all) => {
            let labeled = all.get(split).ok_or_else(|| Error::Data(format!("dataset `{}` has only {} official splits", spec.name, all.len())))?;
            Ok(Split::complement(labeled, d.len()))
        }
        None => {
            let s = class_shares(d);
            let shares = [s[0], s[1]];
            stratified(d, &spec.labeled.per_class(shares), &spec.unlabeled.per_class(shares), rng)
        }
    }
}

/// Runs the experiment; rows come back ordered by (dataset, split, method) as in the config.
pub fn run(exp: &Experiment, opts: &RunOptions) -> Result<Vec<ResultRow>> {
    faer::set_global_parallelism(faer::Par::Seq);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.unwrap_or(0))
        .build()
        .map_err(|e| Error::Data(format!("cannot start thread pool: {e}")))?;
    let tasks: Vec<(usize, usize)> = (0..exp.datasets.len())
        .flat_map(|d| (0..exp.splits).map(move |s| (d, s)))
        .collect();
    let total = (tasks.len() * exp.methods.len()) as u64;
    let bar = if opts.progress {
        ProgressBar::new(total).with_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} fits, eta {eta}")
                .expect("static template")
                .progress_chars("=> "),
        )
    } else {
        ProgressBar::hidden()
    };
    let per_task: Vec<Vec<ResultRow>> = pool.install(|| {
        tasks
            .par_iter()
            .map(|&(d, s)| run_task(exp, d, s, &bar))
            .collect::<Result<_>>()
    })?;
    bar.finish_and_clear();
    Ok(per_task.into_iter().flatten().collect())
}

fn run_task(exp: &Experiment, d: usize, split: usize, bar: &ProgressBar) -> Result<Vec<ResultRow>> {
    let spec = &exp.datasets[d];
    let problem = split_problem(spec, exp.seed, split)?;
    exp.methods
        .iter()
        .map(|m| {
            let start = Instant::now();
            let outcome = m.method.run(&problem).map_err(|e| Error::Task {
                method: m.name.clone(),
                dataset: spec.name.clone(),
                split,
                source: Box::new(e),
            })?;
            let fit_seconds = start.elapsed().as_secs_f64();
            bar.inc(1);
            Ok(ResultRow {
                experiment: exp.name.clone(),
                config_hash: exp.hash.clone(),
                dataset: spec.name.clone(),
                split,
                split_seed: derive_seed(exp.seed, &spec.name, split),
                method: m.name.clone(),
                kind: m.kind.clone(),
                alpha_l: outcome.alpha_l,
                alpha_u: outcome.alpha_u,
                lambda_policy: m.method.lambda_policy().into(),
                lambda: outcome.lambda,
                error: error_rate(outcome.scores.view(), problem.y_u.view()),
                n_labeled: problem.n_labeled(),
                n_unlabeled: problem.n_unlabeled(),
                dim: problem.dim(),
                fit_seconds,
            })
        })
        .collect()
}
