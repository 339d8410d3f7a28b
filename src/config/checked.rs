//! Checked experiment types and the validation from [`raw`](super::raw).

use std::collections::HashSet;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use ndarray::Array1;
use toml::{Spanned, Value};

use super::{Located, raw, real, svmlin};
use crate::data::Dataset;
use crate::data::sparse_text::SparseText;
use crate::data::synthetic::GaussianMixture;
use crate::error::{Error, Result};
use crate::methods::Method;
use crate::methods::graph::{GraphKind, GraphParams, Weighting};
use crate::methods::qlds::{LambdaPolicy, QldsParams, Spectral};
use crate::methods::self_training::{SelfTrainingParams, Threshold};
use crate::selection::{Grid, Policy, SelectLambda, SelectQlds};
use crate::theory::Scale;
use crate::protocol::Sizes;

/// A validated experiment.
#[derive(Debug, Clone)]
pub struct Experiment {
    /// The config file it came from.
    pub path: PathBuf,
    pub name: String,
    pub seed: u64,
    /// Number of random splits per dataset (default 20).
    pub splits: usize,
    /// Hash of the config's content, carried by every result row.
    pub hash: String,
    pub datasets: Vec<DatasetSpec>,
    pub methods: Vec<MethodSpec>,
}

/// A dataset and the split sizes drawn from it.
#[derive(Debug, Clone)]
pub struct DatasetSpec {
    pub name: String,
    pub source: DataSource,
    pub labeled: Sizes,
    pub unlabeled: Sizes,
}

impl DatasetSpec {
    /// Number of classes (2 for the generators; more for a multi-class file dataset).
    pub fn n_classes(&self) -> usize {
        match &self.source {
            DataSource::Loaded(data) => data.dataset.n_classes(),
            _ => 2,
        }
    }
}

/// Where a dataset's points come from.
#[derive(Debug, Clone)]
pub enum DataSource {
    /// A Gaussian mixture, freshly sampled for every split.
    Synthetic(GaussianMixture),
    /// Two-topic sparse text, freshly sampled for every split.
    SparseText(SparseText),
    /// A dataset read from files (`named` or `svmlight`), loaded once per run; splits are
    /// drawn from its rows. Two classes, or more for the multi-class graph methods.
    Loaded(Arc<LoadedData>),
}

/// A loaded dataset, preprocessed and binarised as configured, and its official splits
/// (labelled rows of each split; the rest is unlabeled) when the config uses them.
#[derive(Debug)]
pub struct LoadedData {
    pub dataset: Dataset,
    pub official_splits: Option<Vec<Vec<usize>>>,
}

/// A named method with checked parameters.
#[derive(Debug, Clone)]
pub struct MethodSpec {
    pub name: String,
    /// The config `kind` (`qlds`, `ls_svm`, `gb_ssl`, `spectral`, `rls`, `svm`, `tsvm`, `da`).
    pub kind: String,
    pub method: Method,
}

pub(super) fn check(raw: raw::Config, at: &Located, hash: String) -> Result<Experiment> {
    let exp_span = raw.experiment.span();
    let exp = raw.experiment.into_inner();
    let name = exp.name.get_ref().trim().to_string();
    if name.is_empty() || name.contains(['/', '\\']) {
        return Err(at.error(exp.name.span(), "experiment.name: must be a non-empty name without slashes".into()));
    }
    let seed = u64::try_from(*exp.seed.get_ref())
        .map_err(|_| at.error(exp.seed.span(), "experiment.seed: must be ≥ 0".into()))?;
    let splits = match &exp.splits {
        Some(s) => positive(s, "experiment.splits", at)?,
        None => 20,
    };
    if raw.datasets.is_empty() {
        return Err(at.error(exp_span, "no [[datasets]] entry".into()));
    }
    if raw.methods.is_empty() {
        return Err(at.error(exp_span, "no [[methods]] entry".into()));
    }
    let methods = raw
        .methods
        .into_iter()
        .enumerate()
        .map(|(i, m)| method(m, i, at))
        .collect::<Result<Vec<_>>>()?;
    let mut loaded = Vec::new();
    let datasets = raw
        .datasets
        .into_iter()
        .enumerate()
        .map(|(i, d)| dataset(d, i, splits, &methods, &mut loaded, at))
        .collect::<Result<Vec<_>>>()?;
    unique(datasets.iter().map(|d| d.name.as_str()), "dataset", at)?;
    unique(methods.iter().map(|m| m.name.as_str()), "method", at)?;
    Ok(Experiment {
        path: PathBuf::from(at.path),
        name,
        seed,
        splits,
        hash,
        datasets,
        methods,
    })
}

fn unique<'a>(names: impl Iterator<Item = &'a str>, what: &str, at: &Located) -> Result<()> {
    let mut seen = HashSet::new();
    for name in names {
        if !seen.insert(name) {
            let offset = at.src.find(&format!("\"{name}\"")).unwrap_or(0);
            return Err(at.error(offset..offset, format!("{what} name `{name}` is used twice")));
        }
    }
    Ok(())
}

fn positive(v: &Spanned<i64>, key: &str, at: &Located) -> Result<usize> {
    match usize::try_from(*v.get_ref()) {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(at.error(v.span(), format!("{key}: must be ≥ 1, got {}", v.get_ref()))),
    }
}

/// The kind-specific keys each dataset kind accepts (besides name, kind and split sizes).
fn dataset_keys(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "synthetic" => &["dim", "mean_norm", "means", "variances"],
        "sparse_text" => &["dim", "nnz_per_doc", "topic_weight", "zipf_exponent"],
        "named" => &["dataset", "parts", "classes", "positive", "preprocess", "official_splits"],
        "svmlight" => &["path", "features", "labels", "classes", "positive", "preprocess"],
        _ => return None,
    })
}

/// File datasets already loaded, keyed by their source keys as written: entries that differ
/// only in name and split sizes share one loaded copy (and the runner's graph cache).
type LoadedSources = Vec<(String, (DataSource, Option<(Sizes, Sizes)>))>;

fn dataset(d: Spanned<raw::Dataset>, i: usize, splits: usize, methods: &[MethodSpec], loaded: &mut LoadedSources, at: &Located) -> Result<DatasetSpec> {
    let span = d.span();
    let d = d.into_inner();
    let key = |k: &str| format!("datasets[{i}].{k}");
    let kind = d.kind.get_ref().as_str();
    let allowed = dataset_keys(kind).ok_or_else(|| {
        at.error(d.kind.span(), format!("{}: unknown kind `{kind}` (known: synthetic, sparse_text, named, svmlight)", key("kind")))
    })?;
    if let Some((name, s)) = d.present().into_iter().find(|(n, _)| !allowed.contains(n)) {
        return Err(at.error(s, format!("{}: not a key of a `{kind}` dataset", key(name))));
    }
    let (source, official_sizes) = match kind {
        "synthetic" => (DataSource::Synthetic(synthetic(&d, i, span.clone(), at)?), None),
        "sparse_text" => (DataSource::SparseText(svmlin::sparse_text(&d, i, span.clone(), at)?), None),
        _ => {
            let source_key: String = d.present().iter().map(|(n, s)| format!("{n}={};", &at.src[s.clone()])).collect();
            let source_key = format!("{kind};{source_key}");
            match loaded.iter().find(|(k, _)| *k == source_key) {
                Some((_, found)) => found.clone(),
                None => {
                    let found = real::source(&d, i, span.clone(), splits, at)?;
                    loaded.push((source_key, found.clone()));
                    found
                }
            }
        }
    };
    let n_classes = match &source {
        DataSource::Loaded(data) => data.dataset.n_classes(),
        _ => 2,
    };
    if let DataSource::Loaded(data) = &source
        && n_classes > 2
        && let Some(m) = methods.iter().find(|m| !m.method.is_multiclass())
    {
        return Err(at.error(span, format!(
            "datasets[{i}]: {n_classes} classes ({}) but method `{}` is binary: choose two with `classes = [a, b]`, use `positive`, or run only the multi-class graph methods ({})",
            data.dataset.class_names.join(", "), m.name,
            GraphKind::ALL.iter().filter(|k| k.uses_graph()).map(|k| k.name()).collect::<Vec<_>>().join(", ")
        )));
    }
    let sizes = |total: Option<(Value, Range<usize>)>, per: &Option<Spanned<Value>>, name: &str| match (total, per) {
        (Some((Value::String(s), _)), None) if s == "rest" && name == "unlabeled" => match &source {
            DataSource::Loaded(_) => Ok(Sizes::Rest),
            _ => Err(at.error(span.clone(), format!("{}: \"rest\" needs a file dataset (`named` or `svmlight`)", key(name)))),
        },
        (Some((Value::Integer(n), s)), None) => Ok(Sizes::Total(positive(&Spanned::new(s, n), &key(name), at)?)),
        (Some((_, s)), None) => {
            let rest = if name == "unlabeled" { " or \"rest\"" } else { "" };
            Err(at.error(s, format!("{}: expected an integer ≥ 1{rest}", key(name))))
        }
        (None, Some(p)) => per_class(p, n_classes, &key(&format!("{name}_per_class")), at).map(Sizes::PerClass),
        _ => Err(at.error(span.clone(), format!("{}: give exactly one of `{name}` and `{name}_per_class`", key(name)))),
    };
    let (labeled, unlabeled) = match official_sizes {
        Some(official) => {
            let given = d.labeled.iter().map(|v| v.span()).chain(d.unlabeled.iter().map(|v| v.span()));
            let mut given = given.chain([&d.labeled_per_class, &d.unlabeled_per_class].into_iter().flatten().map(|v| v.span()));
            if let Some(s) = given.next() {
                return Err(at.error(s, format!("datasets[{i}]: official splits fix the split sizes; remove the size keys")));
            }
            official
        }
        None => {
            let labeled = d.labeled.as_ref().map(|v| (Value::Integer(*v.get_ref()), v.span()));
            let unlabeled = d.unlabeled.as_ref().map(|v| (v.get_ref().clone(), v.span()));
            (sizes(labeled, &d.labeled_per_class, "labeled")?, sizes(unlabeled, &d.unlabeled_per_class, "unlabeled")?)
        }
    };
    if let DataSource::Loaded(data) = &source
        && data.official_splits.is_none()
    {
        real::check_fit(&data.dataset, &labeled, &unlabeled, span.clone(), i, at)?;
    }
    Ok(DatasetSpec { name: d.name.get_ref().clone(), labeled, unlabeled, source })
}

/// `n` (the same for every class) or one count per class, `[n1, n2, ...]`, each ≥ 1.
fn per_class(v: &Spanned<Value>, classes: usize, key: &str, at: &Located) -> Result<Vec<usize>> {
    let bad = || at.error(v.span(), format!("{key}: expected an integer ≥ 1 or {classes} of them, one per class"));
    let count = |x: &Value| x.as_integer().and_then(|n| usize::try_from(n).ok()).filter(|n| *n >= 1);
    match v.get_ref() {
        Value::Array(a) if a.len() == classes => a.iter().map(|x| count(x).ok_or_else(bad)).collect(),
        x => count(x).map(|n| vec![n; classes]).ok_or_else(bad),
    }
}

fn synthetic(d: &raw::Dataset, i: usize, span: Range<usize>, at: &Located) -> Result<GaussianMixture> {
    let key = |k: &str| format!("datasets[{i}].{k}");
    let dim = match &d.dim {
        Some(v) => positive(v, &key("dim"), at)?,
        None => return Err(at.error(span, format!("{}: required for a synthetic dataset", key("dim")))),
    };
    let means = match (&d.mean_norm, &d.means) {
        (Some(norm), None) => {
            let n = *norm.get_ref();
            if !(n.is_finite() && n >= 0.0) {
                return Err(at.error(norm.span(), format!("{}: must be finite and ≥ 0", key("mean_norm"))));
            }
            let mu = Array1::from_elem(dim, n / (dim as f64).sqrt());
            [mu.clone(), -mu]
        }
        (None, Some(m)) => {
            let ok = m.get_ref().len() == 2 && m.get_ref().iter().all(|v| v.len() == dim && v.iter().all(|x| x.is_finite()));
            if !ok {
                return Err(at.error(m.span(), format!("{}: expected two lists of {dim} finite numbers", key("means"))));
            }
            [Array1::from(m.get_ref()[0].clone()), Array1::from(m.get_ref()[1].clone())]
        }
        _ => return Err(at.error(span, format!("{}: give exactly one of `mean_norm` and `means`", key("mean_norm")))),
    };
    let variances = match &d.variances {
        None => None,
        Some(v) => Some(variances(v, dim, &key("variances"), at)?),
    };
    GaussianMixture::new(means, variances).map_err(|e| at.error(span, format!("datasets[{i}]: {e}")))
}

/// One list of `dim` positive variances (shared) or two lists (per class).
fn variances(v: &Spanned<Value>, dim: usize, key: &str, at: &Located) -> Result<[Array1<f64>; 2]> {
    let bad = || at.error(v.span(), format!("{key}: expected {dim} positive numbers, or two such lists"));
    let list = |x: &Value| -> Option<Array1<f64>> {
        let a = x.as_array()?;
        let vals: Option<Vec<f64>> = a
            .iter()
            .map(|e| e.as_float().or_else(|| e.as_integer().map(|i| i as f64)))
            .collect();
        vals.filter(|v| v.len() == dim && v.iter().all(|x| x.is_finite() && *x > 0.0)).map(Array1::from)
    };
    let outer = v.get_ref().as_array().ok_or_else(bad)?;
    if outer.len() == 2 && outer.iter().all(|x| x.is_array()) {
        Ok([list(&outer[0]).ok_or_else(bad)?, list(&outer[1]).ok_or_else(bad)?])
    } else {
        let shared = list(v.get_ref()).ok_or_else(bad)?;
        Ok([shared.clone(), shared])
    }
}

/// The optional keys each method kind accepts.
fn allowed_keys(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "qlds" => &["alpha_l", "alpha_u", "lambda", "epsilon", "select", "grid", "folds", "theory_scale"],
        "ls_svm" | "gb_ssl" => &["lambda", "epsilon", "folds"],
        "spectral" => &[],
        "self_training" => &["lambda", "epsilon", "policy", "step", "theta", "max_rounds"],
        _ => return None,
    })
}

fn method(m: Spanned<raw::Method>, i: usize, at: &Located) -> Result<MethodSpec> {
    let span = m.span();
    let m = m.into_inner();
    let key = |k: &str| format!("methods[{i}].{k}");
    let kind = m.kind.get_ref().clone();
    if let Some(graph_kind) = GraphKind::from_name(&kind) {
        return graph_method(m, graph_kind, i, at);
    }
    if svmlin::KINDS.contains(&kind.as_str()) {
        return svmlin::method(m, i, span, at);
    }
    let allowed = allowed_keys(&kind).ok_or_else(|| {
        at.error(
            m.kind.span(),
            format!(
                "{}: unknown kind `{kind}` (known: qlds, ls_svm, gb_ssl, spectral, self_training, {}, {})",
                key("kind"),
                GraphKind::ALL.map(|k| k.name()).join(", "),
                svmlin::KINDS.join(", ")
            ),
        )
    })?;
    if let Some((name, s)) = m.present().into_iter().find(|(name, _)| !allowed.contains(name)) {
        return Err(at.error(s, format!("{}: not a parameter of `{kind}`", key(name))));
    }
    // Maps a parameter error of a checked type to the line of the offending key.
    let param_error = |e: Error| {
        let (line_span, message) = match &e {
            Error::Param { param, message } => (
                m.present().into_iter().find(|(n, _)| n == param).map(|(_, s)| s),
                format!("{}: {message}", key(param)),
            ),
            other => (None, other.to_string()),
        };
        at.error(line_span.unwrap_or(span.clone()), message)
    };
    if let Some(sel) = &m.select {
        return select(&m, sel, i, at);
    }
    if let Some((name, s)) = m.present().into_iter().find(|(n, _)| kind == "qlds" && ["grid", "folds", "theory_scale"].contains(n)) {
        return Err(at.error(s, format!("{}: only used with `select`", key(name))));
    }
    // `lambda = "cv"` on ls_svm / gb_ssl: λ by cross-validation around the top eigenvalue.
    let lambda_cv = m.lambda.as_ref().is_some_and(|l| l.get_ref().as_str() == Some("cv"));
    if let Some((n, s)) = m.present().into_iter().find(|(n, _)| *n == "folds" && kind != "qlds" && !lambda_cv) {
        return Err(at.error(s, format!("{}: only used with lambda = \"cv\"", key(n))));
    }
    let lambda = if lambda_cv {
        LambdaPolicy::MaxEigAll { epsilon: m.epsilon.as_ref().map_or(LambdaPolicy::EPSILON, |e| *e.get_ref()) }
    } else {
        lambda_policy(&m, &key, at)?
    };
    let name = |default: String| m.name.as_ref().map(|n| n.get_ref().clone()).unwrap_or(default);
    let (default_name, method) = match kind.as_str() {
        "spectral" => ("Spectral".to_string(), Method::Spectral(Spectral)),
        "self_training" => {
            let threshold = match m.policy.as_ref().map(|p| p.get_ref().as_str()) {
                None | Some("fraction") => Threshold::Fraction { step: m.step.as_ref().map_or(0.1, |s| *s.get_ref()) },
                Some("margin") => Threshold::Margin { theta: m.theta.as_ref().map_or(1.0, |s| *s.get_ref()) },
                Some(other) => {
                    let s = m.policy.as_ref().map(|p| p.span()).unwrap_or(span.clone());
                    return Err(at.error(s, format!("{}: unknown policy `{other}` (known: fraction, margin)", key("policy"))));
                }
            };
            let wrong = match threshold {
                Threshold::Fraction { .. } => m.theta.as_ref().map(|s| ("theta", s.span())),
                Threshold::Margin { .. } => m.step.as_ref().map(|s| ("step", s.span())),
            };
            if let Some((k, s)) = wrong {
                return Err(at.error(s, format!("{}: not used by this policy", key(k))));
            }
            let max_rounds = match &m.max_rounds {
                Some(r) => positive(r, &key("max_rounds"), at)?,
                None => SelfTrainingParams::default().max_rounds,
            };
            let st = SelfTrainingParams { threshold, max_rounds, lambda }.check().map_err(param_error)?;
            ("ST(LS-SVM)".to_string(), Method::SelfTraining(st))
        }
        _ => {
            let (alpha_l, alpha_u, default_name) = match kind.as_str() {
                "ls_svm" => (1.0, 0.0, "LS-SVM".to_string()),
                "gb_ssl" => (0.0, 1.0, "GB-SSL".to_string()),
                _ => {
                    let get = |v: &Option<Spanned<f64>>, n: &str| {
                        v.as_ref()
                            .map(|s| *s.get_ref())
                            .ok_or_else(|| at.error(span.clone(), format!("{}: required for `qlds`", key(n))))
                    };
                    let (l, u) = (get(&m.alpha_l, "alpha_l")?, get(&m.alpha_u, "alpha_u")?);
                    (l, u, format!("QLDS({l},{u})"))
                }
            };
            if lambda_cv {
                let folds = m.folds.as_ref().map_or(Ok(Policy::FOLDS), |f| positive(f, &key("folds"), at))?;
                let sel = SelectLambda::new(alpha_l, alpha_u, lambda, folds).map_err(param_error)?;
                (format!("{default_name}(cv λ)"), Method::SelectLambda(sel))
            } else {
                let qlds = QldsParams { alpha_l, alpha_u, lambda }.check().map_err(param_error)?;
                (default_name, Method::Qlds(qlds))
            }
        }
    };
    Ok(MethodSpec { name: name(default_name), kind, method })
}

/// `lambda` (a policy name or a number) and `epsilon` of a method entry.
fn lambda_policy(m: &raw::Method, key: &dyn Fn(&str) -> String, at: &Located) -> Result<LambdaPolicy> {
    let epsilon = m.epsilon.as_ref().map_or(LambdaPolicy::EPSILON, |e| *e.get_ref());
    let lambda = match &m.lambda {
        None => LambdaPolicy::MaxEigAll { epsilon },
        Some(v) => match v.get_ref() {
            Value::String(s) if s == "max_eig_all" => LambdaPolicy::MaxEigAll { epsilon },
            Value::String(s) if s == "max_eig_unlabeled" => LambdaPolicy::MaxEigUnlabeled { epsilon },
            Value::Float(x) => LambdaPolicy::Fixed(*x),
            Value::Integer(x) => LambdaPolicy::Fixed(*x as f64),
            _ => {
                return Err(at.error(
                    v.span(),
                    format!("{}: expected \"max_eig_all\", \"max_eig_unlabeled\" or a number", key("lambda")),
                ));
            }
        },
    };
    if let (LambdaPolicy::Fixed(_), Some(e)) = (lambda, &m.epsilon) {
        return Err(at.error(e.span(), format!("{}: only used with an eigenvalue λ policy", key("epsilon"))));
    }
    Ok(lambda)
}

/// A `qlds` entry with `select`: (α_l, α_u) chosen over a grid by theory, CV or oracle.
fn select(m: &raw::Method, sel: &Spanned<String>, i: usize, at: &Located) -> Result<MethodSpec> {
    let key = |k: &str| format!("methods[{i}].{k}");
    for (field, name) in [(&m.alpha_l, "alpha_l"), (&m.alpha_u, "alpha_u")] {
        if let Some(v) = field {
            return Err(at.error(v.span(), format!("{}: not used with `select` (the grid sets it)", key(name))));
        }
    }
    let only = |field: Option<std::ops::Range<usize>>, name: &str, policy: &str| match field {
        Some(span) => Err(at.error(span, format!("{}: only used with select = \"{policy}\"", key(name)))),
        None => Ok(()),
    };
    let policy = match sel.get_ref().as_str() {
        "th" => {
            only(m.folds.as_ref().map(|v| v.span()), "folds", "cv")?;
            let scale = match m.theory_scale.as_ref().map(|v| (v.get_ref().as_str(), v.span())) {
                None | Some(("labeled_within", _)) => Scale::LabeledWithin,
                Some(("none", _)) => Scale::None,
                Some((other, span)) => {
                    return Err(at.error(span, format!("{}: unknown `{other}` (known: labeled_within, none)", key("theory_scale"))));
                }
            };
            Policy::Theory { scale }
        }
        "cv" => {
            only(m.theory_scale.as_ref().map(|v| v.span()), "theory_scale", "th")?;
            let folds = m.folds.as_ref().map_or(Ok(Policy::FOLDS), |f| positive(f, &key("folds"), at))?;
            Policy::CrossValidation { folds }
        }
        "or" => {
            only(m.theory_scale.as_ref().map(|v| v.span()), "theory_scale", "th")?;
            only(m.folds.as_ref().map(|v| v.span()), "folds", "cv")?;
            Policy::Oracle
        }
        other => return Err(at.error(sel.span(), format!("{}: unknown `{other}` (known: th, cv, or)", key("select")))),
    };
    let points = m.grid.as_ref().map_or(Ok(Grid::DEFAULT_POINTS), |g| positive(g, &key("grid"), at))?;
    let lambda = lambda_policy(m, &key, at)?;
    let checked = SelectQlds::new(policy, Grid { points }, lambda).map_err(|e| {
        let (param, span) = match &e {
            Error::Param { param: "grid", .. } => ("grid", m.grid.as_ref().map(|s| s.span())),
            Error::Param { param: "folds", .. } => ("folds", m.folds.as_ref().map(|s| s.span())),
            Error::Param { param: "lambda", .. } => ("lambda", m.lambda.as_ref().map(|s| s.span())),
            Error::Param { param: "epsilon", .. } => ("epsilon", m.epsilon.as_ref().map(|s| s.span())),
            Error::Param { param, .. } => (*param, None),
            _ => ("select", None),
        };
        let message = match &e {
            Error::Param { message, .. } => message.clone(),
            other => other.to_string(),
        };
        at.error(span.unwrap_or(sel.span()), format!("{}: {message}", key(param)))
    })?;
    let name = m.name.as_ref().map(|n| n.get_ref().clone()).unwrap_or_else(|| format!("QLDS({})", policy.name()));
    Ok(MethodSpec { name, kind: "qlds".into(), method: Method::Select(checked) })
}

/// A graph or kernel method (`rls`, `svm`, `lap_rls`, `lap_svm`, `tv_rls`, `tv_svm`,
/// `cheeger_rls`, `cheeger_svm`): keys the method does not read are errors, missing ones
/// take the defaults of [`GraphParams::new`].
fn graph_method(m: raw::Method, kind: GraphKind, i: usize, at: &Located) -> Result<MethodSpec> {
    let key = |k: &str| format!("methods[{i}].{k}");
    let uses_graph = kind.uses_graph();
    for (name, span) in m.present() {
        let used = kind.parameters().contains(&name)
            || ["kernel_scale", "lambda"].contains(&name)
            || (uses_graph && (name == "k" || name == "weighting"));
        if !used {
            return Err(at.error(span, format!("{}: not a parameter of `{}`", key(name), kind.name())));
        }
    }
    let mut p = GraphParams::new(kind);
    let real = |v: &Option<Spanned<f64>>, default: f64| v.as_ref().map_or(default, |s| *s.get_ref());
    p.eta = real(&m.eta, p.eta);
    p.gamma = real(&m.gamma, p.gamma);
    p.mu = real(&m.mu, p.mu);
    p.r1 = real(&m.r1, p.r1);
    p.r2 = real(&m.r2, p.r2);
    p.c = real(&m.c, p.c);
    p.kernel.scale = real(&m.kernel_scale, p.kernel.scale);
    if let Some(l) = &m.lambda {
        p.lambda = match l.get_ref() {
            Value::Float(x) => *x,
            Value::Integer(x) => *x as f64,
            _ => return Err(at.error(l.span(), format!("{}: expected a number", key("lambda")))),
        };
    }
    let count = |v: &Option<Spanned<i64>>, name: &str, default: usize| match v {
        Some(s) => positive(s, &key(name), at),
        None => Ok(default),
    };
    p.iterations = count(&m.iterations, "iterations", p.iterations)?;
    p.rof.max_iter = count(&m.rof_iterations, "rof_iterations", p.rof.max_iter)?;
    p.graph.k = count(&m.k, "k", p.graph.k)?;
    if let Some(w) = &m.weighting {
        p.graph.weighting = [Weighting::SelfTuning, Weighting::Gaussian, Weighting::Binary]
            .into_iter()
            .find(|x| x.name() == w.get_ref())
            .ok_or_else(|| at.error(w.span(), format!("{}: expected \"self_tuning\", \"gaussian\" or \"binary\"", key("weighting"))))?;
    }
    let method = p.check().map_err(|e| match e {
        Error::Param { param, message } => {
            let span = m.present().into_iter().find(|(n, _)| *n == param).map(|(_, s)| s);
            let span = match (param, &m.lambda) {
                ("lambda", Some(l)) => l.span(),
                _ => span.unwrap_or(m.kind.span()),
            };
            at.error(span, format!("{}: {message}", key(param)))
        }
        other => other,
    })?;
    let name = m.name.map(|n| n.into_inner()).unwrap_or_else(|| kind.label().to_string());
    Ok(MethodSpec { name, kind: kind.name().to_string(), method: Method::Graph(method) })
}
