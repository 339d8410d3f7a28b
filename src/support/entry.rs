//! One `[[methods]]` or `[[datasets]]` table as its family or dataset kind reads it: every
//! value with its byte span, so that each error names the file, the line and the key
//! (`cfg.toml:12: methods[1].lambda: ...`, `cfg.toml:7: datasets[0].dim: ...`).

use std::ops::{Deref, Range};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use toml::{Spanned, Value};

use crate::error::{Error, Result};
use crate::support::Base;

/// Source text and file name, to turn byte spans into `file:line` errors.
#[derive(Debug, Clone, Copy)]
pub struct Located<'a> {
    pub path: &'a Path,
    pub src: &'a str,
    /// Spans of swept values and what each is (`datasets[0].dim, sweep value 2 of 3`),
    /// named by errors pointing into them.
    pub swept: &'a [(Range<usize>, String)],
    /// The same for the values of one tuning grid point (searched after `swept`; kept apart
    /// so that checking a grid point does not copy every sweep's origins).
    pub grid: &'a [(Range<usize>, String)],
    /// The byte offsets of the line ends of `src` (see [`newlines`]): a line number is a
    /// binary search, not a scan of the text before it.
    pub newlines: &'a [usize],
    /// Where the config's relative paths lead.
    pub base: &'a Base,
}

/// The byte offsets of the `\n`s of `src`, for [`Located::newlines`].
pub fn newlines(src: &str) -> Vec<usize> {
    src.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i).collect()
}

impl Located<'_> {
    /// An error at the line containing the start of `span`.
    pub fn error(&self, span: Range<usize>, mut message: String) -> Error {
        let offset = span.start.min(self.src.len());
        // `swept` is sorted by start and its spans are disjoint (the values of sweep lists).
        let after = self.swept.partition_point(|(s, _)| s.start <= offset);
        let swept = after.checked_sub(1).map(|i| &self.swept[i]);
        if let Some((_, what)) = swept
            .filter(|(s, _)| s.contains(&offset))
            .or_else(|| self.grid.iter().find(|(s, _)| s.contains(&offset)))
        {
            message.push_str(&format!(" (at {what})"));
        }
        Error::Config {
            path: PathBuf::from(self.path),
            line: self.newlines.partition_point(|&n| n < offset) + 1,
            message,
        }
    }
}

/// A value of an entry, shared by the entries a sweep expands it to: a large unswept value
/// (a list of 400,000 means) is held once, however many values are swept beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct Shared(Arc<Value>);

impl Shared {
    /// A value to share.
    pub fn new(v: Value) -> Self {
        Shared(Arc::new(v))
    }
}

impl Deref for Shared {
    type Target = Value;

    fn deref(&self) -> &Value {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Shared {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Value::deserialize(d).map(Shared::new)
    }
}

/// The `i`-th entry of `[[methods]]` or `[[datasets]]` (or a method's key → value table
/// given without a file): its kind and its other keys (all but `kind` and `name`, and for a
/// dataset its split sizes), in the order written.
#[derive(Debug)]
pub struct Entry<'a> {
    origin: Origin<'a>,
    kind: Spanned<String>,
    values: Vec<(String, Spanned<Shared>)>,
}

/// Where an entry was written.
#[derive(Debug)]
enum Origin<'a> {
    /// Entry `index` of `section` of a config file, at `span` of its text: errors name the
    /// file, the line and the key path (`methods[1].lambda`).
    File { at: Located<'a>, section: &'static str, index: usize, span: Range<usize> },
    /// A method's table given without a file (the Python estimators' parameters): errors
    /// ([`Error::Table`]) name the key alone; relative paths are read from `base`.
    Table { base: Base },
}

impl<'a> Entry<'a> {
    /// Entry `index` of `section` (`"methods"` or `"datasets"`) of the file `at`; `values`
    /// excludes `kind` and `name`.
    pub fn new(
        at: Located<'a>,
        section: &'static str,
        index: usize,
        span: Range<usize>,
        kind: Spanned<String>,
        mut values: Vec<(String, Spanned<Shared>)>,
    ) -> Self {
        values.sort_by_key(|(_, v)| v.span().start);
        Entry { origin: Origin::File { at, section, index, span }, kind, values }
    }

    /// A method's table of `kind` given as keys and values, without a file: its errors name
    /// the key (`lambda: must be finite and > 0, got -1`); relative paths are read from the
    /// working folder ([`Base::working`]).
    pub fn table(kind: &str, values: impl IntoIterator<Item = (String, Value)>) -> Result<Self> {
        let values =
            values.into_iter().map(|(k, v)| (k, Spanned::new(0..0, Shared::new(v)))).collect();
        let origin = Origin::Table { base: Base::working()? };
        Ok(Entry { origin, kind: Spanned::new(0..0, kind.to_string()), values })
    }

    /// Where the config's relative paths lead.
    pub fn base(&self) -> &Base {
        match &self.origin {
            Origin::File { at, .. } => at.base,
            Origin::Table { base } => base,
        }
    }

    /// The entry's `kind`.
    pub fn kind(&self) -> &str {
        self.kind.get_ref()
    }

    /// The full name of a key in messages: `methods[i].key` or `datasets[i].key` (`key`
    /// for a table given without a file).
    pub fn key(&self, key: &str) -> String {
        match &self.origin {
            Origin::File { section, index, .. } => format!("{section}[{index}].{key}"),
            Origin::Table { .. } => key.to_string(),
        }
    }

    /// The entry's name in messages: `methods[i]` or `datasets[i]` (`` `kind` `` for a table
    /// given without a file).
    pub fn name(&self) -> String {
        match &self.origin {
            Origin::File { section, index, .. } => format!("{section}[{index}]"),
            Origin::Table { .. } => format!("`{}`", self.kind()),
        }
    }

    /// Every key the entry sets with its value, in the order written.
    pub fn keys(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.values.iter().map(|(k, v)| (k.as_str(), &**v.get_ref()))
    }

    /// Whether the entry sets `key`.
    pub fn has(&self, key: &str) -> bool {
        self.value(key).is_some()
    }

    /// The raw value of `key`.
    pub fn value(&self, key: &str) -> Option<&Value> {
        self.spanned(key).map(|v| &**v.get_ref())
    }

    fn spanned(&self, key: &str) -> Option<&Spanned<Shared>> {
        self.values.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The span of `key`'s value; `kind` is known too; the entry's span otherwise.
    fn span(&self, key: &str) -> Range<usize> {
        match self.spanned(key) {
            Some(v) => v.span(),
            None if key == "kind" => self.kind.span(),
            None => self.whole(),
        }
    }

    /// The entry's span (none for a table given without a file).
    fn whole(&self) -> Range<usize> {
        match &self.origin {
            Origin::File { span, .. } => span.clone(),
            Origin::Table { .. } => 0..0,
        }
    }

    /// `message` at `span` of the file (as given for a table without a file).
    fn located(&self, span: Range<usize>, message: String) -> Error {
        match &self.origin {
            Origin::File { at, .. } => at.error(span, message),
            Origin::Table { .. } => Error::Table(message),
        }
    }

    /// `methods[i].key: message` (or `datasets[i].key: ...`) at the line of `key` (of the
    /// entry when it is absent).
    pub fn error(&self, key: &str, message: impl std::fmt::Display) -> Error {
        self.located(self.span(key), format!("{}: {message}", self.key(key)))
    }

    /// `message` as given, at the line of the entry.
    pub fn entry_error(&self, message: String) -> Error {
        self.located(self.whole(), message)
    }

    /// `message` as given, at the line of `key` (of the entry when it is absent).
    pub fn error_at(&self, key: &str, message: String) -> Error {
        self.located(self.span(key), message)
    }

    /// The keys with the spans and the text of their values as written, in order: two
    /// entries of one kind with the same texts read the same data (config files' dataset
    /// entries; a table given without a file has no text: every value's is empty).
    pub fn written(&self) -> impl Iterator<Item = (&str, Range<usize>, &str)> {
        let src = match &self.origin {
            Origin::File { at, .. } => at.src,
            Origin::Table { .. } => "",
        };
        self.values.iter().map(move |(k, v)| (k.as_str(), v.span(), &src[v.span()]))
    }

    /// Maps a parameter error of a checked type to the line of the offending key (of
    /// `fallback` when the entry does not set it); other errors go to `fallback`'s line.
    pub fn param_error(&self, e: Error, fallback: &str) -> Error {
        match e {
            Error::Param { param, message } if self.has(param) => self.error(param, message),
            Error::Param { param, message } => {
                self.located(self.span(fallback), format!("{}: {message}", self.key(param)))
            }
            other => self.located(self.span(fallback), other.to_string()),
        }
    }

    /// The entry's error positions, kept for errors found after validation (when the data
    /// it names are read; line 0 of no file for a table given without one).
    pub fn lines(&self) -> Lines {
        let at = |span: Range<usize>| match self.located(span, String::new()) {
            Error::Config { line, message, .. } => (line, message),
            _ => (0, String::new()),
        };
        let keys = self.values.iter().map(|(k, v)| (k.clone(), at(v.span()))).collect();
        let path = match &self.origin {
            Origin::File { at, .. } => PathBuf::from(at.path),
            Origin::Table { .. } => PathBuf::new(),
        };
        Lines { path, name: self.name(), entry: at(self.whole()), keys }
    }

    /// Errors on the first key (in the order written) that is not in `allowed`.
    pub fn only(&self, allowed: &[&str]) -> Result<()> {
        match self.values.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
            Some((k, _)) => {
                let hint = crate::support::suggest::did_you_mean(k, allowed.iter().copied());
                Err(self.error(
                    k,
                    match matches!(self.origin, Origin::File { section: "datasets", .. }) {
                        true => format!("not a key of a `{}` dataset{hint}", self.kind()),
                        false => format!("not a parameter of `{}`{hint}", self.kind()),
                    },
                ))
            }
            None => Ok(()),
        }
    }

    /// The first key present among `keys`, if any.
    pub fn first_of<'k>(&self, keys: &[&'k str]) -> Option<&'k str> {
        self.values.iter().find_map(|(k, _)| keys.iter().find(|x| **x == k.as_str()).copied())
    }

    /// The value of `key` as a `T`; a wrong type is an error at its line naming the key path
    /// and the type in words.
    pub fn get<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>> {
        let Some(v) = self.spanned(key) else { return Ok(None) };
        Value::clone(v.get_ref()).try_into().map(Some).map_err(|e: toml::de::Error| {
            self.error(key, crate::support::suggest::type_message(e.message()))
        })
    }

    /// A number (integer or float) under `key`.
    pub fn f64(&self, key: &str) -> Result<Option<f64>> {
        self.get(key)
    }

    /// A count ≥ 1 under `key`.
    pub fn count(&self, key: &str) -> Result<Option<usize>> {
        match self.get::<i64>(key)? {
            None => Ok(None),
            Some(n) => match usize::try_from(n) {
                Ok(n) if n >= 1 => Ok(Some(n)),
                _ => Err(self.error(key, format!("must be ≥ 1, got {n}"))),
            },
        }
    }

    /// A string under `key`.
    pub fn string(&self, key: &str) -> Result<Option<String>> {
        self.get(key)
    }
}

/// Where an entry and its keys are in the config file, without the file's text: errors
/// about the data an entry names, found when they are read after validation, are placed
/// like [`Entry::error`]'s.
#[derive(Debug, Clone)]
pub struct Lines {
    path: PathBuf,
    name: String,
    /// The entry's line and the note for a swept value (empty if none).
    entry: (usize, String),
    keys: Vec<(String, (usize, String))>,
}

impl Lines {
    /// `datasets[i].key: message` at the line of `key` (of the entry when it is absent).
    pub fn error(&self, key: &str, message: impl std::fmt::Display) -> Error {
        self.at(key, format!("{}.{key}: {message}", self.name))
    }

    /// `message` as given, at the line of the entry.
    pub fn entry_error(&self, message: String) -> Error {
        let (line, note) = &self.entry;
        Error::Config { path: self.path.clone(), line: *line, message: message + note }
    }

    /// The entry's name in messages: `datasets[i]`.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn at(&self, key: &str, message: String) -> Error {
        let (line, note) = self.keys.iter().find(|(k, _)| k == key).map_or(&self.entry, |(_, p)| p);
        Error::Config { path: self.path.clone(), line: *line, message: message + note }
    }
}
