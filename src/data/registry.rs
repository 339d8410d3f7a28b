//! The dataset registry, `configs/datasets.toml`, compiled into the binary: for each named
//! dataset its files, format, width, labels and upstream home; for each file the sha256 of
//! its public original and where to get it (URL or archive member, and the mirror's copy).

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::error::{Error, Result};
use crate::support::suggest::did_you_mean;

const REGISTRY: &str = include_str!("../../configs/datasets.toml");

/// All registered datasets, files and the archives some files are extracted from.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Registry {
    pub datasets: BTreeMap<String, Registered>,
    pub files: BTreeMap<String, FileEntry>,
    #[serde(default)]
    pub archives: BTreeMap<String, Archive>,
}

/// One registered dataset (`kind = "named"` reads it by name).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Registered {
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
    /// Keep dense `.mat` features as CSR (as their SVMlight copies were read).
    #[serde(default)]
    pub sparse: bool,
    /// h5 format: maps every stored feature value `v` to `round(scale·v + shift, decimals)`.
    pub rescale: Option<Rescale>,
    pub parts: Vec<Part>,
    /// Official split files (`.mat`, `idxLabs`) keyed by the number of labelled points.
    #[serde(default)]
    pub splits: BTreeMap<String, String>,
}

/// File layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// SVMlight/LIBSVM text (LF or CRLF line ends).
    Svmlight,
    /// MATLAB v5 `.mat`: variables `x_var` (features) and `y_var` (labels) of file `x`.
    Mat,
    /// HDF5: datasets `x_var` and `y_var` of file `x`.
    H5,
    /// SVMlin: examples without labels (`x`) and a label file (`y`).
    Svmlin,
    /// MNIST's IDX: an images file (`x`, pixels read as pixel / 255) and a labels file (`y`).
    Idx,
}

/// A named file (or file pair) of a dataset, e.g. `train` and `test`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    pub name: String,
    pub x: String,
    pub y: Option<String>,
    /// `.mat` variable or HDF5 dataset holding the features / the labels.
    pub x_var: Option<String>,
    pub y_var: Option<String>,
    /// Only these rows of the file, 1-based and inclusive (`[first, last]`).
    pub rows: Option<[usize; 2]>,
}

/// `round(scale·v + shift, decimals)`, applied to every feature value.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rescale {
    pub scale: f64,
    pub shift: f64,
    pub decimals: i32,
}

/// A file: the sha256 of its original bytes and where to get them. Public sources: `url`
/// (the file itself) or `archive` + `member` (a file inside a registered zip archive).
/// Mirror sources: the mirror files `mirror` (default: the same path) concatenated, each
/// gunzipped when its name ends in `.gz`; a mirror copy that was normalised rather than
/// kept byte for byte is accepted under `mirror_sha256`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileEntry {
    pub sha256: String,
    pub url: Option<String>,
    pub archive: Option<String>,
    pub member: Option<String>,
    #[serde(default)]
    pub mirror: Vec<String>,
    pub mirror_sha256: Option<String>,
}

/// A downloadable archive (zip) that registered files are extracted from.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Archive {
    pub url: String,
    pub sha256: String,
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
    pub fn get(&self, name: &str) -> Result<&Registered> {
        self.datasets.get(name).ok_or_else(|| {
            let known: Vec<&str> = self.datasets.keys().map(String::as_str).collect();
            let hint = did_you_mean(name, known.iter().copied());
            Error::Data(format!(
                "no registered dataset `{name}`{hint} (known: {})",
                known.join(", ")
            ))
        })
    }

    fn check(&self) -> Result<()> {
        for (name, e) in &self.datasets {
            let bad = |m: String| {
                Err(Error::Data(format!("configs/datasets.toml: dataset `{name}`: {m}")))
            };
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
            if e.rescale.is_some() && e.format != Format::H5 {
                return bad("`rescale` applies to the h5 format only".into());
            }
            let vars = matches!(e.format, Format::Mat | Format::H5);
            if e.parts.iter().any(|p| {
                vars != (p.x_var.is_some() && p.y_var.is_some()) || (vars && p.y.is_some())
            }) {
                return bad("the mat and h5 formats need `x_var` and `y_var` (and no `y`); other formats take neither".into());
            }
            if matches!(e.format, Format::Svmlin | Format::Idx)
                && e.parts.iter().any(|p| p.y.is_none())
            {
                return bad("the svmlin and idx formats need a label file `y` in every part".into());
            }
        }
        for (path, f) in &self.files {
            let source = match (&f.url, &f.archive, &f.member) {
                (Some(_), None, None) => Ok(()),
                (None, Some(a), Some(_)) if self.archives.contains_key(a) => Ok(()),
                (None, Some(a), Some(_)) => Err(format!("unknown archive `{a}`")),
                _ => Err("needs either `url`, or `archive` and `member`".to_string()),
            };
            source
                .map_err(|m| Error::Data(format!("configs/datasets.toml: file `{path}`: {m}")))?;
        }
        Ok(())
    }
}

impl FileEntry {
    /// True when `sha256` is the original's checksum or that of the mirror's copy.
    pub fn accepts(&self, sha256: &str) -> bool {
        self.sha256 == sha256 || self.mirror_sha256.as_deref() == Some(sha256)
    }
}

impl Registered {
    /// Every file of the dataset (parts and split files), relative to the data directory.
    pub fn files(&self) -> Vec<&str> {
        let parts =
            self.parts.iter().flat_map(|p| std::iter::once(p.x.as_str()).chain(p.y.as_deref()));
        parts.chain(self.splits.values().map(String::as_str)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_registry_is_consistent() {
        let reg = Registry::builtin().unwrap();
        for name in [
            "mushrooms",
            "splice",
            "adult",
            "books",
            "dvd",
            "electronics",
            "kitchen",
            "usps",
            "pcmac",
            "svmlin_pcmac",
            "fashion_mnist",
        ] {
            assert!(reg.get(name).is_ok(), "{name}");
        }
        assert_eq!(reg.datasets.keys().filter(|k| k.starts_with("ssl_")).count(), 9);
        assert_eq!(reg.get("adult").unwrap().features, 123);
        let fashion = reg.get("fashion_mnist").unwrap();
        assert_eq!(
            (fashion.format, fashion.features, fashion.class_names.len()),
            (Format::Idx, 784, 10)
        );
        assert!(reg.files.values().all(|f| f.sha256.len() == 64));
        assert!(
            reg.archives.values().all(|a| a.sha256.len() == 64 && a.url.starts_with("https://"))
        );
        // Every file has a public source (check() insists), pinned to a commit or a release.
        let pinned = |u: &str| {
            u.starts_with("https://raw.githubusercontent.com/")
                || u.starts_with("https://files.pythonhosted.org/")
        };
        assert!(reg.files.values().all(|f| f.url.as_deref().is_none_or(pinned)));
        assert!(reg.get("nope").unwrap_err().to_string().contains("known: adult"));
    }
}
