//! Runs every (dataset, split, method) of an experiment in parallel with rayon.
//! Each (dataset, split) is one task: its problem is drawn once from the split's seed and
//! all methods fit it, sharing the split's store; datasets reading the same rows share a
//! dataset store. faer stays sequential inside a task. Every finished row goes to the row
//! log at once; a method that fails records a `failed` row and the run goes on.

use std::collections::HashSet;
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::draw::draw;
use super::lock::RunLock;
use super::log::{RowLog, TaskKey, done};
use super::shard::{self, Shard};
use super::tune::{self, Choices};
use super::{ResultRow, derive_seed};
use crate::config::{DatasetSpec, Experiment, MethodSpec};
use crate::data::{DataSource, Dataset, Problem};
use crate::engine::{Fitted, Method, Split, Store, memory};
use crate::error::{Error, Result};

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
/// as they finish; returns its rows (earlier ones too when resuming) in [`finish_rows`] order.
pub fn run(exp: &Experiment, opts: &RunOptions, dir: &Path) -> Result<Vec<ResultRow>> {
    faer::set_global_parallelism(faer::Par::Seq);
    let _lock = RunLock::acquire(exp, dir, opts.shard)?;
    exp.read_data()?;
    super::splits::persist(exp, dir, opts.resume)?;
    let log_name = opts.shard.map_or_else(|| "rows.log".to_string(), |s| s.log_name());
    let (log, previous) = RowLog::open(&dir.join(log_name), &exp.hash, opts.resume)?;
    let finished = done(&previous);
    let stores = dataset_stores(exp);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.unwrap_or(0))
        .build()
        .map_err(|e| Error::Data(format!("cannot start thread pool: {e}")))?;
    let tasks = shard::tasks(exp, opts.shard)?;
    let choices = tuning(exp, &tasks, &stores, &pool, opts, dir)?;
    let bar = progress(opts.progress, (tasks.len() * exp.methods.len()) as u64, "fits");
    bar.inc(finished.len() as u64);
    let task = Task { exp, finished: &finished, log: &log, bar: &bar, choices: &choices };
    let fresh: Vec<Vec<ResultRow>> = pool.install(|| {
        tasks.par_iter().map(|&(d, s)| task.run(d, s, &stores[d])).collect::<Result<_>>()
    })?;
    bar.finish_and_clear();
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
    bar: &'a ProgressBar,
    choices: &'a Choices,
}

impl Task<'_> {
    /// The methods not yet finished on split `split` of dataset `d`, fitted in config order.
    fn run(&self, d: usize, split: usize, dataset_store: &Store) -> Result<Vec<ResultRow>> {
        let spec = &self.exp.datasets[d];
        let todo: Vec<usize> = (0..self.exp.methods.len())
            .filter(|&m| {
                !self.finished.contains(&(
                    spec.name.clone(),
                    split,
                    self.exp.methods[m].name.clone(),
                ))
            })
            .collect();
        if todo.is_empty() {
            return Ok(Vec::new());
        }
        let drawn = draw(spec, self.exp.seed, split)?;
        let (problem, test) = (&drawn.problem, drawn.test.as_deref());
        let split_store = Store::default();
        let view = Split {
            problem,
            source: &spec.source,
            rows: drawn.rows.as_deref(),
            dataset_store,
            split_store: &split_store,
            test: test.map(|t| &t.x),
        };
        let limit = memory::limit();
        todo.into_iter()
            .map(|m| {
                let start = Instant::now();
                let entry = &self.exp.methods[m];
                let (method, params, fitted) = match self.choices.method(self.exp, d, m) {
                    Ok((method, params)) => (method, params, fit(method, &view, limit)),
                    Err(why) => (entry.method.as_ref(), String::new(), Err(Error::Data(why))),
                };
                let row = row(
                    self.exp,
                    spec,
                    split,
                    (entry, method, params),
                    (problem, test),
                    fitted,
                    start.elapsed().as_secs_f64(),
                );
                self.log.append(&row)?;
                self.bar.inc(1);
                Ok(row)
            })
            .collect()
    }
}

/// Fits one method, isolated: a fit whose memory estimate exceeds `limit`, and a panic
/// inside a fit (e.g. a refused allocation), become errors for its row only.
pub(super) fn fit(method: &dyn Method, split: &Split, limit: f64) -> Result<Fitted> {
    let p = split.problem;
    let (n, dim) = (p.n_labeled() + p.n_unlabeled(), p.dim());
    let need = method.memory(n, dim);
    if need > limit {
        return Err(Error::Data(format!(
            "needs about {:.1} GiB for {n} points × {dim} features, above the memory limit of {:.1} GiB (set SSLAB_MEMORY_LIMIT to change it)",
            need / memory::GIB,
            limit / memory::GIB
        )));
    }
    std::panic::catch_unwind(AssertUnwindSafe(|| method.fit(split))).unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("unknown panic");
        Err(Error::Data(format!("the fit panicked: {why}")))
    })
}

/// The result row of one method entry on one split (and its test rows, if any), fitted
/// with `method` (the tuned choice or the entry's own) whose `params` column is given; a
/// failure becomes a `failed` row carrying the reason.
fn row(
    exp: &Experiment,
    spec: &DatasetSpec,
    split: usize,
    (m, method, params): (&MethodSpec, &dyn Method, String),
    (problem, test): (&Problem, Option<&Dataset>),
    fitted: Result<Fitted>,
    fit_seconds: f64,
) -> ResultRow {
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
        lambda_policy: method.lambda_policy().into(),
        lambda: f64::NAN,
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
        swept: Vec::new(),
    };
    match fitted {
        Ok(f) => {
            row.alpha_l = f.alpha_l;
            row.alpha_u = f.alpha_u;
            row.lambda = f.lambda;
            row.error = f.scores.error(problem);
            row.prbep = f.scores.prbep(problem);
            if let (Some(t), Some(scores)) = (test, &f.test) {
                row.test_error = Some(scores.error_on(&t.y, &t.classes));
                row.test_prbep = Some(scores.prbep_on(&t.y));
            }
        }
        Err(e) => {
            row.status = "failed".into();
            row.message = e.to_string();
        }
    }
    row
}
