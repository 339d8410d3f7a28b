//! The TOML schema as written by users: every value keeps its byte span for messages.
//! Unknown keys are rejected by serde (`deny_unknown_fields`).

use serde::Deserialize;
use toml::Spanned;

/// A whole config file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub experiment: Spanned<Experiment>,
    #[serde(default)]
    pub datasets: Vec<Spanned<Dataset>>,
    #[serde(default)]
    pub methods: Vec<Spanned<Method>>,
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
    pub unlabeled: Option<Spanned<i64>>,
    pub unlabeled_per_class: Option<Spanned<toml::Value>>,
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
}

/// One `[[methods]]` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Method {
    pub kind: Spanned<String>,
    pub name: Option<Spanned<String>>,
    pub alpha_l: Option<Spanned<f64>>,
    pub alpha_u: Option<Spanned<f64>>,
    pub lambda: Option<Spanned<toml::Value>>,
    pub epsilon: Option<Spanned<f64>>,
    // Graph and kernel methods (rls, svm, lap_*, tv_*, cheeger_*); `lambda` is shared.
    pub eta: Option<Spanned<f64>>,
    pub gamma: Option<Spanned<f64>>,
    pub mu: Option<Spanned<f64>>,
    pub r1: Option<Spanned<f64>>,
    pub r2: Option<Spanned<f64>>,
    pub c: Option<Spanned<f64>>,
    pub iterations: Option<Spanned<i64>>,
    pub rof_iterations: Option<Spanned<i64>>,
    pub k: Option<Spanned<i64>>,
    pub weighting: Option<Spanned<String>>,
    pub kernel_scale: Option<Spanned<f64>>,
}
