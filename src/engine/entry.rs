//! One `[[methods]]` table as a family reads it: every value with its byte span, so that
//! each error names the file, the line and the key (`cfg.toml:12: methods[1].lambda: ...`).

use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use toml::{Spanned, Value};

use crate::error::{Error, Result};

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
}

impl Located<'_> {
    /// An error at the line containing the start of `span`.
    pub fn error(&self, span: Range<usize>, mut message: String) -> Error {
        let offset = span.start.min(self.src.len());
        if let Some((_, what)) =
            self.swept.iter().chain(self.grid).find(|(s, _)| s.contains(&offset))
        {
            message.push_str(&format!(" (at {what})"));
        }
        Error::Config {
            path: PathBuf::from(self.path),
            line: self.src[..offset].matches('\n').count() + 1,
            message,
        }
    }
}

/// The `i`-th `[[methods]]` entry: its kind and its other keys (all but `kind` and `name`),
/// in the order written.
#[derive(Debug)]
pub struct Entry<'a> {
    at: Located<'a>,
    index: usize,
    span: Range<usize>,
    kind: Spanned<String>,
    values: Vec<(String, Spanned<Value>)>,
}

impl<'a> Entry<'a> {
    /// An entry of the file `at`; `values` excludes `kind` and `name`.
    pub fn new(
        at: Located<'a>,
        index: usize,
        span: Range<usize>,
        kind: Spanned<String>,
        mut values: Vec<(String, Spanned<Value>)>,
    ) -> Self {
        values.sort_by_key(|(_, v)| v.span().start);
        Entry { at, index, span, kind, values }
    }

    /// The entry's `kind`.
    pub fn kind(&self) -> &str {
        self.kind.get_ref()
    }

    /// The full name of a key in messages: `methods[i].key`.
    pub fn key(&self, key: &str) -> String {
        format!("methods[{}].{key}", self.index)
    }

    /// Whether the entry sets `key`.
    pub fn has(&self, key: &str) -> bool {
        self.value(key).is_some()
    }

    /// The raw value of `key`.
    pub fn value(&self, key: &str) -> Option<&Value> {
        self.spanned(key).map(Spanned::get_ref)
    }

    fn spanned(&self, key: &str) -> Option<&Spanned<Value>> {
        self.values.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The span of `key`'s value; `kind` is known too; the entry's span otherwise.
    fn span(&self, key: &str) -> Range<usize> {
        match self.spanned(key) {
            Some(v) => v.span(),
            None if key == "kind" => self.kind.span(),
            None => self.span.clone(),
        }
    }

    /// `methods[i].key: message` at the line of `key` (of the entry when it is absent).
    pub fn error(&self, key: &str, message: impl std::fmt::Display) -> Error {
        self.at.error(self.span(key), format!("{}: {message}", self.key(key)))
    }

    /// `message` as given, at the line of the entry.
    pub fn entry_error(&self, message: String) -> Error {
        self.at.error(self.span.clone(), message)
    }

    /// Maps a parameter error of a checked type to the line of the offending key (of
    /// `fallback` when the entry does not set it); other errors go to `fallback`'s line.
    pub fn param_error(&self, e: Error, fallback: &str) -> Error {
        match e {
            Error::Param { param, message } if self.has(param) => self.error(param, message),
            Error::Param { param, message } => {
                self.at.error(self.span(fallback), format!("{}: {message}", self.key(param)))
            }
            other => self.at.error(self.span(fallback), other.to_string()),
        }
    }

    /// Errors on the first key (in the order written) that is not in `allowed`.
    pub fn only(&self, allowed: &[&str]) -> Result<()> {
        match self.values.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
            Some((k, _)) => {
                let hint = crate::config::suggest::did_you_mean(k, allowed.iter().copied());
                Err(self.error(k, format!("not a parameter of `{}`{hint}", self.kind())))
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
        v.get_ref().clone().try_into().map(Some).map_err(|e: toml::de::Error| {
            self.error(key, crate::config::suggest::type_message(e.message()))
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
