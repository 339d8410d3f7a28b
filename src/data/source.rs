//! Where a dataset entry's points come from: a generator sampled afresh for every split, or
//! a dataset read from files once per run (with its official splits when configured).

use std::fmt::Debug;
use std::sync::Arc;

use rand_chacha::ChaCha8Rng;

use super::Dataset;
use super::synthetic::GaussianMixture;

/// The source of a dataset entry's points.
#[derive(Debug, Clone)]
pub enum DataSource {
    /// A two-class generator (`synthetic`, `sparse_text`, ...), freshly sampled for every
    /// split.
    Generated(Arc<dyn Generator>),
    /// A dataset read from files (`named` or `svmlight`), loaded once per run; splits are
    /// drawn from its rows. Two classes, or more for the multi-class methods.
    Loaded(Arc<LoadedData>),
}

impl DataSource {
    /// Number of classes (2 for the generators).
    pub fn n_classes(&self) -> usize {
        match self {
            DataSource::Loaded(data) => data.dataset.n_classes(),
            DataSource::Generated(_) => 2,
        }
    }
}

/// A two-class generator: every split draws its labeled, unlabeled and test points from it,
/// in that order, with the split's own seeded random stream.
pub trait Generator: Debug + Send + Sync {
    /// Draws `counts[0]` rows of class +1 followed by `counts[1]` rows of class −1.
    fn draw(&self, counts: [usize; 2], rng: &mut ChaCha8Rng) -> Dataset;

    /// Number of features of a drawn row.
    fn dim(&self) -> usize;

    /// Bytes a drawn row takes (for the memory check before a run).
    fn row_bytes(&self) -> f64;

    /// The Gaussian mixture, when the generator is one (the QLDS theory's score overlay).
    fn mixture(&self) -> Option<&GaussianMixture> {
        None
    }
}

/// Where a dataset's held-out test rows come from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Test {
    /// Fixed rows loaded with the data (`LoadedData::test`).
    Fixed,
    /// This share of each class (rounded), drawn per split with the labeled and unlabeled rows.
    Fraction(f64),
    /// Fresh points per class from the generator, drawn per split after the others.
    PerClass(usize),
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
