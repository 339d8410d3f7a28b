//! Experiment configs: TOML read into span-carrying raw structs ([`raw`]), validated once
//! into checked types ([`Experiment`]); every error names the file, line and key. Each
//! `[[methods]]` entry is read by the family owning its `kind`, each `[[datasets]]` entry by
//! its dataset kind (`data::kinds`); the split sizes and names are checked here.

mod dataset_spec;
mod datasets;
mod experiment;
mod methods;
mod raw;
mod sweep;
mod tuning;
mod values;

pub use crate::data::Test;
pub use dataset_spec::DatasetSpec;
pub use experiment::Experiment;
pub use methods::MethodSpec;
pub use tuning::{Criterion, GridPoint, Tuning};

use std::path::Path;

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::data::kinds::DatasetKind;
use crate::engine::{Family, Located};
use crate::error::{Error, Result};
use crate::support::{Base, suggest};

/// The largest config file read (16 MiB).
const MAX_CONFIG: u64 = 16 << 20;

/// Reads and validates a config file (a regular file of at most 16 MiB).
pub fn load(path: &Path) -> Result<Experiment> {
    if crate::data::text::regular_file(path)? > MAX_CONFIG {
        return Err(Error::Data(format!(
            "{}: larger than {} MiB: not a config",
            path.display(),
            MAX_CONFIG >> 20
        )));
    }
    let src = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    parse(&src, path)
}

/// Validates config text with the built-in families and dataset kinds; `path` names the file
/// in messages, and the paths written in it are relative to its folder ([`Base`]).
pub fn parse(src: &str, path: &Path) -> Result<Experiment> {
    parse_with(src, path, crate::methods::FAMILIES, crate::data::kinds::KINDS)
}

/// Validates config text; method kinds are looked up in `families`, dataset kinds in `kinds`.
pub fn parse_with(
    src: &str,
    path: &Path,
    families: &[&dyn Family],
    kinds: &[&dyn DatasetKind],
) -> Result<Experiment> {
    let newlines = crate::engine::newlines(src);
    let base = Base::of(path)?;
    let plain = Located { path, src, swept: &[], grid: &[], newlines: &newlines, base: &base };
    let syntax =
        |e: toml::de::Error| plain.error(e.span().unwrap_or(0..0), e.message().to_string());
    let doc = toml::de::DeTable::parse(src).map_err(syntax)?;
    let span = doc.span();
    let mut root = doc.into_inner();
    let (dataset_picks, mut origins) = sweep::expand(&root, "datasets", plain)?;
    let (method_picks, more) = sweep::expand(&root, "methods", plain)?;
    origins.extend(more);
    origins.sort_by_key(|(span, _)| span.start);
    let at = Located { swept: &origins, ..plain };
    let tunes = tuning::extract(&mut root, at)?;
    let mut raw =
        raw::Config::deserialize(toml::de::Deserializer::from(toml::Spanned::new(span, root)))
            .map_err(|e| serde_error(e, at))?;
    let (datasets, dataset_sweeps) =
        sweep::apply(&raw.datasets, dataset_picks, at)?.into_iter().unzip();
    raw.datasets = datasets;
    let method_tunes: Vec<_> = method_picks.iter().map(|p| tunes[p.entry].clone()).collect();
    let (methods, method_sweeps): (_, Vec<_>) =
        sweep::apply(&raw.methods, method_picks, at)?.into_iter().unzip();
    raw.methods = methods;
    let methods = method_sweeps.into_iter().zip(method_tunes).collect();
    experiment::check(raw, dataset_sweeps, methods, at, hash(src)?, families, kinds)
}

/// A deserialization error of the config at its line, in words: a type error names its
/// key, an integer beyond 64 bits its range.
fn serde_error(e: toml::de::Error, at: Located) -> Error {
    let span = e.span().unwrap_or(0..0);
    let written = at.src.get(span.clone()).unwrap_or_default();
    let message = suggest::serde_message(&suggest::type_message(e.message()));
    let message = match key_before(at.src, span.start) {
        Some(key) => match suggest::too_large(e.message(), written) {
            Some(n) => suggest::out_of_range(key, n),
            None if message.starts_with("expected ") => format!("{key}: {message}"),
            None => message,
        },
        None => message,
    };
    at.error(span, message)
}

/// The key written before the value at byte `at` on its line (`key = value`), if any.
fn key_before(src: &str, at: usize) -> Option<&str> {
    let before = src.get(..at)?;
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let key = line.rsplit_once('=')?.0.trim();
    let key = key.rsplit([',', '{', ' ']).next().unwrap_or(key).trim();
    (!key.is_empty()).then_some(key)
}

/// The config's hash: sha256 of its canonical TOML (sorted keys, no comments), 16 hex digits.
/// Reformatting or commenting a config keeps its hash; changing any value changes it.
pub fn hash(src: &str) -> Result<String> {
    let table: toml::Table = toml::from_str(src).map_err(|e| Error::Report(e.to_string()))?;
    let canonical = toml::to_string(&table).map_err(|e| Error::Report(e.to_string()))?;
    let digest = Sha256::digest(canonical.as_bytes());
    Ok(digest.iter().take(8).map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests;
