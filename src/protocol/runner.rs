//! Runs every (dataset, split, method) of an experiment in parallel with rayon.
//! Each (dataset, split) is one task: its problem is built once from the split's seed and
//! all methods run on it; faer stays sequential inside a task. Every finished row goes to
//! the row log at once; a method that fails records a `failed` row and the run goes on.

use std::path::Path;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::log::{RowLog, TaskKey, done};
use super::{ResultRow, derive_seed};
use crate::config::{DataSource, DatasetSpec, Experiment, LoadedData, MethodSpec};
use crate::data::split::{Split, class_shares, stratified};
use crate::data::{Problem, Sampler, error_rate};
use crate::error::{Error, Result};
use crate::stats::prbep;

/// How to run: thread count (None = all cores), progress bar (hidden anyway when stderr is
/// not a terminal), and whether to keep the rows of an earlier run of the same config.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions {
    pub threads: Option<usize>,
    pub progress: bool,
    pub resume: bool,
}

/// The problem of split `split` of a dataset, drawn from the split's own seed.
/// Synthetic datasets draw fresh labeled and unlabeled points (equal class shares); loaded
/// datasets take an official split or a stratified random one.
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
        DataSource::SparseText(text) => {
            Ok(text.sample_problem(spec.labeled.per_class([0.5, 0.5]), spec.unlabeled.per_class([0.5, 0.5]), &mut rng))
        }
    }
}

/// The rows of split `split` of a file-backed dataset: an official split, or a stratified
/// random one with the configured sizes.
pub(super) fn loaded_split(spec: &DatasetSpec, data: &LoadedData, split: usize, rng: &mut ChaCha8Rng) -> Result<Split> {
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


/// Runs the experiment in folder `dir`: persists the split indices (`splits/`), appends rows
/// to `rows.log` as they finish; returns all
/// rows (earlier ones too when resuming) ordered by (dataset, split, method) as in the config.
pub fn run(exp: &Experiment, opts: &RunOptions, dir: &Path) -> Result<Vec<ResultRow>> {
    faer::set_global_parallelism(faer::Par::Seq);
    super::splits::persist(exp, dir, opts.resume)?;
    let (log, previous) = RowLog::open(&dir.join("rows.log"), &exp.hash, opts.resume)?;
    let finished = done(&previous);
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
    bar.inc(finished.len() as u64);
    let fresh: Vec<Vec<ResultRow>> = pool.install(|| {
        tasks
            .par_iter()
            .map(|&(d, s)| run_task(exp, d, s, &finished, &log, &bar))
            .collect::<Result<_>>()
    })?;
    bar.finish_and_clear();
    let mut rows: Vec<ResultRow> = previous.into_iter().chain(fresh.into_iter().flatten()).collect();
    let position = |r: &ResultRow| {
        let d = exp.datasets.iter().position(|x| x.name == r.dataset);
        let m = exp.methods.iter().position(|x| x.name == r.method);
        (d, r.split, m)
    };
    rows.sort_by_key(position);
    Ok(rows)
}

fn run_task(
    exp: &Experiment,
    d: usize,
    split: usize,
    finished: &std::collections::HashSet<TaskKey>,
    log: &RowLog,
    bar: &ProgressBar,
) -> Result<Vec<ResultRow>> {
    let spec = &exp.datasets[d];
    let todo: Vec<&MethodSpec> = exp
        .methods
        .iter()
        .filter(|m| !finished.contains(&(spec.name.clone(), split, m.name.clone())))
        .collect();
    if todo.is_empty() {
        return Ok(Vec::new());
    }
    let problem = split_problem(spec, exp.seed, split)?;
    todo.into_iter()
        .map(|m| {
            let row = run_method(exp, spec, split, m, &problem);
            log.append(&row)?;
            bar.inc(1);
            Ok(row)
        })
        .collect()
}

/// One method on one split; a failure becomes a `failed` row carrying the reason.
fn run_method(exp: &Experiment, spec: &DatasetSpec, split: usize, m: &MethodSpec, problem: &Problem) -> ResultRow {
    let start = Instant::now();
    let outcome = m.method.run(problem);
    let fit_seconds = start.elapsed().as_secs_f64();
    let mut row = ResultRow {
        experiment: exp.name.clone(),
        config_hash: exp.hash.clone(),
        dataset: spec.name.clone(),
        split,
        split_seed: derive_seed(exp.seed, &spec.name, split),
        method: m.name.clone(),
        kind: m.kind.clone(),
        alpha_l: None,
        alpha_u: None,
        lambda_policy: m.method.lambda_policy().into(),
        lambda: f64::NAN,
        error: f64::NAN,
        prbep: f64::NAN,
        n_labeled: problem.n_labeled(),
        n_unlabeled: problem.n_unlabeled(),
        dim: problem.dim(),
        status: "ok".into(),
        message: String::new(),
        fit_seconds,
    };
    match outcome {
        Ok(o) => {
            row.alpha_l = o.alpha_l;
            row.alpha_u = o.alpha_u;
            row.lambda = o.lambda;
            row.error = error_rate(o.scores.view(), problem.y_u.view());
            row.prbep = prbep(o.scores.view(), problem.y_u.view());
        }
        Err(e) => {
            row.status = "failed".into();
            row.message = e.to_string();
        }
    }
    row
}
