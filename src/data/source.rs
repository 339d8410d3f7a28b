//! Where a dataset entry's points come from: a generator sampled afresh for every split, or
//! a dataset read from files once per run (with its official splits when configured).

use std::sync::Arc;

use super::Dataset;
use super::sparse_text::SparseText;
use super::synthetic::GaussianMixture;

/// The source of a dataset entry's points.
#[derive(Debug, Clone)]
pub enum DataSource {
    /// A Gaussian mixture, freshly sampled for every split.
    Synthetic(GaussianMixture),
    /// Two-topic sparse text, freshly sampled for every split.
    SparseText(SparseText),
    /// A dataset read from files (`named` or `svmlight`), loaded once per run; splits are
    /// drawn from its rows. Two classes, or more for the multi-class methods.
    Loaded(Arc<LoadedData>),
}

impl DataSource {
    /// Number of classes (2 for the generators).
    pub fn n_classes(&self) -> usize {
        match self {
            DataSource::Loaded(data) => data.dataset.n_classes(),
            _ => 2,
        }
    }
}

/// A loaded dataset, preprocessed and binarised as configured, and its official splits
/// (labelled rows of each split; the rest is unlabeled) when the config uses them.
#[derive(Debug)]
pub struct LoadedData {
    pub dataset: Dataset,
    pub official_splits: Option<Vec<Vec<usize>>>,
    /// A fixed held-out test set (`test = { parts }` or `{ path }`), prepared like `dataset`.
    pub test: Option<Arc<Dataset>>,
}
