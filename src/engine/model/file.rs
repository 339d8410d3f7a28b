//! A [`Model`] as a `.npz` archive that numpy reads alone (docs/output.md, "Saved models").
//! A linear model holds `weights` (d × K), `scale` (1,), `bias` (K,) and, when it centres
//! the rows, `center` (d,): scores (X @ weights − center @ weights) / scale + bias. It also
//! holds `coef` (K × d) and `intercept` (K,), scikit-learn's form of the same map (equal to
//! rounding): X @ coef.T + intercept. A one-vs-rest model holds `one_vs_rest` (K) and the
//! arrays of class k's binary model prefixed `class{k}_`.

use std::path::Path;

use ndarray::Array1;

use super::one_vs_rest::prefix;
use super::{Linear, Model, OneVsRest};
use crate::data::npz::{self, Npz};
use crate::error::{Error, Result};

/// One array of an archive: name, shape, values in C order.
type Array = (String, Vec<usize>, Vec<f64>);

impl Model {
    /// Writes the model to `path` (`.npz`).
    pub fn save(&self, path: &Path) -> Result<()> {
        let arrays = self.arrays("");
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
