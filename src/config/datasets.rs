//! `[[datasets]]` entries: the config reads `name`, `kind` and the split sizes, the dataset
//! kind (`data::kinds`) reads the rest; then the sizes are checked against the source.

use std::ops::Range;

use toml::{Spanned, Value};

use super::raw::Table;
use super::sweep::Swept;
use crate::data::kinds::{DatasetKind, Source};
use crate::data::split::class_shares;
use crate::data::{DataSource, Dataset, Sizes};
use crate::engine::{Entry, Located, memory};
use crate::error::Result;

pub use crate::data::Test;

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

impl DatasetSpec {
    /// Number of classes (2 for the generators; more for a multi-class file dataset).
    pub fn n_classes(&self) -> usize {
        self.source.n_classes()
    }

    /// Labeled and unlabeled points per class of a split (official splits: the class shares
    /// of their sizes): generators take equal shares, loaded data its class shares.
    pub fn class_sizes(&self) -> (Vec<usize>, Vec<usize>) {
        match &self.source {
            DataSource::Generated(_) => {
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
            DataSource::Generated(g) => g.dim(),
            DataSource::Loaded(data) => data.dataset.dim(),
        };
        (l.iter().sum::<usize>() + u.iter().sum::<usize>(), dim)
    }
}

/// The split-size keys, read here for every kind.
const SIZE_KEYS: [&str; 4] = ["labeled", "unlabeled", "labeled_per_class", "unlabeled_per_class"];

/// Sources already read, keyed by their kind and keys as written: entries that differ only
/// in name and split sizes share one loaded copy (and the runner's per-dataset store).
pub(super) type Read = Vec<(String, Source)>;

/// Checks the `i`-th dataset entry with the kind of `kinds` it names; `binary` is the first
/// method without multi-class support (if any) and `multiclass` the kinds that have it.
pub(super) fn dataset(
    table: Spanned<Table>,
    swept: Swept,
    (i, splits): (usize, usize),
    (binary, multiclass): (Option<&str>, &[&str]),
    (kinds, read): (&[&dyn DatasetKind], &mut Read),
    at: Located,
) -> Result<DatasetSpec> {
    let (span, kind, name, values) = table_parts(table, at)?;
    let name = name.ok_or_else(|| at.error(span.clone(), "missing field `name`".into()))?;
    let (sizes, values): (Vec<_>, Vec<_>) =
        values.into_iter().partition(|(k, _)| SIZE_KEYS.contains(&k.as_str()));
    let entry = Entry::new(at, "datasets", i, span.clone(), kind.clone(), values);
    let sizes = Entry::new(at, "datasets", i, span.clone(), kind.clone(), sizes);
    let found = kinds.iter().find(|k| k.kind() == entry.kind()).ok_or_else(|| {
        let known: Vec<&str> = kinds.iter().map(|k| k.kind()).collect();
        entry
            .error("kind", format!("unknown kind `{}` (known: {})", entry.kind(), known.join(", ")))
    })?;
    let written = entry.written(&[]);
    let Source { data: source, test } = match read.iter().find(|(k, _)| *k == written) {
        Some((_, s)) => s.clone(),
        None => {
            let s = found.read(&entry, splits)?;
            read.push((written, s.clone()));
            s
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
    let (labeled, unlabeled) = match &source {
        DataSource::Loaded(data) if data.official_splits.is_some() => {
            if let Some(k) = sizes.first_of(&SIZE_KEYS) {
                return Err(sizes.error_at(
                    k,
                    format!(
                        "datasets[{i}]: official splits fix the split sizes; remove the size keys"
                    ),
                ));
            }
            let k = data.official_splits.as_ref().and_then(|s| s.first()).map_or(0, Vec::len);
            (Sizes::Total(k), Sizes::Total(data.dataset.len() - k))
        }
        _ => {
            let file = matches!(source, DataSource::Loaded(_));
            (size(&sizes, "labeled", n_classes, file)?, size(&sizes, "unlabeled", n_classes, file)?)
        }
    };
    let (name_span, name) = (name.span(), name.get_ref().clone() + &swept.suffix);
    if name.contains(['/', '\\']) {
        return Err(at.error(name_span, format!("datasets[{i}].name: `{name}` has a slash (it names the split file); label the swept values with `names = [...]`")));
    }
    let spec = DatasetSpec { name, labeled, unlabeled, source, swept: swept.values, test };
    let (l, u) = spec.class_sizes();
    if let DataSource::Loaded(data) = &spec.source {
        match &data.official_splits {
            None => {
                let u_and_test: Vec<usize> =
                    u.iter().zip(spec.test_sizes()).map(|(u, t)| u + t).collect();
                check_fit(&data.dataset, &l, &u_and_test, &entry)?
            }
            Some(splits) => check_official(&data.dataset, splits, &entry)?,
        }
    }
    let (n, dim) = spec.shape();
    // The rows a split draws (a file dataset's rows are already in memory).
    let need = match &spec.source {
        DataSource::Generated(g) => n as f64 * g.row_bytes(),
        DataSource::Loaded(_) => 0.0,
    };
    let limit = memory::limit();
    if need > limit {
        return Err(at.error(span, format!(
            "datasets[{i}]: a split of {n} points × {dim} features needs about {:.1} GiB, above the memory limit of {:.1} GiB (SSLAB_MEMORY_LIMIT)",
            need / memory::GIB,
            limit / memory::GIB
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

/// A table's span, `kind` (required), `name` (optional) and its other keys.
pub(super) type TableParts =
    (Range<usize>, Spanned<String>, Option<Spanned<String>>, Vec<(String, Spanned<Value>)>);

/// Splits a `[[methods]]` or `[[datasets]]` table into its span, `kind`, `name` and the rest.
pub(super) fn table_parts(table: Spanned<Table>, at: Located) -> Result<TableParts> {
    let span = table.span();
    let mut values = table.into_inner();
    let string = |v: Spanned<Value>| match v.get_ref() {
        Value::String(s) => Ok(Spanned::new(v.span(), s.clone())),
        other => Err(at.error(
            v.span(),
            format!("invalid type: {} `{other}`, expected a string", other.type_str()),
        )),
    };
    let kind = match values.remove("kind") {
        Some(v) => string(v)?,
        None => return Err(at.error(span, "missing field `kind`".into())),
    };
    let name = values.remove("name").map(string).transpose()?;
    Ok((span, kind, name, values.into_iter().collect()))
}

/// `labeled` or `unlabeled` (a count; `"rest"` for the unlabeled rows of a file dataset), or
/// its `_per_class` list, from the entry holding the size keys.
fn size(sizes: &Entry, name: &str, n_classes: usize, file: bool) -> Result<Sizes> {
    let per = format!("{name}_per_class");
    match (sizes.value(name), sizes.value(&per)) {
        (Some(Value::String(s)), None) if s == "rest" && name == "unlabeled" => match file {
            true => Ok(Sizes::Rest),
            false => {
                Err(sizes.error(name, "\"rest\" needs a file dataset (`named` or `svmlight`)"))
            }
        },
        (Some(Value::Integer(n)), None) => match usize::try_from(*n) {
            Ok(n) if n >= 1 => Ok(Sizes::Total(n)),
            _ => Err(sizes.error(name, format!("must be ≥ 1, got {n}"))),
        },
        (Some(_), None) => {
            let rest = if name == "unlabeled" { " or \"rest\"" } else { "" };
            Err(sizes.error(name, format!("expected an integer ≥ 1{rest}")))
        }
        (None, Some(p)) => per_class(p, n_classes)
            .ok_or_else(|| {
                sizes.error(
                    &per,
                    format!("expected an integer ≥ 1 or {n_classes} of them, one per class"),
                )
            })
            .map(Sizes::PerClass),
        _ => Err(sizes.entry_error(format!(
            "{}: give exactly one of `{name}` and `{name}_per_class`",
            sizes.key(name)
        ))),
    }
}

/// Errors unless the per-class split sizes `l` and `u` fit in every class.
fn check_fit(data: &Dataset, l: &[usize], u: &[usize], entry: &Entry) -> Result<()> {
    let counts = data.class_counts();
    for k in 0..counts.len() {
        if l[k] + u[k] > counts[k] {
            return Err(entry.entry_error(format!(
                "{}: the split asks for {} labeled + {} unlabeled points of class `{}`, which has only {}",
                entry.name(), l[k], u[k], data.class_names[k], counts[k]
            )));
        }
    }
    Ok(())
}

/// Errors unless the labeled rows of every official split hold two classes or more.
fn check_official(data: &Dataset, splits: &[Vec<usize>], entry: &Entry) -> Result<()> {
    for (s, rows) in splits.iter().enumerate() {
        let mut classes: Vec<usize> =
            rows.iter().filter_map(|&r| data.classes.get(r).copied()).collect();
        classes.sort_unstable();
        classes.dedup();
        if classes.len() < 2 {
            return Err(entry.entry_error(format!(
                "{}: official split {s} labels points of one class only",
                entry.name()
            )));
        }
    }
    Ok(())
}

fn fmt(v: &[usize]) -> String {
    v.iter().map(usize::to_string).collect::<Vec<_>>().join("/")
}

/// `n` (the same for every class) or one count per class, `[n1, n2, ...]`, each ≥ 1.
fn per_class(v: &Value, classes: usize) -> Option<Vec<usize>> {
    let count =
        |x: &Value| x.as_integer().and_then(|n| usize::try_from(n).ok()).filter(|n| *n >= 1);
    match v {
        Value::Array(a) if a.len() == classes => a.iter().map(count).collect(),
        x => count(x).map(|n| vec![n; classes]),
    }
}
