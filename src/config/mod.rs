//! Experiment configs: TOML read into span-carrying raw structs ([`raw`]), validated once
//! into checked types ([`Experiment`]); every error names the file, line and key.

mod checked;
mod raw;
mod real;

pub use checked::{DataSource, DatasetSpec, Experiment, LoadedData, MethodSpec};

use std::ops::Range;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

/// Reads and validates a config file.
pub fn load(path: &Path) -> Result<Experiment> {
    let src = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    parse(&src, path)
}

/// Validates config text; `path` is only used in messages and stored in the result.
pub fn parse(src: &str, path: &Path) -> Result<Experiment> {
    let at = Located { path, src };
    let raw: raw::Config = toml::from_str(src).map_err(|e| at.error(
        e.span().unwrap_or(0..0),
        e.message().to_string(),
    ))?;
    checked::check(raw, &at, hash(src)?)
}

/// The config's hash: sha256 of its canonical TOML (sorted keys, no comments), 16 hex digits.
/// Reformatting or commenting a config keeps its hash; changing any value changes it.
fn hash(src: &str) -> Result<String> {
    let table: toml::Table = toml::from_str(src).map_err(|e| Error::Report(e.to_string()))?;
    let canonical = toml::to_string(&table).map_err(|e| Error::Report(e.to_string()))?;
    let digest = Sha256::digest(canonical.as_bytes());
    Ok(digest.iter().take(8).map(|b| format!("{b:02x}")).collect())
}

/// Source text and file name, to turn byte spans into `file:line` errors.
pub(crate) struct Located<'a> {
    path: &'a Path,
    src: &'a str,
}

impl Located<'_> {
    /// An error at the line containing the start of `span`.
    fn error(&self, span: Range<usize>, message: String) -> Error {
        let offset = span.start.min(self.src.len());
        Error::Config {
            path: PathBuf::from(self.path),
            line: self.src[..offset].matches('\n').count() + 1,
            message,
        }
    }
}

#[cfg(test)]
mod tests;
