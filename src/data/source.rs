//! Where a dataset entry's points come from: a generator sampled afresh for every split, or
//! a dataset read from files when first needed, once per process (with its official splits
//! when configured). Checking a config reads no data file.

use std::fmt::Debug;
use std::sync::{Arc, OnceLock};

use rand_chacha::ChaCha8Rng;

use super::Dataset;
use super::preprocess::Preprocessing;
use super::synthetic::GaussianMixture;
use crate::error::{Error, Result};

/// The source of a dataset entry's points.
#[derive(Debug, Clone)]
pub enum DataSource {
    /// A two-class generator (`synthetic`, `sparse_text`, ...), freshly sampled for every
    /// split.
    Generated(Arc<dyn Generator>),
    /// A dataset read from files (`named` or `svmlight`) on first use; splits are drawn from
    /// its rows. Two classes, or more for the multi-class methods.
    Loaded(Arc<FileSource>),
}

/// The reader of a file dataset: run once, on first use.
type Read = Box<dyn Fn() -> Result<LoadedData> + Send + Sync>;

/// A file dataset: its reader, run on the first call of [`FileSource::data`]; the data (or
/// the error) are kept for every later call.
pub struct FileSource {
    /// Whether the splits are the data's official ones (known from the config).
    pub official: bool,
    read: Read,
    data: OnceLock<std::result::Result<LoadedData, Error>>,
    /// What the entry's `preprocess` learned, set by `read`.
    preprocessing: Arc<OnceLock<Preprocessing>>,
}

impl FileSource {
    /// A source whose rows `read` reads (with errors naming the config line).
    pub fn new(
        official: bool,
        read: impl Fn() -> Result<LoadedData> + Send + Sync + 'static,
    ) -> Self {
        FileSource {
            official,
            read: Box::new(read),
            data: OnceLock::new(),
            preprocessing: Arc::default(),
        }
    }

    /// The source whose `read` leaves what its preprocessing learned in `learned`.
    pub fn with_preprocessing(self, learned: Arc<OnceLock<Preprocessing>>) -> Self {
        FileSource { preprocessing: learned, ..self }
    }

    /// What the entry's `preprocess` learned from the rows (None: no `preprocess`); reads
    /// the rows first.
    pub fn preprocessing(&self) -> Result<Option<&Preprocessing>> {
        self.data()?;
        Ok(self.preprocessing.get())
    }

    /// The data, read on the first call.
    pub fn data(&self) -> Result<&LoadedData> {
        self.data.get_or_init(|| (self.read)()).as_ref().map_err(again)
    }
}

impl Debug for FileSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileSource")
            .field("official", &self.official)
            .field("data", &self.data.get())
            .finish()
    }
}

/// A kept error, given again: config errors (where the readers place theirs) as they were,
/// others by their message.
pub(crate) fn again(e: &Error) -> Error {
    match e {
        Error::Config { path, line, message } => {
            Error::Config { path: path.clone(), line: *line, message: message.clone() }
        }
        other => Error::Data(other.to_string()),
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
