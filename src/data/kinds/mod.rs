//! Dataset kinds: each reads its own `[[datasets]]` table (the keys besides `name`, `kind`
//! and the split sizes) through the located [`Entry`], as a method family reads its
//! `[[methods]]` table, and is registered by one line in [`KINDS`].

mod csv_file;
mod files;
mod named;
mod npy_file;
mod sparse_text;
mod svmlight;
mod synthetic;

pub use csv_file::Csv;
pub use named::Named;
pub use npy_file::Npy;
pub use sparse_text::SparseTextKind;
pub use svmlight::Svmlight;
pub use synthetic::Synthetic;

use serde::Deserialize;

use super::source::{DataSource, Generator, Test};
use crate::error::Result;
use crate::support::{Entry, memory};

/// The dataset kinds a config may name, in the order listed in messages.
pub const KINDS: &[&dyn DatasetKind] =
    &[&Synthetic, &SparseTextKind, &Named, &Svmlight, &Csv, &Npy];

/// One dataset kind: the `kind` value it answers to and the reader of its table.
pub trait DatasetKind: Sync {
    /// The `kind` of its `[[datasets]]` entries.
    fn kind(&self) -> &'static str;

    /// Reads the entry's own keys; `splits` is the experiment's number of splits (official
    /// splits must cover them). Unknown keys are errors (`entry.only`).
    fn read(&self, entry: &Entry, splits: usize) -> Result<Source>;
}

/// What a dataset kind reads: where the points come from and the held-out test set.
#[derive(Debug, Clone)]
pub struct Source {
    /// Where the points come from.
    pub data: DataSource,
    /// The held-out test set, if the entry has one.
    pub test: Option<Test>,
}

impl Source {
    /// A generator's source; its test set is `test = { per_class = n }` (fresh points).
    pub fn generated(entry: &Entry, generator: impl Generator + 'static) -> Result<Source> {
        let test = match test_table(entry, &["per_class"])? {
            None => None,
            Some(t) => {
                let n = t.per_class.unwrap_or(0);
                let n = usize::try_from(n).ok().filter(|n| *n >= 1).ok_or_else(|| {
                    entry.error("test", format!("per_class: must be ≥ 1, got {n}"))
                })?;
                Some(Test::PerClass(n))
            }
        };
        Ok(Source { data: DataSource::Generated(std::sync::Arc::new(generator)), test })
    }
}

/// `test = { ... }` as written: one of `parts` (named), `path` (svmlight), `fraction` (file
/// datasets, drawn per split) or `per_class` (generators, drawn per split).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TestTable {
    parts: Option<Vec<String>>,
    path: Option<String>,
    fraction: Option<f64>,
    per_class: Option<i64>,
}

/// The entry's `test` table when it sets exactly one key, and one of `allowed`.
fn test_table(entry: &Entry, allowed: &[&str]) -> Result<Option<TestTable>> {
    let Some(t) = entry.get::<TestTable>("test")? else { return Ok(None) };
    let set = [("parts", t.parts.is_some()), ("path", t.path.is_some())];
    let set = set
        .into_iter()
        .chain([("fraction", t.fraction.is_some()), ("per_class", t.per_class.is_some())]);
    let given: Vec<&str> = set.filter(|(_, on)| *on).map(|(k, _)| k).collect();
    let kind = entry.kind();
    let takes: Vec<String> = allowed.iter().map(|k| format!("`{k}`")).collect();
    let takes = takes.join(" or ");
    if given.len() != 1 {
        return Err(
            entry.error("test", format!("give exactly one key: a `{kind}` dataset takes {takes}"))
        );
    }
    if !allowed.contains(&given[0]) {
        return Err(entry.error("test", format!("a `{kind}` dataset takes {takes}")));
    }
    Ok(Some(t))
}

/// The count under `key` (required, ≥ 1) when `count × bytes` fits in the memory limit.
fn count_within_memory(entry: &Entry, key: &str, bytes: usize) -> Result<usize> {
    let Some(count) = entry.count(key)? else {
        return Err(entry.error(key, format!("required for a {} dataset", entry.kind())));
    };
    let need = count as f64 * bytes as f64;
    let limit = memory::limit()?;
    if need > limit {
        return Err(entry.error(
            key,
            format!(
                "{count} needs about {}, above the memory limit of {} (SSLAB_MEMORY_LIMIT)",
                memory::human(need),
                memory::human(limit)
            ),
        ));
    }
    Ok(count)
}
