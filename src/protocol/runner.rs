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

use super::graph_cache::{GraphCache, GraphSplit, graph};
use super::log::{RowLog, TaskKey, done};
use super::{ResultRow, derive_seed};
use crate::config::{DataSource, DatasetSpec, Experiment, LoadedData, MethodSpec};
use crate::methods::Method;
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
        DataSource::Synthetic(mixture) => Ok(mixture.sample_problem(spec.labeled.two(), spec.unlabeled.two(), &mut rng)),
        DataSource::Loaded(data) => {
            let rows = loaded_split(spec, data, split, &mut rng)?;
            Ok(data.dataset.problem(&rows.labeled, &rows.unlabeled))
        }
        DataSource::SparseText(text) => Ok(text.sample_problem(spec.labeled.two(), spec.unlabeled.two(), &mut rng)),
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
            let shares = class_shares(d);
            let labeled = spec.labeled.per_class(&shares, &[]);
            let rest: Vec<usize> = d.class_counts().iter().zip(&labeled).map(|(c, l)| c.saturating_sub(*l)).collect();
            stratified(d, &labeled, &spec.unlabeled.per_class(&shares, &rest), rng)
        }
    }
}

/// What a method's run gives a result row.
pub(super) struct Evaluation {
    pub error: f64,
    pub prbep: f64,
    pub alpha_l: Option<f64>,
    pub alpha_u: Option<f64>,
    pub lambda: f64,
}

/// Runs the experiment in folder `dir`: persists the split indices (`splits/`), appends rows
/// to `rows.log` as they finish; returns all
/// rows (earlier ones too when resuming) ordered by (dataset, split, method) as in the config.
pub fn run(exp: &Experiment, opts: &RunOptions, dir: &Path) -> Result<Vec<ResultRow>> {
    faer::set_global_parallelism(faer::Par::Seq);
    super::splits::persist(exp, dir, opts.resume)?;
    let (log, previous) = RowLog::open(&dir.join("rows.log"), &exp.hash, opts.resume)?;
    let finished = done(&previous);
    let cache = GraphCache::new(exp);
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
            .map(|&(d, s)| run_task(exp, d, s, &finished, &log, &bar, &cache))
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
    cache: &GraphCache,
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
    // Graph methods on file datasets go through the shared kernels and graphs (the only
    // route for multi-class data); everything else sees the split as a binary `Problem`.
    let mut graph_split = match &spec.source {
        DataSource::Loaded(data) if todo.iter().any(|m| graph(&m.method).is_some()) => {
            let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(exp.seed, &spec.name, split));
            Some(GraphSplit::new(cache, data, &loaded_split(spec, data, split, &mut rng)?))
        }
        _ => None,
    };
    let mut problem = None;
    todo.into_iter()
        .map(|m| {
            let start = Instant::now();
            let (evaluation, sizes) = match (graph(&m.method), graph_split.as_mut()) {
                (Some(g), Some(gs)) => (gs.evaluate(g), gs.sizes()),
                _ => {
                    if problem.is_none() {
                        problem = Some(split_problem(spec, exp.seed, split)?);
                    }
                    let p = problem.as_ref().expect("just built");
                    (evaluate(&m.method, p), (p.n_labeled(), p.n_unlabeled(), p.dim()))
                }
            };
            let row = row(exp, spec, split, m, evaluation, sizes, start.elapsed().as_secs_f64());
            log.append(&row)?;
            bar.inc(1);
            Ok(row)
        })
        .collect()
}

/// Runs a method on a binary problem and scores its unlabeled points.
fn evaluate(method: &Method, problem: &Problem) -> Result<Evaluation> {
    let o = method.run(problem)?;
    Ok(Evaluation {
        error: error_rate(o.scores.view(), problem.y_u.view()),
        prbep: prbep(o.scores.view(), problem.y_u.view()),
        alpha_l: o.alpha_l,
        alpha_u: o.alpha_u,
        lambda: o.lambda,
    })
}

/// The result row of one method on one split; a failure becomes a `failed` row carrying
/// the reason. `sizes` = (labeled, unlabeled, dimension).
fn row(exp: &Experiment, spec: &DatasetSpec, split: usize, m: &MethodSpec, evaluation: Result<Evaluation>, sizes: (usize, usize, usize), fit_seconds: f64) -> ResultRow {
    let mut row = ResultRow {
        experiment: exp.name.clone(),
        config_hash: exp.hash.clone(),
        dataset: spec.name.clone(),
        split,
        split_seed: derive_seed(exp.seed, &spec.name, split),
        method: m.name.clone(),
        kind: m.kind.clone(),
        params: m.method.describe(),
        alpha_l: None,
        alpha_u: None,
        lambda_policy: m.method.lambda_policy().into(),
        lambda: f64::NAN,
        error: f64::NAN,
        prbep: f64::NAN,
        n_labeled: sizes.0,
        n_unlabeled: sizes.1,
        dim: sizes.2,
        status: "ok".into(),
        message: String::new(),
        fit_seconds,
    };
    match evaluation {
        Ok(e) => {
            row.alpha_l = e.alpha_l;
            row.alpha_u = e.alpha_u;
            row.lambda = e.lambda;
            row.error = e.error;
            row.prbep = e.prbep;
        }
        Err(e) => {
            row.status = "failed".into();
            row.message = e.to_string();
        }
    }
    row
}
