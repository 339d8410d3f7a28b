//! Data: datasets (dense or sparse features, one row per sample, class ids and ±1 labels),
//! the labeled/unlabeled problem a method sees, the synthetic generators, and the real
//! datasets: registry, fetching, file readers (text, `.mat`, HDF5, IDX), preprocessing and
//! stratified splits.

mod class_mixture;
mod classes;
pub mod columns;
mod csr;
pub mod dense;
mod features;
pub mod fetch;
pub mod h5;
pub mod idx;
pub mod kinds;
pub mod load;
pub mod mat;
pub mod npy;
pub mod npz;
pub mod preprocess;
pub mod registry;
mod sizes;
mod source;
pub mod sparse_text;
pub mod split;
pub mod svmlight;
pub mod svmlin;
pub mod synthetic;
pub mod table;
pub mod text;
mod verify;

pub use class_mixture::ClassMixture;
pub use columns::{Cols, Column, NARROW_COLUMNS};
pub use csr::Csr;
pub use features::Features;
pub use sizes::Sizes;
pub(crate) use source::again;
pub use source::{DataSource, FileSource, Generator, LoadedData, Test};

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};

use crate::error::{Error, Result};

/// A classification dataset: `x` has one row per sample, `classes[i]` is the class id of
/// row i (an index into `class_names`), and `y[i]` is +1 when `classes[i] == 0`, −1
/// otherwise, i.e. the ±1 label of a binary dataset (class 0 is the positive class).
/// For more than two classes `y` is only "class 0 vs rest"; multi-class code uses `classes`.
/// `y[i]` is NaN where the truth is unknown (SVMlin's unlabeled rows; their class id is a
/// placeholder 0): such rows can only be unlabeled, and errors on them are NaN.
#[derive(Debug, Clone)]
pub struct Dataset {
    pub x: Features,
    pub y: Array1<f64>,
    pub classes: Vec<usize>,
    pub class_names: Vec<String>,
}

impl Dataset {
    /// A binary dataset from ±1 labels (classes `+1` = 0 and `-1` = 1); checks shapes and
    /// that every label is exactly ±1.
    pub fn new(x: Features, y: Array1<f64>) -> Result<Self> {
        if x.nrows() != y.len() {
            return Err(Error::Data(format!("{} rows but {} labels", x.nrows(), y.len())));
        }
        if let Some(bad) = y.iter().find(|v| **v != 1.0 && **v != -1.0) {
            return Err(Error::Data(format!("label {bad} is not +1 or -1")));
        }
        Ok(Dataset::from_signs(x, y))
    }

    /// A binary dataset from labels already known to be ±1.
    pub(crate) fn from_signs(x: Features, y: Array1<f64>) -> Self {
        let classes = y.iter().map(|v| usize::from(*v < 0.0)).collect();
        Dataset { x, y, classes, class_names: vec!["+1".into(), "-1".into()] }
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.x.nrows()
    }

    /// True when the dataset has no samples.
    pub fn is_empty(&self) -> bool {
        self.x.nrows() == 0
    }

    /// Number of features.
    pub fn dim(&self) -> usize {
        self.x.ncols()
    }

    /// The rows whose truth is unknown (`y` NaN), in order.
    pub fn unknown_truth(&self) -> Vec<usize> {
        (0..self.len()).filter(|&i| self.y[i].is_nan()).collect()
    }

    /// The dataset of the given rows, in that order.
    pub fn subset(&self, rows: &[usize]) -> Dataset {
        Dataset {
            x: self.x.select_rows(rows),
            y: self.y.select(Axis(0), rows),
            classes: rows.iter().map(|&i| self.classes[i]).collect(),
            class_names: self.class_names.clone(),
        }
    }

    /// Splits rows into a [`Problem`]: `labeled` rows keep their labels, `unlabeled` rows
    /// keep theirs only as the hidden truth used to score the transductive error.
    pub fn problem(&self, labeled: &[usize], unlabeled: &[usize]) -> Problem {
        self.problem_of(labeled, unlabeled, |rows| self.x.select_rows(rows))
    }

    /// [`problem`](Self::problem) without the features, for methods that read none (the
    /// graph methods on the graph of all the dataset's rows): `x_l` and `x_u` are sparse rows
    /// of the dataset's width with no stored entry ([`Csr::zeros`]), not a copy of the rows.
    pub fn problem_without_features(&self, labeled: &[usize], unlabeled: &[usize]) -> Problem {
        let none = |rows: &[usize]| Features::Sparse(Csr::zeros(rows.len(), self.dim()));
        self.problem_of(labeled, unlabeled, none)
    }

    /// The problem of these rows with features `x(rows)`.
    fn problem_of(
        &self,
        labeled: &[usize],
        unlabeled: &[usize],
        x: impl Fn(&[usize]) -> Features,
    ) -> Problem {
        let pick = |rows: &[usize]| rows.iter().map(|&i| self.classes[i]).collect();
        Problem {
            x_l: x(labeled),
            y_l: self.y.select(Axis(0), labeled),
            x_u: x(unlabeled),
            y_u: self.y.select(Axis(0), unlabeled),
            classes_l: pick(labeled),
            classes_u: pick(unlabeled),
            n_classes: self.n_classes(),
        }
    }
}

/// A generator of two-class datasets (Gaussian mixtures, sparse text), seeded by the caller.
pub trait Sampler {
    /// Draws `counts[0]` rows of class +1 followed by `counts[1]` rows of class −1.
    fn sample<R: rand::Rng + ?Sized>(&self, counts: [usize; 2], rng: &mut R) -> Dataset;

    /// A problem of fresh draws: `labeled` and `unlabeled` points per class.
    fn sample_problem<R: rand::Rng + ?Sized>(
        &self,
        labeled: [usize; 2],
        unlabeled: [usize; 2],
        rng: &mut R,
    ) -> Problem {
        let lab = self.sample(labeled, rng);
        let unl = self.sample(unlabeled, rng);
        Problem::new(lab.x, lab.y, unl.x, unl.y)
    }
}

/// One semi-supervised problem: labeled rows with labels, unlabeled rows, and the
/// unlabeled truth (never shown to a method, used only for evaluation and the oracle).
/// Labels are ±1 (class 0 is +1; with more classes, class 0 against the rest) and class ids.
#[derive(Debug, Clone)]
pub struct Problem {
    pub x_l: Features,
    pub y_l: Array1<f64>,
    pub x_u: Features,
    pub y_u: Array1<f64>,
    /// Class ids (< `n_classes`) of the labeled rows.
    pub classes_l: Vec<usize>,
    /// Class ids of the unlabeled rows (hidden truth).
    pub classes_u: Vec<usize>,
    pub n_classes: usize,
}

impl Problem {
    /// A binary problem from ±1 labels (class 0 = +1, class 1 = −1).
    pub fn new(x_l: Features, y_l: Array1<f64>, x_u: Features, y_u: Array1<f64>) -> Self {
        let ids = |y: &Array1<f64>| y.iter().map(|v| usize::from(*v < 0.0)).collect();
        Problem { classes_l: ids(&y_l), classes_u: ids(&y_u), x_l, y_l, x_u, y_u, n_classes: 2 }
    }

    /// A binary problem from dense labeled and unlabeled rows.
    pub fn dense(x_l: Array2<f64>, y_l: Array1<f64>, x_u: Array2<f64>, y_u: Array1<f64>) -> Self {
        Problem::new(x_l.into(), y_l, x_u.into(), y_u)
    }

    /// Number of labeled samples.
    pub fn n_labeled(&self) -> usize {
        self.x_l.nrows()
    }

    /// Number of unlabeled samples.
    pub fn n_unlabeled(&self) -> usize {
        self.x_u.nrows()
    }

    /// Number of features.
    pub fn dim(&self) -> usize {
        self.x_l.ncols()
    }
}

/// Fraction of `scores` whose sign disagrees with `truth` (a score of 0 predicts +1).
pub fn error_rate(scores: ArrayView1<f64>, truth: ArrayView1<f64>) -> f64 {
    let wrong = scores
        .iter()
        .zip(truth)
        .filter(|(s, t)| (if **s >= 0.0 { 1.0 } else { -1.0 }) != **t)
        .count();
    wrong as f64 / truth.len().max(1) as f64
}

/// Per-class row counts `(positives, negatives)` of a label vector.
pub fn class_counts(y: ArrayView1<f64>) -> (usize, usize) {
    let pos = y.iter().filter(|v| **v > 0.0).count();
    (pos, y.len() - pos)
}

/// Column means of the rows of `blocks` stacked (the global mean used for centring), without
/// copying them together: rows added in order from 0, then divided by their count, as
/// ndarray's `mean_axis(Axis(0))` of the stacked rows computes them; zeros without rows.
pub fn column_means(blocks: &[ArrayView2<f64>]) -> Array1<f64> {
    let d = blocks.first().map_or(0, |b| b.ncols());
    let mut sum = Array1::<f64>::zeros(d);
    let mut rows = 0;
    for row in blocks.iter().flat_map(|b| b.rows()) {
        ndarray::Zip::from(&mut sum).and(&row).for_each(|s, &x| *s += x);
        rows += 1;
    }
    if rows > 0 { sum / rows as f64 } else { sum }
}
