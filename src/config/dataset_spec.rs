//! A checked dataset entry: its source, split sizes and test set. A file dataset's rows are
//! read on first use ([`DatasetSpec::loaded`]), and the sizes checked against them then,
//! with errors that name the config line as validation's do.

use std::sync::{Arc, OnceLock};

use crate::data::split::class_shares;
use crate::data::{DataSource, Dataset, LoadedData, Sizes, Test, again};
use crate::engine::Lines;
use crate::error::{Error, Result};

/// A dataset and the split sizes drawn from it.
#[derive(Debug, Clone)]
pub struct DatasetSpec {
    pub name: String,
    pub source: DataSource,
    /// Labeled points per split ([`Sizes::Official`] with official splits).
    pub labeled: Sizes,
    pub unlabeled: Sizes,
    /// Swept keys and the values this entry took (empty without sweeps).
    pub swept: Vec<(String, String)>,
    /// The held-out test set, if any.
    pub test: Option<Test>,
    checks: Arc<Checks>,
}

/// The checks of a file dataset's sizes against its rows, run once when they are read.
#[derive(Debug)]
pub(super) struct Checks {
    at: Lines,
    done: OnceLock<std::result::Result<(), Error>>,
}

impl Checks {
    /// Checks whose errors `at` places.
    pub(super) fn new(at: Lines) -> Self {
        Checks { at, done: OnceLock::new() }
    }
}

impl DatasetSpec {
    /// A spec whose sizes are checked against its rows by `checks` when they are read.
    pub(super) fn new(
        name: String,
        source: DataSource,
        labeled: Sizes,
        unlabeled: Sizes,
        swept: Vec<(String, String)>,
        test: Option<Test>,
        checks: Checks,
    ) -> Self {
        DatasetSpec { name, source, labeled, unlabeled, swept, test, checks: Arc::new(checks) }
    }

    /// A file dataset's rows (None for a generator), read on the first call and checked
    /// against the split sizes; the data and any error are kept for later calls.
    pub fn loaded(&self) -> Result<Option<&LoadedData>> {
        let DataSource::Loaded(file) = &self.source else { return Ok(None) };
        let data = file.data()?;
        self.checks.done.get_or_init(|| self.check(data)).as_ref().map_err(again)?;
        Ok(Some(data))
    }

    /// Number of classes (2 for the generators; more for a multi-class file dataset).
    pub fn n_classes(&self) -> Result<usize> {
        Ok(self.loaded()?.map_or(2, |d| d.dataset.n_classes()))
    }

    /// Labeled and unlabeled points per class of a split: generators take equal shares,
    /// loaded data its class shares (official splits: the class shares of their sizes).
    pub fn class_sizes(&self) -> Result<(Vec<usize>, Vec<usize>)> {
        Ok(self.sizes(self.loaded()?))
    }

    /// Test points per class drawn with each split (zeros without a per-split test set).
    pub fn test_sizes(&self) -> Result<Vec<usize>> {
        Ok(self.test_sizes_of(self.loaded()?))
    }

    /// Labeled points per split.
    pub fn n_labeled(&self) -> Result<usize> {
        Ok(self.class_sizes()?.0.iter().sum())
    }

    /// Points per split (labeled and unlabeled) and features, without drawing a split.
    pub fn shape(&self) -> Result<(usize, usize)> {
        let data = self.loaded()?;
        let (l, u) = self.sizes(data);
        let dim = match (&self.source, data) {
            (DataSource::Generated(g), _) => g.dim(),
            (_, Some(data)) => data.dataset.dim(),
            (_, None) => 0,
        };
        Ok((l.iter().sum::<usize>() + u.iter().sum::<usize>(), dim))
    }

    fn sizes(&self, data: Option<&LoadedData>) -> (Vec<usize>, Vec<usize>) {
        let Some(data) = data else {
            return (self.labeled.two().to_vec(), self.unlabeled.two().to_vec());
        };
        let d = &data.dataset;
        let shares = class_shares(d);
        if let Some(splits) = &data.official_splits {
            // Spread by the class shares: unlabeled rows of a file's own split have no class.
            let k = splits.first().map_or(0, Vec::len);
            let labeled = Sizes::Total(k).per_class(&shares, &[]);
            return (labeled, Sizes::Total(d.len() - k).per_class(&shares, &[]));
        }
        split_of(d, &self.labeled, &self.unlabeled, &self.test_sizes_of(Some(data)))
    }

    fn test_sizes_of(&self, data: Option<&LoadedData>) -> Vec<usize> {
        let classes = data.map_or(2, |d| d.dataset.n_classes());
        match (&self.test, data) {
            (Some(Test::PerClass(n)), _) => vec![*n; classes],
            (Some(Test::Fraction(f)), Some(data)) => data
                .dataset
                .class_counts()
                .iter()
                .map(|c| (f * *c as f64).round() as usize)
                .collect(),
            _ => vec![0; classes],
        }
    }

    /// The checks of the sizes against the rows of a file dataset.
    fn check(&self, data: &LoadedData) -> Result<()> {
        let (at, d) = (&self.checks.at, &data.dataset);
        let n_classes = d.n_classes();
        if d.dim() == 0 {
            return Err(
                at.entry_error(format!("{}: the data have no features (dimension 0)", at.name()))
            );
        }
        for (sizes, key) in [(&self.labeled, "labeled"), (&self.unlabeled, "unlabeled")] {
            if let Sizes::PerClass(v) = sizes
                && v.len() != n_classes
            {
                return Err(at.error(
                    &format!("{key}_per_class"),
                    format!("expected an integer ≥ 1 or {n_classes} of them, one per class"),
                ));
            }
        }
        let (l, u) = self.sizes(Some(data));
        match &data.official_splits {
            None => {
                let test = self.test_sizes_of(Some(data));
                if matches!(self.test, Some(Test::Fraction(_))) && test.contains(&0) {
                    let per_class = test.iter().map(usize::to_string).collect::<Vec<_>>();
                    return Err(at.error(
                        "test",
                        format!(
                            "the fraction gives no test rows for some class (test rows per class: {})",
                            per_class.join("/")
                        ),
                    ));
                }
                self.check_fit(d, &l, &u, &test)?
            }
            Some(splits) => check_official(d, splits, at)?,
        }
        two_classes(&l, &u, at.name()).map_err(|m| at.entry_error(m))
    }
}

impl DatasetSpec {
    /// Errors unless `l` labeled, `u` unlabeled and `t` test rows per class fit in every class
    /// of `d`: at the line of the size key to lower (labeled when the labeled and test rows
    /// alone overflow, or the unlabeled are the rest), naming the entry and that key's largest
    /// value that fits.
    fn check_fit(&self, d: &Dataset, l: &[usize], u: &[usize], t: &[usize]) -> Result<()> {
        let counts = d.class_counts();
        let Some(k) = (0..counts.len()).find(|&k| l[k] + u[k] + t[k] > counts[k]) else {
            return Ok(());
        };
        let lower_labeled = l[k] + t[k] > counts[k] || matches!(self.unlabeled, Sizes::Rest);
        let (sizes, key) =
            if lower_labeled { (&self.labeled, "labeled") } else { (&self.unlabeled, "unlabeled") };
        // The largest value of the key that fits, the other sizes as they are.
        let fits = |s: &Sizes| {
            let (l, u) = match lower_labeled {
                true => split_of(d, s, &self.unlabeled, t),
                false => split_of(d, &self.labeled, s, t),
            };
            (0..counts.len()).all(|k| l[k] + u[k] + t[k] <= counts[k])
        };
        let room =
            |k: usize| counts[k].saturating_sub(t[k] + if lower_labeled { u[k] } else { l[k] });
        let (key, max) = match sizes {
            Sizes::Total(n) => {
                let top = (*n).min(d.len());
                let max = (0..top).rev().find(|m| fits(&Sizes::Total(*m))).unwrap_or(0);
                (key.to_string(), format!("{max}"))
            }
            Sizes::Each(_) => {
                let max = (0..counts.len()).map(room).min().unwrap_or(0);
                (format!("{key}_per_class"), format!("{max}"))
            }
            _ => (
                format!("{key}_per_class"),
                format!("{} for class `{}`", room(k), d.class_names[k]),
            ),
        };
        let test = if t[k] > 0 { format!(" + {} test", t[k]) } else { String::new() };
        Err(self.checks.at.error(
            &key,
            format!(
                "`{}` asks for {} labeled + {} unlabeled{test} rows of class `{}`, which has only {}: {key} can be at most {max} here",
                self.name, l[k], u[k], d.class_names[k], counts[k]
            ),
        ))
    }
}

/// A message unless the labeled and the unlabeled points per class `l`, `u` both hold
/// two classes or more.
pub(super) fn two_classes(l: &[usize], u: &[usize], name: &str) -> std::result::Result<(), String> {
    let classes = |v: &[usize]| v.iter().filter(|c| **c > 0).count();
    let fmt = |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join("/");
    if classes(l) < 2 || classes(u) < 2 {
        return Err(format!(
            "{name}: a split would have {} labeled and {} unlabeled points per class: both sets need two classes or more",
            fmt(l),
            fmt(u)
        ));
    }
    Ok(())
}

/// Labeled and unlabeled points per class of a split of `d` drawn beside `test` test rows.
fn split_of(d: &Dataset, labeled: &Sizes, unlabeled: &Sizes, test: &[usize]) -> Split {
    let shares = class_shares(d);
    let labeled = labeled.per_class(&shares, &[]);
    let rest: Vec<usize> = d
        .class_counts()
        .iter()
        .zip(&labeled)
        .zip(test)
        .map(|((c, l), t)| c.saturating_sub(l + t))
        .collect();
    let unlabeled = unlabeled.per_class(&shares, &rest);
    (labeled, unlabeled)
}

/// Points per class: labeled, unlabeled.
type Split = (Vec<usize>, Vec<usize>);

/// Errors unless the labeled rows of every official split hold two classes or more.
fn check_official(data: &Dataset, splits: &[Vec<usize>], at: &Lines) -> Result<()> {
    for (s, rows) in splits.iter().enumerate() {
        let mut classes: Vec<usize> =
            rows.iter().filter_map(|&r| data.classes.get(r).copied()).collect();
        classes.sort_unstable();
        classes.dedup();
        if classes.len() < 2 {
            return Err(at.entry_error(format!(
                "{}: official split {s} labels points of one class only",
                at.name()
            )));
        }
    }
    Ok(())
}
