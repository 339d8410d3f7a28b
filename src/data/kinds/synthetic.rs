//! `kind = "synthetic"`: a two-class Gaussian mixture, sampled afresh for every split.
//! Keys: `dim`; `mean_norm` (μ₁ = −μ₂ along (1, …, 1)) or `means` (two lists); optional
//! `variances` (one list, or one per class); `test = { per_class }`.

use ndarray::Array1;
use rand_chacha::ChaCha8Rng;
use toml::Value;

use super::{DatasetKind, Source, count_within_memory};
use crate::data::synthetic::GaussianMixture;
use crate::data::{Dataset, Generator, Sampler};
use crate::error::Result;
use crate::support::Entry;

/// The `synthetic` dataset kind.
pub struct Synthetic;

impl DatasetKind for Synthetic {
    fn kind(&self) -> &'static str {
        "synthetic"
    }

    fn read(&self, entry: &Entry, _splits: usize) -> Result<Source> {
        entry.only(&["dim", "mean_norm", "means", "variances", "test"])?;
        let dim = count_within_memory(entry, "dim", 32)?;
        let means = match (entry.f64("mean_norm")?, entry.get::<Vec<Vec<f64>>>("means")?) {
            (Some(n), None) => {
                if !(n.is_finite() && n >= 0.0) {
                    return Err(entry.error("mean_norm", "must be finite and ≥ 0"));
                }
                let mu = Array1::from_elem(dim, n / (dim as f64).sqrt());
                [mu.clone(), -mu]
            }
            (None, Some(m)) => {
                if !(m.len() == 2
                    && m.iter().all(|v| v.len() == dim && v.iter().all(|x| x.is_finite())))
                {
                    return Err(
                        entry.error("means", format!("expected two lists of {dim} finite numbers"))
                    );
                }
                [Array1::from(m[0].clone()), Array1::from(m[1].clone())]
            }
            _ => {
                return Err(entry.error_at(
                    "mean_norm",
                    format!(
                        "{}: give exactly one of `mean_norm` and `means`",
                        entry.key("mean_norm")
                    ),
                ));
            }
        };
        let variances = match entry.value("variances") {
            None => None,
            Some(v) => Some(variances(v, dim).ok_or_else(|| {
                entry.error(
                    "variances",
                    format!("expected {dim} positive numbers, or two such lists"),
                )
            })?),
        };
        let mixture = GaussianMixture::new(means, variances)
            .map_err(|e| entry.entry_error(format!("{}: {e}", entry.name())))?;
        Source::generated(entry, mixture)
    }
}

/// One list of `dim` positive variances (shared) or two lists (per class).
fn variances(v: &Value, dim: usize) -> Option<[Array1<f64>; 2]> {
    let list = |x: &Value| -> Option<Array1<f64>> {
        let a = x.as_array()?;
        let vals: Option<Vec<f64>> =
            a.iter().map(|e| e.as_float().or_else(|| e.as_integer().map(|i| i as f64))).collect();
        vals.filter(|v| v.len() == dim && v.iter().all(|x| x.is_finite() && *x > 0.0))
            .map(Array1::from)
    };
    let outer = v.as_array()?;
    if outer.len() == 2 && outer.iter().all(|x| x.is_array()) {
        Some([list(&outer[0])?, list(&outer[1])?])
    } else {
        let shared = list(v)?;
        Some([shared.clone(), shared])
    }
}

impl Generator for GaussianMixture {
    fn draw(&self, counts: [usize; 2], rng: &mut ChaCha8Rng) -> Dataset {
        self.sample(counts, rng)
    }

    fn dim(&self) -> usize {
        GaussianMixture::dim(self)
    }

    fn row_bytes(&self) -> f64 {
        8.0 * GaussianMixture::dim(self) as f64
    }

    fn mixture(&self) -> Option<&GaussianMixture> {
        Some(self)
    }
}
