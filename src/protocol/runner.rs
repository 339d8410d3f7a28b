//! Runs every (dataset, split, method) of an experiment in parallel with rayon.
//! First each method prepares what a dataset's splits share (`prepare.rs`, e.g. the kNN
//! graph of all of its rows, on all threads). Each (dataset, split) is one task: its
//! problem is drawn once from the split's seed (the
//! rows' features copied only when one of its methods reads them) and all methods fit it,
//! sharing the split's store; datasets reading the same rows share a
//! dataset store. faer stays sequential inside a task. Every finished row goes to the row
//! log at once; a method that fails records a `failed` row and the run goes on.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::draw::Drawn;
use super::draw_for;
use super::estimate;
use super::fit::fit;
use super::lock::RunLock;
use super::log::{RowLog, TaskKey, check_tasks, done, todo};
use super::models;
use super::prepare::prepare;
use super::progress::{Fits, Progress};
use super::scores::{ScoreLog, log_for};
use super::shard::{self, Shard};
use super::tune::{self, Choices};
use super::{ResultRow, derive_seed};
use crate::config::{DatasetSpec, Experiment, MethodSpec};
use crate::data::DataSource;
use crate::engine::{Fitted, Store};
use crate::error::{Error, Result};
use crate::support::memory;

/// How to run: thread count (None = all cores), progress bar (hidden anyway when stderr is
/// not a terminal), whether to keep the rows of an earlier run of the same config, and which
/// shard of the run (None: all of it).
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions {
    pub threads: Option<usize>,
    pub progress: bool,
    pub resume: bool,
    pub shard: Option<Shard>,
}

/// Runs the experiment (or one shard of it) in folder `dir`, locked against other runs
/// ([`RunLock`]): persists the split indices (`splits/`); tunes the methods with a `tune`
/// block on the datasets of its tasks and writes `tuning.csv` (a shard:
/// `tuning.shard-I-of-N.csv`); appends rows to `rows.log` (a shard: `rows.shard-I-of-N.log`)
/// as they finish, and their scores to the score log beside it when the config saves
/// scores ([`ScoreLog`]) and their models to `models/` when it saves models
/// ([`models::save`]); returns its rows (earlier ones too when resuming) in [`finish_rows`] order.
pub fn run(exp: &Experiment, opts: &RunOptions, dir: &Path) -> Result<Vec<ResultRow>> {
    faer::set_global_parallelism(faer::Par::Seq);
    if let Some(s) = opts.shard {
        shard::check_count(exp, s.count)?;
    }
    let _lock = RunLock::acquire(exp, dir, opts.shard)?;
    exp.read_data()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.unwrap_or(0))
        .build()
        .map_err(|e| Error::Data(format!("cannot start thread pool: {e}")))?;
    pool.install(|| super::splits::persist(exp, dir, opts.resume))?;
    let log_name = opts.shard.map_or_else(|| "rows.log".to_string(), |s| s.log_name());
    let (log, previous) = RowLog::open(&dir.join(&log_name), &exp.hash, opts.resume)?;
    check_tasks(exp, &previous, &dir.join(&log_name))?;
    let finished = done(&previous);
    let scores = match exp.save_scores {
        true => Some(ScoreLog::open(&log_for(&dir.join(log_name)), opts.resume, &finished)?),
        false => None,
    };
    let stores = dataset_stores(exp);
    let tasks = shard::tasks(exp, opts.shard)?;
    let choices = tuning(exp, &tasks, &stores, &pool, opts, dir)?;
    let limit = memory::limit()?;
    pool.install(|| prepare(exp, &tasks, &finished, &stores, &choices, limit))?;
    memory::release_free();
    let bar = fit_progress(exp, &tasks, &finished, opts.progress)?;
    let task = Task {
        exp,
        finished: &finished,
        log: &log,
        scores: scores.as_ref(),
        models: exp.save_models.then_some(dir),
        bar: &bar,
        choices: &choices,
    };
    let fresh: Vec<Vec<ResultRow>> = pool.install(|| {
        // Leaves of one task: a thread that runs out of work can take any task not yet
        // started (rayon's default leaves are runs of tasks done in turn, which left one
        // core idle for the last ~60 s of Table 4).
        tasks
            .par_iter()
            .with_max_len(1)
            .map(|&(d, s)| task.run(d, s, &stores[d]))
            .collect::<Result<_>>()
    })?;
    bar.finish();
    let mut rows: Vec<ResultRow> =
        previous.into_iter().chain(fresh.into_iter().flatten()).collect();
    finish_rows(exp, &mut rows);
    Ok(rows)
}

/// Tunes the tuned methods on the datasets of `tasks` and writes the tuning table (nothing
/// without a `tune` block).
fn tuning(
    exp: &Experiment,
    tasks: &[(usize, usize)],
    stores: &[Arc<Store>],
    pool: &rayon::ThreadPool,
    opts: &RunOptions,
    dir: &Path,
) -> Result<Choices> {
    if exp.methods.iter().all(|m| m.tuning.is_none()) {
        return Ok(Choices::default());
    }
    let mut datasets: Vec<usize> = tasks.iter().map(|t| t.0).collect();
    datasets.sort_unstable();
    datasets.dedup();
    let bar = progress(opts.progress, 0, "tuning splits");
    let choices = pool.install(|| tune::tune(exp, &datasets, stores, &bar))?;
    bar.finish_and_clear();
    let name = opts.shard.map_or_else(
        || "tuning.csv".to_string(),
        |s| format!("tuning.shard-{}-of-{}.csv", s.index, s.count),
    );
    tune::write_table(&dir.join(name), exp, &choices)?;
    for warning in choices.edge_warnings(exp) {
        eprintln!("{warning}");
    }
    Ok(choices)
}

/// A progress bar counting `what` (hidden unless `show`).
fn progress(show: bool, total: u64, what: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let template = format!("{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what}, eta {{eta}}");
    ProgressBar::new(total).with_style(
        ProgressStyle::with_template(&template).expect("static template").progress_chars("=> "),
    )
}

/// The counter of the fits of `tasks`, those in `finished` counted as done.
fn fit_progress(
    exp: &Experiment,
    tasks: &[(usize, usize)],
    finished: &HashSet<TaskKey>,
    show: bool,
) -> Result<Progress> {
    let (mut total, mut skipped) = (Fits::default(), Fits::default());
    for &(d, s) in tasks {
        for (i, m) in exp.methods.iter().enumerate() {
            let cost = estimate::fit_seconds(exp, d, i)?;
            total.add(cost);
            if finished.contains(&(exp.datasets[d].name.clone(), s, m.name.clone())) {
                skipped.add(cost);
            }
        }
    }
    Ok(Progress::new(show, total, skipped))
}

/// Orders rows by (dataset, split, method) as in the config and attaches each row's swept
/// values (rows read back from a row log do not carry them).
pub fn finish_rows(exp: &Experiment, rows: &mut [ResultRow]) {
    for r in rows.iter_mut() {
        r.swept = exp.swept(&r.dataset, &r.method);
    }
    rows.sort_by_key(|r| {
        let d = exp.datasets.iter().position(|x| x.name == r.dataset);
        let m = exp.methods.iter().position(|x| x.name == r.method);
        (d, r.split, m)
    });
}

/// One store per dataset entry, shared by the entries that read the same loaded rows.
fn dataset_stores(exp: &Experiment) -> Vec<Arc<Store>> {
    let mut stores: Vec<Arc<Store>> = Vec::new();
    for (d, spec) in exp.datasets.iter().enumerate() {
        let same = exp.datasets[..d].iter().position(|other| match (&other.source, &spec.source) {
            (DataSource::Loaded(a), DataSource::Loaded(b)) => Arc::ptr_eq(a, b),
            _ => false,
        });
        stores.push(same.map_or_else(|| Arc::new(Store::default()), |i| stores[i].clone()));
    }
    stores
}

/// What every task of a run shares.
struct Task<'a> {
    exp: &'a Experiment,
    finished: &'a HashSet<TaskKey>,
    log: &'a RowLog,
    scores: Option<&'a ScoreLog>,
    /// The run folder, when the config saves models.
    models: Option<&'a Path>,
    bar: &'a Progress,
    choices: &'a Choices,
}

impl Task<'_> {
    /// The methods not yet finished on split `split` of dataset `d`, fitted in config order.
    fn run(&self, d: usize, split: usize, dataset_store: &Store) -> Result<Vec<ResultRow>> {
        let spec = &self.exp.datasets[d];
        let todo = todo(self.exp, self.finished, d, split);
        if todo.is_empty() {
            return Ok(Vec::new());
        }
        // The rows' features only when a method will read them (a copy per split).
        let drawn = draw_for(spec, self.exp.seed, split, |rows| {
            todo.iter().any(|&m| {
                self.choices
                    .method(self.exp, d, m)
                    .is_ok_and(|(method, _)| method.reads_features(&spec.source, rows))
            })
        })?;
        let split_store = Store::default();
        let view = drawn.view(spec, self.exp.seed, split, dataset_store, &split_store);
        let limit = memory::limit()?;
        todo.into_iter()
            .map(|m| {
                let start = Instant::now();
                let entry = &self.exp.methods[m];
                let (params, fitted) = match self.choices.method(self.exp, d, m) {
                    Ok((method, params)) => (params, fit(method, entry.multiclass, &view, limit)),
                    Err(why) => (String::new(), Err(Error::Data(why))),
                };
                let measured = fitted.as_ref().ok().and_then(|f| f.seconds);
                let fit_seconds = measured.unwrap_or_else(|| start.elapsed().as_secs_f64());
                let outcome = Outcome { entry, params, fitted, fit_seconds };
                let (row, fitted) = row(self.exp, spec, split, &drawn, outcome);
                // The scores first: a task's scores count once its row is logged.
                if let (Some(scores), Some(f)) = (self.scores, &fitted) {
                    scores.append(&row, &drawn, f)?;
                }
                if let (Some(dir), Some(model)) =
                    (self.models, fitted.as_ref().and_then(|f| f.model.as_ref()))
                {
                    let pre = match &spec.source {
                        DataSource::Loaded(file) => file.preprocessing()?,
                        DataSource::Generated(_) => None,
                    };
                    models::save(dir, (&row.dataset, split, &row.method), model, pre)?;
                }
                self.log.append(&row)?;
                self.bar.inc(estimate::fit_seconds(self.exp, d, m)?);
                Ok(row)
            })
            .collect()
    }
}

/// One method entry fitted on one split (with the tuned choice or the entry's own method),
/// `params` its column.
struct Outcome<'a> {
    entry: &'a MethodSpec,
    params: String,
    fitted: Result<Fitted>,
    fit_seconds: f64,
}

/// The result row of one method entry on one split (and its test rows, if any), fitted
/// ([`Outcome`]), with the values the fit reported, and the fit; a failure becomes a
/// `failed` row carrying the reason (and no fit).
fn row(
    exp: &Experiment,
    spec: &DatasetSpec,
    split: usize,
    drawn: &Drawn,
    outcome: Outcome<'_>,
) -> (ResultRow, Option<Fitted>) {
    let Outcome { entry: m, params, fitted, fit_seconds } = outcome;
    let (problem, test) = (&drawn.problem, drawn.test.as_deref());
    let mut row = ResultRow {
        experiment: exp.name.clone(),
        config_hash: exp.hash.clone(),
        dataset: spec.name.clone(),
        split,
        split_seed: derive_seed(exp.seed, &spec.name, split),
        method: m.name.clone(),
        kind: m.kind.clone(),
        params,
        alpha_l: None,
        alpha_u: None,
        lambda_policy: String::new(),
        lambda: None,
        error: f64::NAN,
        prbep: f64::NAN,
        test_error: None,
        test_prbep: None,
        n_labeled: problem.n_labeled(),
        n_unlabeled: problem.n_unlabeled(),
        dim: problem.dim(),
        status: "ok".into(),
        message: String::new(),
        fit_seconds,
        reported: Vec::new(),
        swept: Vec::new(),
    };
    match fitted.and_then(|f| row.report(f.reported.clone()).map(|()| f)) {
        Ok(f) => {
            row.error = f.scores.error(problem);
            row.prbep = f.scores.prbep(problem);
            if let (Some(t), Some(scores)) = (test, &f.test) {
                row.test_error = Some(scores.error_on(&t.y, &t.classes));
                row.test_prbep = Some(scores.prbep_on(&t.y));
            }
            (row, Some(f))
        }
        Err(e) => {
            row.status = "failed".into();
            row.message = e.to_string();
            (row, None)
        }
    }
}
