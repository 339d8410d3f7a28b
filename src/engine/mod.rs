//! The interface every method family implements, in linfa's style: a [`Family`] reads the
//! TOML table of one of its `kind`s into a checked [`Method`]; `fit` on a [`Split`] gives a
//! [`Fitted`] with the scores of the unlabeled rows and the parameters used, by name. The
//! runner, the config and the experiment commands of the CLI see only these traits; the
//! built-in families are listed in `methods::FAMILIES`. The QLDS theory commands (`theory`,
//! `theory-check`, `theory-fit`, `phase-diagram`, `proportions`, the `--theory` overlay of
//! `plot-scores`) are that family's own tools and call `methods::qlds::theory` directly.

mod fitted;
pub mod model;
pub mod one_vs_rest;
mod scores;
mod store;

pub use fitted::{Fitted, Reported};
pub use model::{
    KernelExpansion, KnnWeights, Linear, Model, Neighbours, OneVsRest, PointRule, Rows,
};
pub use one_vs_rest::fit;
pub use scores::{Scores, argmax_rows};
pub use store::Store;
// A family reads its config table through these: they are part of its interface.
pub use crate::support::{Entry, Lines, Located, Shared, newlines};

use std::any::Any;
use std::fmt::Debug;

use crate::data::{DataSource, Features, Problem};
use crate::error::Result;

/// A method family: the config `kind`s it owns and how it checks their tables.
pub trait Family: Sync {
    /// The config kinds this family reads (`kind = "..."` of a `[[methods]]` entry).
    fn kinds(&self) -> &'static [&'static str];

    /// The kinds whose methods handle more than two classes themselves (none by default);
    /// the others fit a split of more classes one-vs-rest ([`one_vs_rest`]).
    fn multiclass_kinds(&self) -> &'static [&'static str] {
        &[]
    }

    /// Reads one `[[methods]]` table of one of [`kinds`](Self::kinds): keys, defaults and
    /// range checks, every error naming the file, line and key.
    fn check(&self, entry: &Entry) -> Result<Checked>;
}

/// A checked method and the name it takes when the entry gives none (e.g. `QLDS(th)`).
#[derive(Debug)]
pub struct Checked {
    pub name: String,
    pub method: Box<dyn Method>,
}

impl Checked {
    /// A checked method with its default name.
    pub fn new(name: impl Into<String>, method: impl Method + 'static) -> Self {
        Checked { name: name.into(), method: Box::new(method) }
    }
}

/// A method with checked parameters, ready to fit any split. Every method is `Any`, so
/// `as_any` reaches its concrete type without writing anything.
pub trait Method: Any + Debug + Send + Sync {
    /// Parameters for the result row's `params` column, as `key=value` pairs (may be empty).
    fn params(&self) -> String {
        String::new()
    }

    /// Fits on the split, scores its unlabeled rows and reports the parameters it used or
    /// chose by name ([`Fitted::with`]; each becomes a result column of that name).
    fn fit(&self, split: &Split) -> Result<Fitted>;

    /// Fits a split of more than two classes when a binary method has a way of its own
    /// (e.g. a selection by the multi-class error); None (the default): one binary fit per
    /// class, [`one_vs_rest`].
    fn fit_multiclass(&self, split: &Split) -> Option<Result<Fitted>> {
        let _ = split;
        None
    }

    /// A rough relative cost of one fit on `n` points of `dim` features (flops, up to a
    /// constant), used to balance the shards of a run.
    fn cost(&self, n: usize, dim: usize) -> f64 {
        (n * dim) as f64
    }

    /// [`cost`](Self::cost) when it depends on the `labeled` count too (selection methods
    /// fit every fold and grid point); the estimates of a run and of its shards use this.
    fn fit_cost(&self, labeled: usize, n: usize, dim: usize) -> f64 {
        let _ = labeled;
        self.cost(n, dim)
    }

    /// The memory (bytes) one fit needs on `n` points of `dim` features, roughly; a fit
    /// above [`memory::limit`] becomes a `failed` row instead of running. Default: two
    /// dense n×d copies.
    fn memory(&self, n: usize, dim: usize) -> f64 {
        16.0 * n as f64 * dim as f64
    }

    /// Whether a fit on the rows `rows` (labeled first) of `source` reads their features
    /// (`problem.x_l`, `x_u`); true by default. When no method of a split reads them, the
    /// runner does not copy them ([`Dataset::problem_without_features`](crate::data::Dataset::problem_without_features)).
    fn reads_features(&self, source: &DataSource, rows: &[usize]) -> bool {
        let _ = (source, rows);
        true
    }

    /// Computes into `split.dataset_store` what every split of the dataset shares (e.g. the
    /// graph of all its rows). The runner calls it once per dataset before the fits start,
    /// so that it runs on all of the run's threads rather than on one while the others wait.
    /// Nothing by default; an error here is left for the fits to report.
    fn prepare(&self, split: &Split) -> Result<()> {
        let _ = split;
        Ok(())
    }

    /// Why this method's fits leave no model although it could score new rows otherwise
    /// (a graph given as a file: no features to place a new row); None by default. A run
    /// with `save_models = true` refuses such a method.
    fn no_model(&self) -> Option<String> {
        None
    }

    /// Theoretical score distributions N(m, σ²) of the two classes at the fitted
    /// parameters, for methods that have a theory (used by `sslab plot-scores --theory`).
    fn theory(&self, split: &Split, fitted: &Fitted) -> Result<Option<[(f64, f64); 2]>> {
        let _ = (split, fitted);
        Ok(None)
    }
}

impl dyn Method {
    /// The concrete type, for tests and family-specific tools
    /// (`method.as_any().downcast_ref::<Qlds>()`).
    pub fn as_any(&self) -> &dyn Any {
        self
    }
}

/// One split as a method sees it, with the caches it may share with other methods.
pub struct Split<'a> {
    /// Labeled rows with labels and class ids, unlabeled rows (their truth hidden from fits).
    pub problem: &'a Problem,
    /// Where the rows came from: a config's dataset entry, or None for rows given directly
    /// as arrays (the Python estimators).
    pub source: Option<&'a DataSource>,
    /// For data read from files: the split's rows of the loaded dataset, labeled first (for
    /// arrays: the caller's row of each, when a method needs it).
    pub rows: Option<&'a [usize]>,
    /// Shared by every split of every dataset entry reading the same rows.
    pub dataset_store: &'a Store,
    /// Shared by the methods of this split only.
    pub split_store: &'a Store,
    /// Held-out test rows (features only) that a method able to score new rows scores
    /// into [`Fitted::test`].
    pub test: Option<&'a Features>,
    /// The split's seed (`derive_seed` of the experiment's or the tuning's seed), for a
    /// method's own random draws.
    pub seed: u64,
    /// The split's index (its place among the splits drawn from that seed).
    pub index: usize,
}
