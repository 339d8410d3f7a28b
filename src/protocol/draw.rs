//! Drawing split `s` of a dataset entry from the split's own seed: fresh points from a
//! generator, or labeled and unlabeled rows of a loaded dataset (official or stratified).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::derive_seed;
use std::sync::Arc;

use crate::config::{DatasetSpec, Test};
use crate::data::split::{SplitRows, stratified};
use crate::data::{DataSource, Dataset, LoadedData, Problem};
use crate::engine::{Split, Store};
use crate::error::{Error, Result};

/// A drawn split: the problem, for a loaded dataset the split's rows of it (labeled first),
/// and the held-out test rows with their truth (when the dataset has a test set) and, for a
/// loaded dataset, their rows (of the dataset file, or of the fixed test file).
pub struct Drawn {
    pub problem: Problem,
    pub rows: Option<Vec<usize>>,
    pub test: Option<Arc<Dataset>>,
    pub test_rows: Option<Vec<usize>>,
}

impl Drawn {
    /// The fits' view of split `index` of dataset entry `spec` (seed from `seed`).
    pub fn view<'a>(
        &'a self,
        spec: &'a DatasetSpec,
        seed: u64,
        index: usize,
        dataset_store: &'a Store,
        split_store: &'a Store,
    ) -> Split<'a> {
        Split {
            problem: &self.problem,
            source: Some(&spec.source),
            rows: self.rows.as_deref(),
            dataset_store,
            split_store,
            test: self.test.as_deref().map(|t| &t.x),
            seed: derive_seed(seed, &spec.name, index),
            index,
        }
    }
}

/// Split `split` of a dataset. Generated datasets draw fresh labeled and unlabeled points
/// (equal class shares), then fresh test points; loaded datasets take an official split or
/// a stratified random one (test rows drawn with it, or the fixed test part).
pub fn draw(spec: &DatasetSpec, seed: u64, split: usize) -> Result<Drawn> {
    draw_for(spec, seed, split, |_| true)
}

/// [`draw`], the features of a loaded dataset's rows copied into the problem only when
/// `features(rows)` (the split's rows, labeled first) says a method will read them
/// ([`Dataset::problem_without_features`] otherwise). Generated datasets always draw theirs.
pub fn draw_for(
    spec: &DatasetSpec,
    seed: u64,
    split: usize,
    features: impl FnOnce(&[usize]) -> bool,
) -> Result<Drawn> {
    let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(seed, &spec.name, split));
    let per_class = match spec.test {
        Some(Test::PerClass(n)) => Some([n, n]),
        _ => None,
    };
    match &spec.source {
        DataSource::Generated(generator) => {
            let labeled = generator.draw(spec.labeled.two(), &mut rng);
            let unlabeled = generator.draw(spec.unlabeled.two(), &mut rng);
            Ok(Drawn {
                problem: Problem::new(labeled.x, labeled.y, unlabeled.x, unlabeled.y),
                rows: None,
                test: per_class.map(|t| Arc::new(generator.draw(t, &mut rng))),
                test_rows: None,
            })
        }
        DataSource::Loaded(_) => {
            let data = spec.loaded()?.ok_or_else(|| Error::Data("no rows".into()))?;
            let rows = loaded_split(spec, data, split, &mut rng)?;
            let all: Vec<usize> = rows.labeled.iter().chain(&rows.unlabeled).copied().collect();
            let problem = match features(&all) {
                true => data.dataset.problem(&rows.labeled, &rows.unlabeled),
                false => data.dataset.problem_without_features(&rows.labeled, &rows.unlabeled),
            };
            let (test, test_rows) = match (&data.test, rows.test.is_empty()) {
                (Some(fixed), _) => (Some(fixed.clone()), Some((0..fixed.len()).collect())),
                (None, false) => (Some(Arc::new(data.dataset.subset(&rows.test))), Some(rows.test)),
                (None, true) => (None, None),
            };
            Ok(Drawn { problem, rows: Some(all), test, test_rows })
        }
    }
}

/// The problem of split `split` of a dataset (see [`draw`]).
pub fn split_problem(spec: &DatasetSpec, seed: u64, split: usize) -> Result<Problem> {
    draw(spec, seed, split).map(|d| d.problem)
}

/// The rows of split `split` of a file-backed dataset: an official split, or a stratified
/// random one with the configured sizes.
pub(super) fn loaded_split(
    spec: &DatasetSpec,
    data: &LoadedData,
    split: usize,
    rng: &mut ChaCha8Rng,
) -> Result<SplitRows> {
    let d = &data.dataset;
    match &data.official_splits {
        Some(all) => {
            let labeled = all.get(split).ok_or_else(|| {
                Error::Data(format!(
                    "dataset `{}` has only {} official splits",
                    spec.name,
                    all.len()
                ))
            })?;
            Ok(SplitRows::complement(labeled, d.len()))
        }
        None => {
            let (labeled, unlabeled) = spec.class_sizes()?;
            stratified(d, &labeled, &unlabeled, &spec.test_sizes()?, rng)
        }
    }
}
