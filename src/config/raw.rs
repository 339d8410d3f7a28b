//! The TOML schema as written by users: every value keeps its byte span for messages.
//! Unknown experiment and dataset keys are rejected by serde (`deny_unknown_fields`); a
//! method's keys are checked by its family.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

/// A whole config file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub experiment: Spanned<Experiment>,
    #[serde(default)]
    pub datasets: Vec<Spanned<Dataset>>,
    /// `[[methods]]` entries: each key with its value; the family of its `kind` reads them.
    #[serde(default)]
    pub methods: Vec<Spanned<BTreeMap<String, Spanned<toml::Value>>>>,
}

/// `[experiment]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    pub name: Spanned<String>,
    pub seed: Spanned<i64>,
    pub splits: Option<Spanned<i64>>,
}

/// One `[[datasets]]` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dataset {
    pub name: Spanned<String>,
    pub kind: Spanned<String>,
    pub dim: Option<Spanned<i64>>,
    pub mean_norm: Option<Spanned<f64>>,
    pub means: Option<Spanned<Vec<Vec<f64>>>>,
    pub variances: Option<Spanned<toml::Value>>,
    pub labeled: Option<Spanned<i64>>,
    pub labeled_per_class: Option<Spanned<toml::Value>>,
    /// A count, or `"rest"`: every point not labeled (file datasets).
    pub unlabeled: Option<Spanned<toml::Value>>,
    pub unlabeled_per_class: Option<Spanned<toml::Value>>,
    pub nnz_per_doc: Option<Spanned<i64>>,
    pub topic_weight: Option<Spanned<f64>>,
    pub zipf_exponent: Option<Spanned<f64>>,
    /// `kind = "named"`: the registry name.
    pub dataset: Option<Spanned<String>>,
    /// `kind = "named"`: the parts to load (default all).
    pub parts: Option<Spanned<Vec<String>>>,
    /// `kind = "svmlight"`: the file, its width and its label order.
    pub path: Option<Spanned<String>>,
    pub features: Option<Spanned<i64>>,
    pub labels: Option<Spanned<Vec<f64>>>,
    /// Class subset (names, in order) and one-vs-rest binarisation.
    pub classes: Option<Spanned<Vec<toml::Value>>>,
    pub positive: Option<Spanned<toml::Value>>,
    pub preprocess: Option<Spanned<Vec<String>>>,
    /// Use the registry's official splits with this many labelled points.
    pub official_splits: Option<Spanned<i64>>,
    /// A held-out test set.
    pub test: Option<Spanned<Test>>,
}

/// `test = { ... }`: one of `parts` (named), `path` (svmlight), `fraction` (file datasets,
/// drawn per split) or `per_class` (generators, drawn per split).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Test {
    pub parts: Option<Vec<String>>,
    pub path: Option<String>,
    pub fraction: Option<f64>,
    pub per_class: Option<i64>,
}

impl Dataset {
    /// The kind-specific keys present in the entry (all but name, kind and sizes), with spans.
    pub fn present(&self) -> Vec<(&'static str, std::ops::Range<usize>)> {
        let span = |s: Option<std::ops::Range<usize>>, name| s.map(|r| (name, r));
        [
            span(self.dim.as_ref().map(Spanned::span), "dim"),
            span(self.mean_norm.as_ref().map(Spanned::span), "mean_norm"),
            span(self.means.as_ref().map(Spanned::span), "means"),
            span(self.variances.as_ref().map(Spanned::span), "variances"),
            span(self.nnz_per_doc.as_ref().map(Spanned::span), "nnz_per_doc"),
            span(self.topic_weight.as_ref().map(Spanned::span), "topic_weight"),
            span(self.zipf_exponent.as_ref().map(Spanned::span), "zipf_exponent"),
            span(self.dataset.as_ref().map(Spanned::span), "dataset"),
            span(self.parts.as_ref().map(Spanned::span), "parts"),
            span(self.path.as_ref().map(Spanned::span), "path"),
            span(self.features.as_ref().map(Spanned::span), "features"),
            span(self.labels.as_ref().map(Spanned::span), "labels"),
            span(self.classes.as_ref().map(Spanned::span), "classes"),
            span(self.positive.as_ref().map(Spanned::span), "positive"),
            span(self.preprocess.as_ref().map(Spanned::span), "preprocess"),
            span(self.official_splits.as_ref().map(Spanned::span), "official_splits"),
            span(self.test.as_ref().map(Spanned::span), "test"),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}
