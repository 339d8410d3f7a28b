//! The checked experiment and the validation of a whole config.

use std::collections::HashMap;
use std::ops::Range;
use std::path::PathBuf;

use super::dataset_spec::DatasetSpec;
use super::datasets;
use super::methods::{self, MethodSpec};
use super::raw;
use super::sweep::Swept;
use super::tuning::RawTune;
use super::values::positive;
use crate::data::DataSource;
use crate::data::kinds::DatasetKind;
use crate::engine::{Family, Located};
use crate::error::Result;
use crate::support::suggest;

/// A validated experiment.
#[derive(Debug, Clone)]
pub struct Experiment {
    /// The config file it came from.
    pub path: PathBuf,
    /// Where its relative paths lead.
    pub base: crate::support::Base,
    pub name: String,
    pub seed: u64,
    /// Number of random splits per dataset (default 20).
    pub splits: usize,
    /// Hash of the config's content, carried by every result row.
    pub hash: String,
    /// Whether the run writes every fit's scores to `scores.csv` (default false).
    pub save_scores: bool,
    /// Whether the run writes every fit's model to `models/` (default false).
    pub save_models: bool,
    pub datasets: Vec<DatasetSpec>,
    pub methods: Vec<MethodSpec>,
}

impl Experiment {
    /// The swept keys, datasets' first, in config order: the extra columns of results.csv.
    pub fn swept_keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = Vec::new();
        let all = self
            .datasets
            .iter()
            .flat_map(|d| &d.swept)
            .chain(self.methods.iter().flat_map(|m| &m.swept));
        for (k, _) in all {
            if !keys.contains(k) {
                keys.push(k.clone());
            }
        }
        keys
    }

    /// Reads every file dataset (each once) and checks the split sizes against its rows:
    /// what a run does first, so that a data error stops it before any work.
    pub fn read_data(&self) -> Result<()> {
        self.datasets.iter().try_for_each(|d| d.loaded().map(|_| ()))
    }

    /// The swept values of a (dataset, method) pair: the dataset's, then the method's.
    pub fn swept(&self, dataset: &str, method: &str) -> Vec<(String, String)> {
        let d = self
            .datasets
            .iter()
            .filter(|d| d.name == dataset)
            .flat_map(|d| d.swept.iter().cloned());
        d.chain(
            self.methods.iter().filter(|m| m.name == method).flat_map(|m| m.swept.iter().cloned()),
        )
        .collect()
    }
}

/// The most splits a config may ask for.
const MAX_SPLITS: usize = 100_000;

/// The most (dataset, split) tasks and (dataset, split, method) fits of a config: bounds
/// the task lists, shard assignment and row logs of a run.
const MAX_TASKS: usize = 1_000_000;
const MAX_FITS: usize = 10_000_000;

pub(super) fn check(
    raw: raw::Config,
    dataset_sweeps: Vec<Swept>,
    method_sweeps: Vec<(Swept, Option<RawTune>)>,
    at: Located,
    hash: String,
    families: &[&dyn Family],
    kinds: &[&dyn DatasetKind],
) -> Result<Experiment> {
    let exp_span = raw.experiment.span();
    let exp = raw.experiment.into_inner();
    let name = exp.name.get_ref().trim().to_string();
    if let Err(why) = file_name(&name) {
        return Err(at.error(exp.name.span(), format!("experiment.name: {why}")));
    }
    let seed = u64::try_from(*exp.seed.get_ref()).map_err(|_| {
        let n = exp.seed.get_ref().to_string();
        at.error(exp.seed.span(), suggest::out_of_range("experiment.seed", &n))
    })?;
    let splits = match &exp.splits {
        Some(s) => match positive(s, "experiment.splits", at)? {
            n if n > MAX_SPLITS => {
                return Err(
                    at.error(s.span(), format!("experiment.splits: at most {MAX_SPLITS}, got {n}"))
                );
            }
            n => n,
        },
        None => 20,
    };
    if raw.datasets.is_empty() {
        return Err(at.error(exp_span, "no [[datasets]] entry".into()));
    }
    if raw.methods.is_empty() {
        return Err(at.error(exp_span, "no [[methods]] entry".into()));
    }
    // The line of each entry's `kind` (array-of-tables spans do not point at their entry).
    let method_spans: Vec<_> = raw
        .methods
        .iter()
        .map(|m| m.get_ref().get("kind").map_or(m.span(), |k| k.span()))
        .collect();
    let dataset_spans: Vec<_> = raw
        .datasets
        .iter()
        .map(|d| d.get_ref().get("name").map_or(d.span(), |n| n.span()))
        .collect();
    let methods = raw
        .methods
        .into_iter()
        .zip(method_sweeps)
        .enumerate()
        .map(|(i, (m, (swept, tune)))| methods::method(m, swept, tune, i, seed, at, families))
        .collect::<Result<Vec<_>>>()?;
    let mut read = datasets::Read::default();
    let cx = datasets::Context { splits, kinds };
    let datasets = raw
        .datasets
        .into_iter()
        .zip(dataset_sweeps)
        .enumerate()
        .map(|(i, (d, s))| datasets::dataset(d, s, i, &cx, &mut read, at))
        .collect::<Result<Vec<_>>>()?;
    let tasks = datasets.len().saturating_mul(splits);
    let fits = tasks.saturating_mul(methods.len());
    if tasks > MAX_TASKS || fits > MAX_FITS {
        return Err(at.error(exp_span, format!("{} datasets × {splits} splits × {} methods: at most {MAX_TASKS} (dataset, split) tasks and {MAX_FITS} fits per config (split it into several configs)", datasets.len(), methods.len())));
    }
    for (i, (d, span)) in datasets.iter().zip(&dataset_spans).enumerate() {
        if let Err(why) = file_name(&d.name) {
            return Err(at.error(
                span.clone(),
                format!("datasets[{i}].name `{}`: {why}", d.name.escape_debug()),
            ));
        }
    }
    unique(datasets.iter().map(|d| d.name.as_str()).zip(dataset_spans), "datasets", at)?;
    unique(
        methods.iter().map(|m| m.name.as_str()).zip(method_spans.iter().cloned()),
        "methods",
        at,
    )?;
    if let Some(m) = methods.iter().position(|m| m.tuning.is_some()) {
        let official =
            datasets.iter().position(|d| matches!(&d.source, DataSource::Loaded(f) if f.official));
        if let Some(d) = official {
            return Err(at.error(method_spans[m].clone(), format!("methods[{m}].tune: datasets[{d}] uses official splits, but tuning draws its own splits from the tuning seed")));
        }
    }
    if let Some((k, _)) = datasets
        .iter()
        .flat_map(|d| &d.swept)
        .find(|(k, _)| methods.iter().any(|m| m.swept.iter().any(|(j, _)| j == k)))
    {
        return Err(at.error(
            exp_span,
            format!(
                "`{k}` is swept by a dataset and by a method: it would name two result columns"
            ),
        ));
    }
    let (save_scores, save_models) =
        (exp.save_scores.unwrap_or(false), exp.save_models.unwrap_or(false));
    if save_models
        && let Some((i, why)) =
            methods.iter().enumerate().find_map(|(i, m)| Some((i, m.method.no_model()?)))
    {
        return Err(at.error(
            method_spans[i].clone(),
            format!(
                "methods[{i}] (`{}`): `save_models = true`, but this method leaves no model: {why}",
                methods[i].name
            ),
        ));
    }
    Ok(Experiment {
        path: PathBuf::from(at.path),
        base: at.base.clone(),
        name,
        seed,
        splits,
        hash,
        save_scores,
        save_models,
        datasets,
        methods,
    })
}

/// The longest experiment or dataset name, in bytes: they name files and folders, whose
/// temporaries add up to 24 bytes to the 255 a file name may have.
const MAX_NAME: usize = 200;

/// Ok when `name` can name a file or folder inside the run folder: not empty, not `.` or
/// `..`, no slash, backslash or control character, at most [`MAX_NAME`] bytes.
fn file_name(name: &str) -> std::result::Result<(), String> {
    if name.is_empty() || name == "." || name == ".." {
        return Err(format!("`{name}` cannot name a file or folder"));
    }
    if name.contains(['/', '\\']) || name.chars().any(char::is_control) {
        return Err(
            "must not hold slashes, backslashes or control characters (it names files)".into()
        );
    }
    if name.len() > MAX_NAME {
        return Err(format!("at most {MAX_NAME} bytes (it names files), got {}", name.len()));
    }
    Ok(())
}

/// Errors at the second entry that takes a name already taken (names may be defaults).
fn unique<'a>(
    names: impl Iterator<Item = (&'a str, Range<usize>)>,
    what: &str,
    at: Located,
) -> Result<()> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, (name, span)) in names.enumerate() {
        if let Some(first) = seen.insert(name, i) {
            return Err(at.error(span, format!("{what}[{i}]: name `{name}` is used twice (also by {what}[{first}]; set `name` to tell them apart)")));
        }
    }
    Ok(())
}
