//! A [`Model`] as a `.npz` archive that numpy reads alone (docs/output.md, "Saved models").
//! A linear model holds `weights` (d × K), `scale` (1,), `bias` (K,) and, when it centres
//! the rows, `center` (d,): scores (X @ weights − center @ weights) / scale + bias. It also
//! holds `coef` (K × d) and `intercept` (K,), scikit-learn's form of the same map (equal to
//! rounding): X @ coef.T + intercept. A one-vs-rest model holds `one_vs_rest` (K) and the
//! arrays of class k's binary model (of any kind) prefixed `class{k}_`. A neighbours model holds `rows`,
//! `scores`, `k` and `weighting` ([`Neighbours::arrays`]), a kernel expansion `support`, `coef`,
//! `bias`, `width`, `rule` and `rule_params` ([`KernelExpansion::arrays`]). Any may hold the dataset's
//! preprocessing, which raw rows take first ([`preprocessing`]).

use std::path::Path;

use ndarray::Array1;

use super::one_vs_rest::prefix;
use super::{KernelExpansion, Linear, Model, Neighbours, OneVsRest};
use crate::data::npz::{self, Npz};
use crate::data::preprocess::{Learned, Preprocessing};
use crate::error::{Error, Result};

/// One array of an archive: name, shape, values in C order.
type Array = (String, Vec<usize>, Vec<f64>);

impl Model {
    /// Writes the model to `path` (`.npz`).
    pub fn save(&self, path: &Path) -> Result<()> {
        self.save_with(path, None)
    }

    /// Writes the model to `path` (`.npz`) with the preprocessing raw rows take first.
    pub fn save_with(&self, path: &Path, pre: Option<&Preprocessing>) -> Result<()> {
        let mut arrays = self.arrays("");
        arrays.extend(pre.map(preprocessing_arrays).unwrap_or_default());
        let named: Vec<_> =
            arrays.iter().map(|(n, s, v)| (n.as_str(), s.clone(), v.clone())).collect();
        npz::write(path, &named)
    }

    /// The model's arrays, each name after `prefix`.
    fn arrays(&self, prefix_of: &str) -> Vec<Array> {
        let name = |n: &str| format!("{prefix_of}{n}");
        match self {
            Model::Linear(m) => {
                let (d, k) = m.weights.dim();
                let shift = match &m.center {
                    Some(c) => c.dot(&m.weights),
                    None => Array1::zeros(k),
                };
                let coef = (&m.weights / m.scale).reversed_axes();
                let intercept = &m.bias - &(shift / m.scale);
                let weights = m.weights.as_standard_layout().iter().copied().collect();
                let mut arrays = vec![
                    (name("weights"), vec![d, k], weights),
                    (name("scale"), vec![1], vec![m.scale]),
                    (name("bias"), vec![k], m.bias.to_vec()),
                    (name("coef"), vec![k, d], coef.as_standard_layout().iter().copied().collect()),
                    (name("intercept"), vec![k], intercept.to_vec()),
                ];
                if let Some(c) = &m.center {
                    arrays.push((name("center"), vec![d], c.to_vec()));
                }
                arrays
            }
            Model::OneVsRest(m) => {
                let k = m.models.len();
                let mut arrays = vec![(name("one_vs_rest"), vec![1], vec![k as f64])];
                for (c, model) in m.models.iter().enumerate() {
                    arrays.extend(model.arrays(&format!("{prefix_of}{}", prefix(c))));
                }
                arrays
            }
            Model::Neighbours(m) => {
                m.arrays().into_iter().map(|(n, shape, v)| (name(n), shape, v)).collect()
            }
            Model::Kernel(m) => {
                m.arrays().into_iter().map(|(n, shape, v)| (name(n), shape, v)).collect()
            }
        }
    }

    /// Reads a model written by [`save`](Self::save).
    pub fn load(path: &Path) -> Result<Model> {
        Model::read(&mut Npz::open(path)?, path, "")
    }

    /// The model of the arrays named after `prefix_of` in `z`.
    fn read(z: &mut Npz, path: &Path, prefix_of: &str) -> Result<Model> {
        let hint = "a model written by `save_models = true`";
        let name = |n: &str| format!("{prefix_of}{n}");
        let what = |n: &str| format!("{}: `{}`", path.display(), name(n));
        let bad = |what: String| Error::Data(format!("{}: {what}", path.display()));
        if z.has(&name("one_vs_rest")) {
            let k = z.array(&name("one_vs_rest"), hint)?.vector(&what("one_vs_rest"))?;
            let classes = match k.as_slice() {
                Some([k]) if *k >= 2.0 && k.fract() == 0.0 && *k <= 1e6 => *k as usize,
                _ => {
                    return Err(bad(format!(
                        "`{}` must hold one class count ≥ 2",
                        name("one_vs_rest")
                    )));
                }
            };
            let models = (0..classes)
                .map(|c| Model::read(z, path, &format!("{prefix_of}{}", prefix(c))))
                .collect::<Result<Vec<_>>>()?;
            return OneVsRest::new(models).map(Model::OneVsRest).map_err(|e| bad(e.to_string()));
        }
        if z.has(&name("rows")) {
            return Neighbours::read(z, path, prefix_of, hint).map(Model::Neighbours);
        }
        if z.has(&name("support")) {
            return KernelExpansion::read(z, path, prefix_of, hint).map(Model::Kernel);
        }
        let weights = z.array(&name("weights"), hint)?.matrix(&what("weights"))?;
        let (d, k) = weights.dim();
        let scale = z.array(&name("scale"), hint)?.vector(&what("scale"))?;
        let bias = z.array(&name("bias"), hint)?.vector(&what("bias"))?;
        let center = match z.has(&name("center")) {
            true => Some(z.array(&name("center"), hint)?.vector(&what("center"))?),
            false => None,
        };
        if scale.len() != 1 || bias.len() != k {
            return Err(bad(format!(
                "`{}` has {} values (expected 1), `{}` {} (expected {k}, the columns of `weights`)",
                name("scale"),
                scale.len(),
                name("bias"),
                bias.len()
            )));
        }
        if let Some(c) = center.as_ref().filter(|c| c.len() != d) {
            return Err(bad(format!(
                "`{}` has {} values, `weights` {d} rows",
                name("center"),
                c.len()
            )));
        }
        Ok(Model::Linear(Linear { weights, center, scale: scale[0], bias }))
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
fn preprocessing_arrays(p: &Preprocessing) -> Vec<Array> {
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
