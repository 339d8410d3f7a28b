//! Where a config's relative paths lead: a path written in a config (`path`, `test = {
//! path }`) is relative to the config file's folder; registered datasets are read from the
//! data directory (`$SSLAB_DATA_DIR`, else `data` in the working folder). A run folder's
//! config copy (`config.toml`) reads both from `config.base`, written beside it by the run,
//! so that `merge`, `status` and the shards read the same files from any working folder.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The file beside a run folder's `config.toml` that records its [`Base`].
pub const FILE: &str = "config.base";

/// The two folders a config's relative paths are read from, both absolute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Base {
    /// The folder of the config file as written (paths in the config are relative to it).
    pub config_dir: PathBuf,
    /// The data directory of registered (`named`) datasets.
    pub data_dir: PathBuf,
}

impl Base {
    /// The base of the config file `path`: the one recorded in [`FILE`] beside a run folder's
    /// `config.toml`, else the file's own folder and the current data directory.
    pub fn of(path: &Path) -> Result<Base> {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let recorded = dir.join(FILE);
        if path.file_name().is_some_and(|n| n == "config.toml") && recorded.is_file() {
            let text = std::fs::read_to_string(&recorded).map_err(|e| Error::io(&recorded, e))?;
            return toml::from_str(&text)
                .map_err(|e| Error::Data(format!("{}: {}", recorded.display(), e.message())));
        }
        Ok(Base { config_dir: absolute(dir)?, data_dir: absolute(&data_dir())? })
    }

    /// The base of values given without a file: the working folder and the current data
    /// directory.
    pub fn working() -> Result<Base> {
        Base::of(Path::new("."))
    }

    /// `written` read from the config's folder (unchanged when absolute).
    pub fn resolve(&self, written: &str) -> PathBuf {
        self.config_dir.join(written)
    }

    /// How `written` was resolved, for a message about a missing file: empty when absolute.
    pub fn relative_note(&self, written: &str) -> String {
        match Path::new(written).is_absolute() {
            true => String::new(),
            false => format!(" (`{written}` is relative to the config's folder)"),
        }
    }

    /// Records the base beside a config copy in `dir` ([`FILE`]).
    pub fn record(&self, dir: &Path) -> Result<()> {
        let text = toml::to_string(self).map_err(|_| {
            Error::Data(format!(
                "{} or {}: not valid UTF-8, cannot be recorded in {FILE}",
                self.config_dir.display(),
                self.data_dir.display()
            ))
        })?;
        let text = format!(
            "# Where the relative paths of config.toml are read from (written by sslab run).\n{text}"
        );
        crate::support::write_atomic(&dir.join(FILE), text.as_bytes())
    }
}

/// `p` made absolute against the working folder (not resolving links).
fn absolute(p: &Path) -> Result<PathBuf> {
    std::path::absolute(p).map_err(|e| Error::io(p, e))
}

/// The data directory: `$SSLAB_DATA_DIR` when set, else `data` (relative to the working
/// directory, normally the repository root).
pub fn data_dir() -> PathBuf {
    std::env::var_os("SSLAB_DATA_DIR").map_or_else(|| PathBuf::from("data"), PathBuf::from)
}
