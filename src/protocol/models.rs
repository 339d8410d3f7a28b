//! The models of a run with `[experiment] save_models = true`: each fit that leaves a model
//! writes it to `models/DATASET/SPLIT/METHOD.npz` in the run folder (docs/output.md, "Saved
//! models"), with what the dataset's `preprocess` learned, through a temporary file renamed into place, so a killed run leaves no half
//! file under the final name. Methods without a model (the RKHS graph kinds, external
//! programs) write none.

use std::path::{Path, PathBuf};

use crate::data::preprocess::Preprocessing;
use crate::engine::Model;
use crate::error::{Error, Result};

/// The file of the model of `method` fitted on split `split` of `dataset`, under `dir`
/// (a `/` in a name becomes `_`).
pub fn model_path(dir: &Path, dataset: &str, split: usize, method: &str) -> PathBuf {
    let clean = |s: &str| s.replace('/', "_");
    dir.join("models").join(clean(dataset)).join(split.to_string()).join(clean(method) + ".npz")
}

/// Writes `model` to [`model_path`], with the dataset's learned preprocessing `pre`.
pub fn save(
    dir: &Path,
    (dataset, split, method): (&str, usize, &str),
    model: &Model,
    pre: Option<&Preprocessing>,
) -> Result<()> {
    let path = model_path(dir, dataset, split, method);
    let folder = path.parent().expect("a model file has a folder");
    std::fs::create_dir_all(folder).map_err(|e| Error::io(folder, e))?;
    let temporary = path.with_extension("npz.part");
    model.save_with(&temporary, pre)?;
    std::fs::rename(&temporary, &path).map_err(|e| Error::io(&path, e))
}
