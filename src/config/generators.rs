//! The generator dataset kinds: `synthetic` (a Gaussian mixture) and `sparse_text`
//! (two-topic documents), sampled afresh for every split.

use std::ops::Range;

use ndarray::Array1;
use toml::{Spanned, Value};

use super::raw;
use super::values::positive;
use crate::data::sparse_text::SparseText;
use crate::data::synthetic::GaussianMixture;
use crate::engine::{Located, memory};
use crate::error::Result;

pub(super) fn synthetic(
    d: &raw::Dataset,
    i: usize,
    span: Range<usize>,
    at: Located,
) -> Result<GaussianMixture> {
    let key = |k: &str| format!("datasets[{i}].{k}");
    let dim = match &d.dim {
        Some(v) => within_memory(positive(v, &key("dim"), at)?, 32, v, &key("dim"), at)?,
        None => {
            return Err(at.error(span, format!("{}: required for a synthetic dataset", key("dim"))));
        }
    };
    let means = match (&d.mean_norm, &d.means) {
        (Some(norm), None) => {
            let n = *norm.get_ref();
            if !(n.is_finite() && n >= 0.0) {
                return Err(
                    at.error(norm.span(), format!("{}: must be finite and ≥ 0", key("mean_norm")))
                );
            }
            let mu = Array1::from_elem(dim, n / (dim as f64).sqrt());
            [mu.clone(), -mu]
        }
        (None, Some(m)) => {
            let ok = m.get_ref().len() == 2
                && m.get_ref().iter().all(|v| v.len() == dim && v.iter().all(|x| x.is_finite()));
            if !ok {
                return Err(at.error(
                    m.span(),
                    format!("{}: expected two lists of {dim} finite numbers", key("means")),
                ));
            }
            [Array1::from(m.get_ref()[0].clone()), Array1::from(m.get_ref()[1].clone())]
        }
        _ => {
            return Err(at.error(
                span,
                format!("{}: give exactly one of `mean_norm` and `means`", key("mean_norm")),
            ));
        }
    };
    let variances = match &d.variances {
        None => None,
        Some(v) => Some(variances(v, dim, &key("variances"), at)?),
    };
    GaussianMixture::new(means, variances)
        .map_err(|e| at.error(span, format!("datasets[{i}]: {e}")))
}

/// One list of `dim` positive variances (shared) or two lists (per class).
fn variances(v: &Spanned<Value>, dim: usize, key: &str, at: Located) -> Result<[Array1<f64>; 2]> {
    let bad =
        || at.error(v.span(), format!("{key}: expected {dim} positive numbers, or two such lists"));
    let list = |x: &Value| -> Option<Array1<f64>> {
        let a = x.as_array()?;
        let vals: Option<Vec<f64>> =
            a.iter().map(|e| e.as_float().or_else(|| e.as_integer().map(|i| i as f64))).collect();
        vals.filter(|v| v.len() == dim && v.iter().all(|x| x.is_finite() && *x > 0.0))
            .map(Array1::from)
    };
    let outer = v.get_ref().as_array().ok_or_else(bad)?;
    if outer.len() == 2 && outer.iter().all(|x| x.is_array()) {
        Ok([list(&outer[0]).ok_or_else(bad)?, list(&outer[1]).ok_or_else(bad)?])
    } else {
        let shared = list(v.get_ref()).ok_or_else(bad)?;
        Ok([shared.clone(), shared])
    }
}

/// A `sparse_text` dataset: `dim` (vocabulary) and `nnz_per_doc` required, `topic_weight`
/// (default 0.1) and `zipf_exponent` (default 1) optional; no Gaussian or file keys.
pub(super) fn sparse_text(
    d: &raw::Dataset,
    i: usize,
    span: Range<usize>,
    at: Located,
) -> Result<SparseText> {
    let key = |k: &str| format!("datasets[{i}].{k}");
    let count =
        |v: &Option<Spanned<i64>>, name: &str| match v {
            None => Err(at
                .error(span.clone(), format!("{}: required for a sparse_text dataset", key(name)))),
            Some(s) => usize::try_from(*s.get_ref()).ok().filter(|n| *n >= 1).ok_or_else(|| {
                at.error(s.span(), format!("{}: must be ≥ 1, got {}", key(name), s.get_ref()))
            }),
        };
    let (vocabulary, nnz) = (count(&d.dim, "dim")?, count(&d.nnz_per_doc, "nnz_per_doc")?);
    if let Some(v) = &d.dim {
        within_memory(vocabulary, 32, v, &key("dim"), at)?;
    }
    let weight = d.topic_weight.as_ref().map_or(SparseText::TOPIC_WEIGHT, |w| *w.get_ref());
    let exponent = d.zipf_exponent.as_ref().map_or(SparseText::ZIPF_EXPONENT, |e| *e.get_ref());
    SparseText::new(vocabulary, nnz, weight, exponent)
        .map_err(|e| at.error(span, format!("datasets[{i}]: {e}")))
}

/// `count` when `count × bytes` fits in the memory limit, else an error at `v`'s line.
fn within_memory(
    count: usize,
    bytes: usize,
    v: &Spanned<i64>,
    key: &str,
    at: Located,
) -> Result<usize> {
    let need = count as f64 * bytes as f64;
    let limit = memory::limit()?;
    if need > limit {
        return Err(at.error(
            v.span(),
            format!(
                "{key}: {count} needs about {}, above the memory limit of {} (SSLAB_MEMORY_LIMIT)",
                memory::human(need),
                memory::human(limit)
            ),
        ));
    }
    Ok(count)
}
