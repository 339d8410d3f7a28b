//! `[[datasets]]` entries: the config reads `name`, `kind` and the split sizes, the dataset
//! kind (`data::kinds`) reads the rest. Generated sources are checked here in full; a file
//! dataset's sizes are checked against its rows when they are read ([`DatasetSpec`]).

use std::collections::HashMap;
use std::ops::Range;

use toml::{Spanned, Value};

use super::dataset_spec::{Checks, DatasetSpec, two_classes};
use super::raw::{Table, table_parts};
use super::sweep::Swept;
use crate::data::kinds::{DatasetKind, Source};
use crate::data::{DataSource, Sizes};
use crate::engine::{Entry, Located};
use crate::error::Result;
use crate::support::memory;

/// The split-size keys, read here for every kind.
const SIZE_KEYS: [&str; 4] = ["labeled", "unlabeled", "labeled_per_class", "unlabeled_per_class"];

/// Sources already read, keyed by their kind and keys as written: entries that differ only
/// in name and split sizes share one source (one read of its files, and the runner's
/// per-dataset store). A value's text is hashed once per place it is written, however many
/// expanded entries share it.
#[derive(Default)]
pub(super) struct Read {
    /// An id per distinct value text, and the id of the text at each span seen.
    texts: HashMap<String, usize>,
    spans: HashMap<Range<usize>, usize>,
    sources: HashMap<(String, Vec<(String, usize)>), Source>,
}

impl Read {
    /// The key of `entry`: its kind and, per key, the id of its value's text.
    fn key(&mut self, entry: &Entry) -> (String, Vec<(String, usize)>) {
        let mut ids = Vec::new();
        for (k, span, text) in entry.written() {
            let id = match self.spans.get(&span) {
                Some(id) => *id,
                None => {
                    let next = self.texts.len();
                    let id = *self.texts.entry(text.to_string()).or_insert(next);
                    self.spans.insert(span, id);
                    id
                }
            };
            ids.push((k.to_string(), id));
        }
        (entry.kind().to_string(), ids)
    }
}

/// What every dataset entry of one config is checked against.
pub(super) struct Context<'a> {
    /// Splits per dataset.
    pub splits: usize,
    /// The dataset kinds a `kind` is looked up in.
    pub kinds: &'a [&'a dyn DatasetKind],
}

/// Checks the `i`-th dataset entry with the kind it names; `read` keeps the sources read so
/// far.
pub(super) fn dataset(
    table: Spanned<Table>,
    swept: Swept,
    i: usize,
    cx: &Context,
    read: &mut Read,
    at: Located,
) -> Result<DatasetSpec> {
    let Context { splits, kinds } = *cx;
    let (span, kind, name, values) = table_parts(table, at)?;
    let name = name.ok_or_else(|| at.error(span.clone(), "missing field `name`".into()))?;
    let lines = Entry::new(at, "datasets", i, span.clone(), kind.clone(), values.clone()).lines();
    let (sizes, values): (Vec<_>, Vec<_>) =
        values.into_iter().partition(|(k, _)| SIZE_KEYS.contains(&k.as_str()));
    let entry = Entry::new(at, "datasets", i, span.clone(), kind.clone(), values);
    let sizes = Entry::new(at, "datasets", i, span.clone(), kind, sizes);
    let found = kinds.iter().find(|k| k.kind() == entry.kind()).ok_or_else(|| {
        let known: Vec<&str> = kinds.iter().map(|k| k.kind()).collect();
        let hint = crate::support::suggest::did_you_mean(entry.kind(), known.iter().copied());
        entry.error(
            "kind",
            format!("unknown kind `{}`{hint} (known: {})", entry.kind(), known.join(", ")),
        )
    })?;
    let key = read.key(&entry);
    let Source { data: source, test } = match read.sources.get(&key) {
        Some(s) => s.clone(),
        None => {
            let s = found.read(&entry, splits)?;
            read.sources.insert(key, s.clone());
            s
        }
    };
    let (labeled, unlabeled) = match &source {
        DataSource::Loaded(file) if file.official => {
            if let Some(k) = sizes.first_of(&SIZE_KEYS) {
                return Err(sizes.error_at(
                    k,
                    format!(
                        "datasets[{i}]: official splits fix the split sizes; remove the size keys"
                    ),
                ));
            }
            (Sizes::Official, Sizes::Official)
        }
        DataSource::Loaded(_) => (size(&sizes, "labeled", true)?, size(&sizes, "unlabeled", true)?),
        DataSource::Generated(_) => {
            (size(&sizes, "labeled", false)?, size(&sizes, "unlabeled", false)?)
        }
    };
    let (name_span, name) = (name.span(), name.get_ref().clone() + &swept.suffix);
    if name.contains(['/', '\\']) {
        return Err(at.error(name_span, format!("datasets[{i}].name: `{name}` has a slash (it names the split file); label the swept values with `names = [...]`")));
    }
    let spec =
        DatasetSpec::new(name, source, labeled, unlabeled, swept.values, test, Checks::new(lines));
    if let DataSource::Generated(g) = &spec.source {
        let (l, u) = spec.class_sizes()?;
        let tests: usize = spec.test_sizes()?.iter().sum();
        let (n, dim) = (l.iter().sum::<usize>() + u.iter().sum::<usize>() + tests, g.dim());
        // The rows a split draws, test rows too (a file dataset's rows are already in memory).
        let need = n as f64 * g.row_bytes();
        let limit = memory::limit()?;
        if need > limit {
            return Err(at.error(span, format!(
                "datasets[{i}]: a split of {n} points × {dim} features needs about {}, above the memory limit of {} (SSLAB_MEMORY_LIMIT)",
                memory::human(need),
                memory::human(limit)
            )));
        }
        two_classes(&l, &u, &format!("datasets[{i}]")).map_err(|m| at.error(span, m))?;
    }
    Ok(spec)
}

/// `labeled` or `unlabeled` (a count; `"rest"` for the unlabeled rows of a file dataset), or
/// its `_per_class` count or list, from the entry holding the size keys. A generator has
/// two classes; a file dataset's list is checked against its classes when it is read.
fn size(sizes: &Entry, name: &str, file: bool) -> Result<Sizes> {
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
        (None, Some(p)) => {
            let count = |x: &Value| {
                x.as_integer().and_then(|n| usize::try_from(n).ok()).filter(|n| *n >= 1)
            };
            let n = if file { "a list" } else { "2" };
            let bad = || {
                sizes.error(&per, format!("expected an integer ≥ 1 or {n} of them, one per class"))
            };
            match p {
                Value::Array(a) if file || a.len() == 2 => {
                    a.iter().map(count).collect::<Option<Vec<_>>>().map(Sizes::PerClass)
                }
                x if file => count(x).map(Sizes::Each),
                x => count(x).map(|n| Sizes::PerClass(vec![n; 2])),
            }
            .ok_or_else(bad)
        }
        _ => Err(sizes.entry_error(format!(
            "{}: give exactly one of `{name}` and `{name}_per_class`",
            sizes.key(name)
        ))),
    }
}
