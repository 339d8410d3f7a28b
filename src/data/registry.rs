//! The dataset registry, `configs/datasets.toml`, compiled into the binary: for each named
//! dataset its files, format, width, labels and upstream home; for each file its sha256.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::error::{Error, Result};

const REGISTRY: &str = include_str!("../../configs/datasets.toml");

/// All registered datasets and files.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Registry {
    pub datasets: BTreeMap<String, Entry>,
    pub files: BTreeMap<String, FileEntry>,
}

/// One named dataset.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub description: String,
    /// Upstream home page (and citation).
    pub home: String,
    pub format: Format,
    /// Declared number of features.
    pub features: usize,
    /// Label values in class-id order (class 0 is the +1 class of a binary dataset).
    pub labels: Vec<f64>,
    pub class_names: Vec<String>,
    /// SVMlin label files: the value marking an unlabeled row.
    pub unlabeled_label: Option<f64>,
    pub parts: Vec<Part>,
    /// Official split files keyed by the number of labelled points.
    #[serde(default)]
    pub splits: BTreeMap<String, String>,
}

/// File layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// SVMlight/LIBSVM text.
    Svmlight,
    /// ESL digits: label then dense values on each line.
    Esl,
    /// A dense matrix file (`x`) and a label file (`y`).
    Dense,
    /// SVMlin: examples without labels (`x`) and a label file (`y`).
    Svmlin,
}

/// A named file (or file pair) of a dataset, e.g. `train` and `test`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    pub name: String,
    pub x: String,
    pub y: Option<String>,
}

/// Checksum and, when a byte-identical public copy exists, its download URL.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileEntry {
    pub sha256: String,
    pub url: Option<String>,
}

impl Registry {
    /// The registry compiled from `configs/datasets.toml`.
    pub fn builtin() -> Result<Registry> {
        let reg: Registry = toml::from_str(REGISTRY)
            .map_err(|e| Error::Data(format!("configs/datasets.toml: {}", e.message())))?;
        reg.check()?;
        Ok(reg)
    }

    /// The dataset called `name`.
    pub fn get(&self, name: &str) -> Result<&Entry> {
        self.datasets.get(name).ok_or_else(|| {
            let known: Vec<&str> = self.datasets.keys().map(String::as_str).collect();
            Error::Data(format!("no registered dataset `{name}` (known: {})", known.join(", ")))
        })
    }

    fn check(&self) -> Result<()> {
        for (name, e) in &self.datasets {
            let bad = |m: String| Err(Error::Data(format!("configs/datasets.toml: dataset `{name}`: {m}")));
            if e.labels.len() != e.class_names.len() || e.labels.is_empty() {
                return bad("needs one class name per label".into());
            }
            if e.parts.is_empty() {
                return bad("has no parts".into());
            }
            for path in e.files() {
                if !self.files.contains_key(path) {
                    return bad(format!("file `{path}` has no [files] entry"));
                }
            }
        }
        Ok(())
    }
}

impl Entry {
    /// Every file of the dataset (parts and split files), relative to the data directory.
    pub fn files(&self) -> Vec<&str> {
        let parts = self.parts.iter().flat_map(|p| std::iter::once(p.x.as_str()).chain(p.y.as_deref()));
        parts.chain(self.splits.values().map(String::as_str)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_registry_is_consistent() {
        let reg = Registry::builtin().unwrap();
        for name in ["mushrooms", "splice", "adult", "books", "dvd", "electronics", "kitchen", "usps", "pcmac", "svmlin_pcmac"] {
            assert!(reg.get(name).is_ok(), "{name}");
        }
        assert_eq!(reg.datasets.keys().filter(|k| k.starts_with("ssl_")).count(), 9);
        assert_eq!(reg.get("adult").unwrap().features, 123);
        assert!(reg.files.values().all(|f| f.sha256.len() == 64));
        assert!(reg.get("nope").unwrap_err().to_string().contains("known: adult"));
    }
}
