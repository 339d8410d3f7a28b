//! A [`Model`] as a `.npz` archive that numpy reads alone (docs/output.md, "Saved models").
//! A linear model holds `weights` (d × K), `scale` (1,), `bias` (K,) and, when it centres
//! the rows, `center` (d,): scores (X @ weights − center @ weights) / scale + bias. It also
//! holds `coef` (K × d) and `intercept` (K,), scikit-learn's form of the same map (equal to
//! rounding): X @ coef.T + intercept. A neighbours model holds `rows`, `scores`, `k` and
//! `weighting` ([`Neighbours::arrays`]). Either may hold the dataset's preprocessing, which
//! raw rows take first ([`preprocessing`]).

use std::path::Path;

use ndarray::Array1;

use super::{Linear, Model, Neighbours};
use crate::data::npz::{self, Npz};
use crate::data::preprocess::{Learned, Preprocessing};
use crate::error::{Error, Result};

impl Model {
    /// Writes the model to `path` (`.npz`).
    pub fn save(&self, path: &Path) -> Result<()> {
        self.save_with(path, None)
    }

    /// Writes the model to `path` (`.npz`) with the preprocessing raw rows take first.
    pub fn save_with(&self, path: &Path, pre: Option<&Preprocessing>) -> Result<()> {
        let mut arrays = match self {
            Model::Linear(m) => linear_arrays(m),
            Model::Neighbours(m) => m.arrays(),
        };
        let named = pre.map(preprocessing_arrays).unwrap_or_default();
        arrays.extend(named.iter().map(|(n, shape, v)| (n.as_str(), shape.clone(), v.clone())));
        npz::write(path, &arrays)
    }

    /// Reads a model written by [`save`](Self::save).
    pub fn load(path: &Path) -> Result<Model> {
        let mut z = Npz::open(path)?;
        let hint = "a model written by `save_models = true`";
        match z.has("rows") {
            true => Ok(Model::Neighbours(Neighbours::read(&mut z, path, hint)?)),
            false => read_linear(&mut z, path, hint),
        }
    }
}

/// Step codes of the `preprocess` array.
const CENTER: f64 = 0.0;
const STANDARDIZE: f64 = 1.0;
const L2_ROWS: f64 = 2.0;
const TFIDF: f64 = 3.0;
const FIRST_COLUMNS: f64 = 4.0;

/// `preprocess` (one code per step), `raw_dim` and each step i's `preprocess_i_mean`,
/// `_scale`, `_idf` or `_columns`.
fn preprocessing_arrays(p: &Preprocessing) -> Vec<(String, Vec<usize>, Vec<f64>)> {
    let mut codes = Vec::new();
    let mut arrays = vec![("raw_dim".to_string(), vec![1], vec![p.raw_dim as f64])];
    let mut add = |i: usize, name: &str, v: &Array1<f64>| {
        arrays.push((format!("preprocess_{i}_{name}"), vec![v.len()], v.to_vec()));
    };
    for (i, step) in p.steps.iter().enumerate() {
        codes.push(match step {
            Learned::Center { mean, scale } => {
                add(i, "mean", mean);
                match scale {
                    Some(s) => {
                        add(i, "scale", s);
                        STANDARDIZE
                    }
                    None => CENTER,
                }
            }
            Learned::L2Rows => L2_ROWS,
            Learned::Tfidf(idf) => {
                add(i, "idf", idf);
                TFIDF
            }
            Learned::FirstColumns(n) => {
                add(i, "columns", &Array1::from_elem(1, *n as f64));
                FIRST_COLUMNS
            }
        });
    }
    arrays.push(("preprocess".to_string(), vec![codes.len()], codes));
    arrays
}

/// The preprocessing saved with the model in `path` (None: the model scores rows as given).
pub fn preprocessing(path: &Path) -> Result<Option<Preprocessing>> {
    let mut z = Npz::open(path)?;
    if !z.has("preprocess") {
        return Ok(None);
    }
    let hint = "a model written by `save_models = true`";
    let what = |name: &str| format!("{}: `{name}`", path.display());
    let mut vector = |name: &str| z.array(name, hint)?.vector(&what(name));
    let whole = |v: f64, name: &str| match v >= 0.0 && v.fract() == 0.0 {
        true => Ok(v as usize),
        false => Err(Error::Data(format!("{}: {v} is no count", what(name)))),
    };
    let raw = vector("raw_dim")?;
    let raw_dim = whole(raw.first().copied().unwrap_or(-1.0), "raw_dim")?;
    let codes = vector("preprocess")?;
    let mut steps = Vec::with_capacity(codes.len());
    for (i, &code) in codes.iter().enumerate() {
        let mut get = |name: &str| vector(&format!("preprocess_{i}_{name}"));
        steps.push(match code {
            CENTER => Learned::Center { mean: get("mean")?, scale: None },
            STANDARDIZE => Learned::Center { mean: get("mean")?, scale: Some(get("scale")?) },
            L2_ROWS => Learned::L2Rows,
            TFIDF => Learned::Tfidf(get("idf")?),
            FIRST_COLUMNS => {
                let n = get("columns")?;
                Learned::FirstColumns(whole(n.first().copied().unwrap_or(-1.0), "columns")?)
            }
            _ => return Err(Error::Data(format!("{}: step code {code}", what("preprocess")))),
        });
    }
    // Each step's arrays fit the width of the rows reaching it.
    let mut width = raw_dim;
    for (i, step) in steps.iter().enumerate() {
        let fits = match step {
            Learned::Center { mean, scale } => {
                mean.len() == width && scale.as_ref().is_none_or(|s| s.len() == width)
            }
            Learned::Tfidf(idf) => idf.len() == width,
            Learned::L2Rows => true,
            Learned::FirstColumns(n) => {
                width = width.min(*n);
                true
            }
        };
        if !fits {
            return Err(Error::Data(format!(
                "{}: step {i} does not fit rows of {width} features",
                what("preprocess")
            )));
        }
    }
    Ok(Some(Preprocessing { raw_dim, steps }))
}

/// A linear model's arrays.
fn linear_arrays(m: &Linear) -> Vec<(&'static str, Vec<usize>, Vec<f64>)> {
    let (d, k) = m.weights.dim();
    let shift = match &m.center {
        Some(c) => c.dot(&m.weights),
        None => Array1::zeros(k),
    };
    let coef = (&m.weights / m.scale).reversed_axes();
    let intercept = &m.bias - &(shift / m.scale);
    let mut arrays = vec![
        ("weights", vec![d, k], m.weights.as_standard_layout().iter().copied().collect()),
        ("scale", vec![1], vec![m.scale]),
        ("bias", vec![k], m.bias.to_vec()),
        ("coef", vec![k, d], coef.as_standard_layout().iter().copied().collect()),
        ("intercept", vec![k], intercept.to_vec()),
    ];
    if let Some(c) = &m.center {
        arrays.push(("center", vec![d], c.to_vec()));
    }
    arrays
}

/// A linear model from the arrays of [`linear_arrays`].
fn read_linear(z: &mut Npz, path: &Path, hint: &str) -> Result<Model> {
    let what = |name: &str| format!("{}: `{name}`", path.display());
    let weights = z.array("weights", hint)?.matrix(&what("weights"))?;
    let (d, k) = weights.dim();
    let scale = z.array("scale", hint)?.vector(&what("scale"))?;
    let bias = z.array("bias", hint)?.vector(&what("bias"))?;
    let center = match z.has("center") {
        true => Some(z.array("center", hint)?.vector(&what("center"))?),
        false => None,
    };
    let bad = |what: String| Error::Data(format!("{}: {what}", path.display()));
    if scale.len() != 1 || bias.len() != k {
        return Err(bad(format!(
            "`scale` has {} values (expected 1), `bias` {} (expected {k}, the columns of `weights`)",
            scale.len(),
            bias.len()
        )));
    }
    if let Some(c) = center.as_ref().filter(|c| c.len() != d) {
        return Err(bad(format!("`center` has {} values, `weights` {d} rows", c.len())));
    }
    Ok(Model::Linear(Linear { weights, center, scale: scale[0], bias }))
}
