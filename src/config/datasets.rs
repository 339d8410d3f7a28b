//! `[[datasets]]` entries: the kind's keys, the split sizes, and the multi-class check.

use std::ops::Range;

use toml::{Spanned, Value};

use super::sweep::Swept;
use super::values::positive;
use super::{files, generators, raw};
use crate::data::split::class_shares;
use crate::data::{DataSource, Sizes};
use crate::engine::{Located, memory};
use crate::error::Result;

/// A dataset and the split sizes drawn from it.
#[derive(Debug, Clone)]
pub struct DatasetSpec {
    pub name: String,
    pub source: DataSource,
    pub labeled: Sizes,
    pub unlabeled: Sizes,
    /// Swept keys and the values this entry took (empty without sweeps).
    pub swept: Vec<(String, String)>,
    /// The held-out test set, if any.
    pub test: Option<Test>,
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

impl DatasetSpec {
    /// Number of classes (2 for the generators; more for a multi-class file dataset).
    pub fn n_classes(&self) -> usize {
        self.source.n_classes()
    }

    /// Labeled and unlabeled points per class of a split (official splits: the class shares
    /// of their sizes): generators take equal shares, loaded data its class shares.
    pub fn class_sizes(&self) -> (Vec<usize>, Vec<usize>) {
        match &self.source {
            DataSource::Synthetic(_) | DataSource::SparseText(_) => {
                (self.labeled.two().to_vec(), self.unlabeled.two().to_vec())
            }
            DataSource::Loaded(data) => {
                let d = &data.dataset;
                let shares = class_shares(d);
                let labeled = self.labeled.per_class(&shares, &[]);
                let test = self.test_sizes();
                let rest: Vec<usize> = d
                    .class_counts()
                    .iter()
                    .zip(&labeled)
                    .zip(&test)
                    .map(|((c, l), t)| c.saturating_sub(l + t))
                    .collect();
                let unlabeled = self.unlabeled.per_class(&shares, &rest);
                (labeled, unlabeled)
            }
        }
    }

    /// Test points per class drawn with each split (zeros without a per-split test set).
    pub fn test_sizes(&self) -> Vec<usize> {
        let classes = self.n_classes();
        match (&self.test, &self.source) {
            (Some(Test::PerClass(n)), _) => vec![*n; classes],
            (Some(Test::Fraction(f)), DataSource::Loaded(data)) => data
                .dataset
                .class_counts()
                .iter()
                .map(|c| (f * *c as f64).round() as usize)
                .collect(),
            _ => vec![0; classes],
        }
    }

    /// Points per split (labeled and unlabeled) and features, without drawing a split.
    pub fn shape(&self) -> (usize, usize) {
        let (l, u) = self.class_sizes();
        let dim = match &self.source {
            DataSource::Synthetic(m) => m.dim(),
            DataSource::SparseText(t) => t.dim(),
            DataSource::Loaded(data) => data.dataset.dim(),
        };
        (l.iter().sum::<usize>() + u.iter().sum::<usize>(), dim)
    }
}

/// The kind-specific keys each dataset kind accepts (besides name, kind and split sizes).
fn dataset_keys(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "synthetic" => &["dim", "mean_norm", "means", "variances", "test"],
        "sparse_text" => &["dim", "nnz_per_doc", "topic_weight", "zipf_exponent", "test"],
        "named" => {
            &["dataset", "parts", "classes", "positive", "preprocess", "official_splits", "test"]
        }
        "svmlight" => &["path", "features", "labels", "classes", "positive", "preprocess", "test"],
        _ => return None,
    })
}

/// File datasets already loaded, keyed by their source keys as written: entries that differ
/// only in name and split sizes share one loaded copy (and the runner's per-dataset store).
pub(super) type Loaded = Vec<(String, (DataSource, Option<(Sizes, Sizes)>))>;

/// Checks the `i`-th dataset entry; `binary` is the first method without multi-class
/// support (if any) and the kinds that have it, for the multi-class check.
pub(super) fn dataset(
    d: Spanned<raw::Dataset>,
    swept: Swept,
    i: usize,
    splits: usize,
    (binary, multiclass): (Option<&str>, &[&str]),
    loaded: &mut Loaded,
    at: Located,
) -> Result<DatasetSpec> {
    let span = d.span();
    let d = d.into_inner();
    let key = |k: &str| format!("datasets[{i}].{k}");
    let kind = d.kind.get_ref().as_str();
    let allowed = dataset_keys(kind).ok_or_else(|| {
        at.error(
            d.kind.span(),
            format!(
                "{}: unknown kind `{kind}`{} (known: synthetic, sparse_text, named, svmlight)",
                key("kind"),
                super::suggest::did_you_mean(
                    kind,
                    ["synthetic", "sparse_text", "named", "svmlight"]
                )
            ),
        )
    })?;
    if let Some((name, s)) = d.present().into_iter().find(|(n, _)| !allowed.contains(n)) {
        let hint = super::suggest::did_you_mean(name, allowed.iter().copied());
        return Err(at.error(s, format!("{}: not a key of a `{kind}` dataset{hint}", key(name))));
    }
    let (source, official_sizes) = match kind {
        "synthetic" => {
            (DataSource::Synthetic(generators::synthetic(&d, i, span.clone(), at)?), None)
        }
        "sparse_text" => {
            (DataSource::SparseText(generators::sparse_text(&d, i, span.clone(), at)?), None)
        }
        _ => {
            let source_key: String =
                d.present().iter().map(|(n, s)| format!("{n}={};", &at.src[s.clone()])).collect();
            let source_key = format!("{kind};{source_key}");
            match loaded.iter().find(|(k, _)| *k == source_key) {
                Some((_, found)) => found.clone(),
                None => {
                    let found = files::source(&d, i, span.clone(), splits, at)?;
                    loaded.push((source_key, found.clone()));
                    found
                }
            }
        }
    };
    let n_classes = source.n_classes();
    if let DataSource::Loaded(data) = &source
        && n_classes > 2
        && let Some(m) = binary
    {
        return Err(at.error(span, format!(
            "datasets[{i}]: {n_classes} classes ({}) but method `{m}` is binary: choose two with `classes = [a, b]`, use `positive`, or run only the multi-class methods ({})",
            data.dataset.class_names.join(", "), multiclass.join(", ")
        )));
    }
    let sizes =
        |total: Option<(Value, Range<usize>)>, per: &Option<Spanned<Value>>, name: &str| match (
            total, per,
        ) {
            (Some((Value::String(s), _)), None) if s == "rest" && name == "unlabeled" => {
                match &source {
                    DataSource::Loaded(_) => Ok(Sizes::Rest),
                    _ => Err(at.error(
                        span.clone(),
                        format!(
                            "{}: \"rest\" needs a file dataset (`named` or `svmlight`)",
                            key(name)
                        ),
                    )),
                }
            }
            (Some((Value::Integer(n), s)), None) => {
                Ok(Sizes::Total(positive(&Spanned::new(s, n), &key(name), at)?))
            }
            (Some((_, s)), None) => {
                let rest = if name == "unlabeled" { " or \"rest\"" } else { "" };
                Err(at.error(s, format!("{}: expected an integer ≥ 1{rest}", key(name))))
            }
            (None, Some(p)) => {
                per_class(p, n_classes, &key(&format!("{name}_per_class")), at).map(Sizes::PerClass)
            }
            _ => Err(at.error(
                span.clone(),
                format!("{}: give exactly one of `{name}` and `{name}_per_class`", key(name)),
            )),
        };
    let test = test(&d, kind, official_sizes.is_some(), i, at)?;
    let (labeled, unlabeled) = match official_sizes {
        Some(official) => {
            let given =
                d.labeled.iter().map(|v| v.span()).chain(d.unlabeled.iter().map(|v| v.span()));
            let mut given = given.chain(
                [&d.labeled_per_class, &d.unlabeled_per_class]
                    .into_iter()
                    .flatten()
                    .map(|v| v.span()),
            );
            if let Some(s) = given.next() {
                return Err(at.error(
                    s,
                    format!(
                        "datasets[{i}]: official splits fix the split sizes; remove the size keys"
                    ),
                ));
            }
            official
        }
        None => {
            let labeled = d.labeled.as_ref().map(|v| (Value::Integer(*v.get_ref()), v.span()));
            let unlabeled = d.unlabeled.as_ref().map(|v| (v.get_ref().clone(), v.span()));
            (
                sizes(labeled, &d.labeled_per_class, "labeled")?,
                sizes(unlabeled, &d.unlabeled_per_class, "unlabeled")?,
            )
        }
    };
    let name = d.name.get_ref().clone() + &swept.suffix;
    if name.contains(['/', '\\']) {
        return Err(at.error(d.name.span(), format!("datasets[{i}].name: `{name}` has a slash (it names the split file); label the swept values with `names = [...]`")));
    }
    let spec = DatasetSpec { name, labeled, unlabeled, source, swept: swept.values, test };
    let (l, u) = spec.class_sizes();
    if let DataSource::Loaded(data) = &spec.source {
        match &data.official_splits {
            None => {
                let u_and_test: Vec<usize> =
                    u.iter().zip(spec.test_sizes()).map(|(u, t)| u + t).collect();
                files::check_fit(&data.dataset, &l, &u_and_test, span.clone(), i, at)?
            }
            Some(splits) => files::check_official(&data.dataset, splits, span.clone(), i, at)?,
        }
    }
    let (n, dim) = spec.shape();
    if dim == 0 {
        return Err(
            at.error(span, format!("datasets[{i}]: the data have no features (dimension 0)"))
        );
    }
    let tests = spec.test_sizes();
    if matches!(spec.test, Some(Test::Fraction(_))) && tests.contains(&0) {
        return Err(at.error(span, format!("datasets[{i}].test: the fraction gives no test rows for some class (test rows per class: {})", fmt(&tests))));
    }
    // The rows a split draws (test rows too): dense, or (sparse text) an index and a value
    // per non-zero.
    let n = n as f64 + tests.iter().map(|&t| t as f64).sum::<f64>();
    let need = match &spec.source {
        DataSource::Synthetic(_) => 8.0 * n * dim as f64,
        DataSource::SparseText(t) => 16.0 * n * t.nnz_per_doc() as f64,
        DataSource::Loaded(_) => 0.0,
    };
    let limit = memory::limit()?;
    if need > limit {
        return Err(at.error(span, format!(
            "datasets[{i}]: a split of {n} points × {dim} features needs about {}, above the memory limit of {} (SSLAB_MEMORY_LIMIT)",
            memory::human(need),
            memory::human(limit)
        )));
    }
    let classes = |v: &[usize]| v.iter().filter(|c| **c > 0).count();
    if classes(&l) < 2 || classes(&u) < 2 {
        return Err(at.error(span, format!(
            "datasets[{i}]: a split would have {} labeled and {} unlabeled points per class: both sets need two classes or more",
            fmt(&l), fmt(&u)
        )));
    }
    Ok(spec)
}

/// The entry's `test` table, checked against the dataset kind: generators take
/// `per_class`, named datasets `parts` or `fraction`, svmlight files `path` or `fraction`.
fn test(
    d: &raw::Dataset,
    kind: &str,
    official: bool,
    i: usize,
    at: Located,
) -> Result<Option<Test>> {
    let Some(t) = &d.test else { return Ok(None) };
    let v = t.get_ref();
    let bad = |m: String| at.error(t.span(), format!("datasets[{i}].test: {m}"));
    let allowed = match kind {
        "synthetic" | "sparse_text" => "`per_class`",
        "named" => "`parts` or `fraction`",
        _ => "`path` or `fraction`",
    };
    let given = [v.parts.is_some(), v.path.is_some(), v.fraction.is_some(), v.per_class.is_some()]
        .into_iter()
        .filter(|b| *b)
        .count();
    if given != 1 {
        return Err(bad(format!("give exactly one key: a `{kind}` dataset takes {allowed}")));
    }
    match (kind, v) {
        ("synthetic" | "sparse_text", raw::Test { per_class: Some(n), .. }) => usize::try_from(*n)
            .ok()
            .filter(|n| *n >= 1)
            .map(|n| Some(Test::PerClass(n)))
            .ok_or_else(|| bad(format!("per_class: must be ≥ 1, got {n}"))),
        ("named" | "svmlight", raw::Test { fraction: Some(f), .. }) if official => {
            Err(bad(format!(
                "fraction = {f}: official splits use every row; give a fixed test part instead"
            )))
        }
        ("named" | "svmlight", raw::Test { fraction: Some(f), .. }) => match *f {
            f if f > 0.0 && f < 1.0 => Ok(Some(Test::Fraction(f))),
            f => Err(bad(format!("fraction: must be in (0, 1), got {f}"))),
        },
        ("named", raw::Test { parts: Some(_), .. })
        | ("svmlight", raw::Test { path: Some(_), .. }) => Ok(Some(Test::Fixed)),
        _ => Err(bad(format!("a `{kind}` dataset takes {allowed}"))),
    }
}

fn fmt(v: &[usize]) -> String {
    v.iter().map(usize::to_string).collect::<Vec<_>>().join("/")
}

/// `n` (the same for every class) or one count per class, `[n1, n2, ...]`, each ≥ 1.
fn per_class(v: &Spanned<Value>, classes: usize, key: &str, at: Located) -> Result<Vec<usize>> {
    let bad = || {
        at.error(
            v.span(),
            format!("{key}: expected an integer ≥ 1 or {classes} of them, one per class"),
        )
    };
    let count =
        |x: &Value| x.as_integer().and_then(|n| usize::try_from(n).ok()).filter(|n| *n >= 1);
    match v.get_ref() {
        Value::Array(a) if a.len() == classes => {
            a.iter().map(|x| count(x).ok_or_else(bad)).collect()
        }
        x => count(x).map(|n| vec![n; classes]).ok_or_else(bad),
    }
}
