//! Checked experiment types and the validation from [`raw`](super::raw).

use std::collections::HashSet;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use ndarray::Array1;
use toml::{Spanned, Value};

use super::{Located, raw, real};
use crate::data::Dataset;
use crate::data::synthetic::GaussianMixture;
use crate::error::{Error, Result};
use crate::methods::Method;
use crate::methods::qlds::{LambdaPolicy, QldsParams, Spectral};
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

/// Where a dataset's points come from.
#[derive(Debug, Clone)]
pub enum DataSource {
    /// A Gaussian mixture, freshly sampled for every split.
    Synthetic(GaussianMixture),
    /// A binary dataset read from files (`named` or `svmlight`), loaded once per run;
    /// splits are drawn from its rows.
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
    /// The config `kind` (`qlds`, `ls_svm`, `gb_ssl`, `spectral`).
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
    let datasets = raw
        .datasets
        .into_iter()
        .enumerate()
        .map(|(i, d)| dataset(d, i, splits, at))
        .collect::<Result<Vec<_>>>()?;
    let methods = raw
        .methods
        .into_iter()
        .enumerate()
        .map(|(i, m)| method(m, i, at))
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

fn dataset(d: Spanned<raw::Dataset>, i: usize, splits: usize, at: &Located) -> Result<DatasetSpec> {
    let span = d.span();
    let d = d.into_inner();
    let key = |k: &str| format!("datasets[{i}].{k}");
    let (source, official_sizes) = match d.kind.get_ref().as_str() {
        "synthetic" => {
            real::check_keys(&d, i, at)?;
            (DataSource::Synthetic(synthetic(&d, i, span.clone(), at)?), None)
        }
        "named" | "svmlight" => {
            real::check_keys(&d, i, at)?;
            real::source(&d, i, span.clone(), splits, at)?
        }
        other => {
            return Err(at.error(
                d.kind.span(),
                format!("{}: unknown kind `{other}` (known: synthetic, named, svmlight)", key("kind")),
            ));
        }
    };
    let sizes = |total: &Option<Spanned<i64>>, per: &Option<Spanned<Value>>, name: &str| {
        match (total, per) {
            (Some(t), None) => Ok(Sizes::Total(positive(t, &key(name), at)?)),
            (None, Some(p)) => per_class(p, &key(&format!("{name}_per_class")), at).map(Sizes::PerClass),
            _ => Err(at.error(
                span.clone(),
                format!("{}: give exactly one of `{name}` and `{name}_per_class`", key(name)),
            )),
        }
    };
    let (labeled, unlabeled) = match official_sizes {
        Some(official) => {
            let given = [&d.labeled, &d.unlabeled].into_iter().flatten().map(|v| v.span());
            let mut given = given.chain([&d.labeled_per_class, &d.unlabeled_per_class].into_iter().flatten().map(|v| v.span()));
            if let Some(s) = given.next() {
                return Err(at.error(s, format!("datasets[{i}]: official splits fix the split sizes; remove the size keys")));
            }
            official
        }
        None => (sizes(&d.labeled, &d.labeled_per_class, "labeled")?, sizes(&d.unlabeled, &d.unlabeled_per_class, "unlabeled")?),
    };
    if let DataSource::Loaded(data) = &source
        && data.official_splits.is_none()
    {
        real::check_fit(&data.dataset, labeled, unlabeled, span.clone(), i, at)?;
    }
    Ok(DatasetSpec { name: d.name.get_ref().clone(), labeled, unlabeled, source })
}

/// `n` (the same for both classes) or `[n1, n2]`, each ≥ 1.
fn per_class(v: &Spanned<Value>, key: &str, at: &Located) -> Result<[usize; 2]> {
    let bad = || at.error(v.span(), format!("{key}: expected an integer ≥ 1 or two of them, [n1, n2]"));
    let count = |x: &Value| x.as_integer().and_then(|n| usize::try_from(n).ok()).filter(|n| *n >= 1);
    match v.get_ref() {
        Value::Array(a) if a.len() == 2 => Ok([count(&a[0]).ok_or_else(bad)?, count(&a[1]).ok_or_else(bad)?]),
        x => count(x).map(|n| [n, n]).ok_or_else(bad),
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

fn method(m: Spanned<raw::Method>, i: usize, at: &Located) -> Result<MethodSpec> {
    let span = m.span();
    let m = m.into_inner();
    let key = |k: &str| format!("methods[{i}].{k}");
    let kind = m.kind.get_ref().clone();
    let forbid = |field: &Option<Spanned<f64>>, name: &str| match field {
        Some(v) => Err(at.error(v.span(), format!("{}: not a parameter of `{kind}`", key(name)))),
        None => Ok(()),
    };
    let fixed_alphas = match kind.as_str() {
        "qlds" => None,
        "ls_svm" => Some((1.0, 0.0)),
        "gb_ssl" => Some((0.0, 1.0)),
        "spectral" => {
            forbid(&m.alpha_l, "alpha_l")?;
            forbid(&m.alpha_u, "alpha_u")?;
            forbid(&m.epsilon, "epsilon")?;
            if let Some(l) = &m.lambda {
                return Err(at.error(l.span(), format!("{}: not a parameter of `spectral`", key("lambda"))));
            }
            let name = m.name.map(|n| n.into_inner()).unwrap_or_else(|| "Spectral".into());
            return Ok(MethodSpec { name, kind, method: Method::Spectral(Spectral) });
        }
        other => {
            return Err(at.error(
                m.kind.span(),
                format!("{}: unknown kind `{other}` (known: qlds, ls_svm, gb_ssl, spectral)", key("kind")),
            ));
        }
    };
    let (alpha_l, alpha_u) = match fixed_alphas {
        Some(a) => {
            forbid(&m.alpha_l, "alpha_l")?;
            forbid(&m.alpha_u, "alpha_u")?;
            a
        }
        None => {
            let get = |v: &Option<Spanned<f64>>, name: &str| {
                v.as_ref().map(|s| *s.get_ref()).ok_or_else(|| {
                    at.error(span.clone(), format!("{}: required for `qlds`", key(name)))
                })
            };
            (get(&m.alpha_l, "alpha_l")?, get(&m.alpha_u, "alpha_u")?)
        }
    };
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
    let qlds = QldsParams { alpha_l, alpha_u, lambda }.check().map_err(|e| {
        let field_span = match &e {
            Error::Param { param: "alpha_l", .. } => m.alpha_l.as_ref().map(|s| s.span()),
            Error::Param { param: "alpha_u", .. } => m.alpha_u.as_ref().map(|s| s.span()),
            Error::Param { param: "lambda", .. } => m.lambda.as_ref().map(|s| s.span()),
            Error::Param { param: "epsilon", .. } => m.epsilon.as_ref().map(|s| s.span()),
            _ => None,
        };
        let param = match &e {
            Error::Param { param, message } => format!("{}: {message}", key(param)),
            other => other.to_string(),
        };
        at.error(field_span.unwrap_or(span.clone()), param)
    })?;
    let default_name = match kind.as_str() {
        "ls_svm" => "LS-SVM".to_string(),
        "gb_ssl" => "GB-SSL".to_string(),
        _ => format!("QLDS({alpha_l},{alpha_u})"),
    };
    let name = m.name.map(|n| n.into_inner()).unwrap_or(default_name);
    Ok(MethodSpec { name, kind, method: Method::Qlds(qlds) })
}
