//! Drawing split `s` of a dataset entry from the split's own seed: fresh points from a
//! generator, or labeled and unlabeled rows of a loaded dataset (official or stratified).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::derive_seed;
use crate::config::DatasetSpec;
use crate::data::split::{Split, stratified};
use crate::data::{DataSource, LoadedData, Problem, Sampler};
use crate::error::{Error, Result};

/// The problem of split `split` of a dataset and, for a loaded dataset, the split's rows of
/// it, labeled first. Synthetic datasets draw fresh labeled and unlabeled points (equal
/// class shares); loaded datasets take an official split or a stratified random one.
pub fn draw(spec: &DatasetSpec, seed: u64, split: usize) -> Result<(Problem, Option<Vec<usize>>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(seed, &spec.name, split));
    match &spec.source {
        DataSource::Synthetic(mixture) => Ok((mixture.sample_problem(spec.labeled.two(), spec.unlabeled.two(), &mut rng), None)),
        DataSource::SparseText(text) => Ok((text.sample_problem(spec.labeled.two(), spec.unlabeled.two(), &mut rng), None)),
        DataSource::Loaded(data) => {
            let rows = loaded_split(spec, data, split, &mut rng)?;
            let problem = data.dataset.problem(&rows.labeled, &rows.unlabeled);
            Ok((problem, Some(rows.labeled.into_iter().chain(rows.unlabeled).collect())))
        }
    }
}

/// The problem of split `split` of a dataset (see [`draw`]).
pub fn split_problem(spec: &DatasetSpec, seed: u64, split: usize) -> Result<Problem> {
    draw(spec, seed, split).map(|(p, _)| p)
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
            let (labeled, unlabeled) = spec.class_sizes();
            stratified(d, &labeled, &unlabeled, rng)
        }
    }
}
