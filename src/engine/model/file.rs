//! A [`Model`] as a `.npz` archive that numpy reads alone (docs/output.md, "Saved models").
//! A linear model holds `weights` (d × K), `scale` (1,), `bias` (K,) and, when it centres
//! the rows, `center` (d,): scores (X @ weights − center @ weights) / scale + bias. It also
//! holds `coef` (K × d) and `intercept` (K,), scikit-learn's form of the same map (equal to
//! rounding): X @ coef.T + intercept. A neighbours model holds `rows`, `scores`, `k` and
//! `weighting` ([`Neighbours::arrays`]).

use std::path::Path;

use ndarray::Array1;

use super::{Linear, Model, Neighbours};
use crate::data::npz::{self, Npz};
use crate::error::{Error, Result};

impl Model {
    /// Writes the model to `path` (`.npz`).
    pub fn save(&self, path: &Path) -> Result<()> {
        match self {
            Model::Linear(m) => npz::write(path, &linear_arrays(m)),
            Model::Neighbours(m) => npz::write(path, &m.arrays()),
        }
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
