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
        ]
        .into_iter()
        .flatten()
        .collect()
    }
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
    pub policy: Option<Spanned<String>>,
    pub step: Option<Spanned<f64>>,
    pub theta: Option<Spanned<f64>>,
    pub max_rounds: Option<Spanned<i64>>,
    /// `qlds` only: choose (α_l, α_u) over a grid by "th", "cv" or "or".
    pub select: Option<Spanned<String>>,
    pub grid: Option<Spanned<i64>>,
    pub folds: Option<Spanned<i64>>,
    pub theory_scale: Option<Spanned<String>>,
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
    // SVMlin methods (linear_rls, linear_svm, tsvm, da); `lambda` is shared.
    pub lambda_u: Option<Spanned<f64>>,
    pub switches: Option<Spanned<i64>>,
    pub r: Option<Spanned<toml::Value>>,
}

impl Method {
    /// The optional parameters present in the entry, with their spans.
    pub fn present(&self) -> Vec<(&'static str, std::ops::Range<usize>)> {
        let span = |s: Option<std::ops::Range<usize>>, name| s.map(|r| (name, r));
        [
            span(self.alpha_l.as_ref().map(Spanned::span), "alpha_l"),
            span(self.alpha_u.as_ref().map(Spanned::span), "alpha_u"),
            span(self.lambda.as_ref().map(Spanned::span), "lambda"),
            span(self.epsilon.as_ref().map(Spanned::span), "epsilon"),
            span(self.policy.as_ref().map(Spanned::span), "policy"),
            span(self.step.as_ref().map(Spanned::span), "step"),
            span(self.theta.as_ref().map(Spanned::span), "theta"),
            span(self.max_rounds.as_ref().map(Spanned::span), "max_rounds"),
            span(self.select.as_ref().map(Spanned::span), "select"),
            span(self.grid.as_ref().map(Spanned::span), "grid"),
            span(self.folds.as_ref().map(Spanned::span), "folds"),
            span(self.theory_scale.as_ref().map(Spanned::span), "theory_scale"),
            span(self.eta.as_ref().map(Spanned::span), "eta"),
            span(self.gamma.as_ref().map(Spanned::span), "gamma"),
            span(self.mu.as_ref().map(Spanned::span), "mu"),
            span(self.r1.as_ref().map(Spanned::span), "r1"),
            span(self.r2.as_ref().map(Spanned::span), "r2"),
            span(self.c.as_ref().map(Spanned::span), "c"),
            span(self.iterations.as_ref().map(Spanned::span), "iterations"),
            span(self.rof_iterations.as_ref().map(Spanned::span), "rof_iterations"),
            span(self.k.as_ref().map(Spanned::span), "k"),
            span(self.weighting.as_ref().map(Spanned::span), "weighting"),
            span(self.kernel_scale.as_ref().map(Spanned::span), "kernel_scale"),
            span(self.lambda_u.as_ref().map(Spanned::span), "lambda_u"),
            span(self.switches.as_ref().map(Spanned::span), "switches"),
            span(self.r.as_ref().map(Spanned::span), "r"),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}
