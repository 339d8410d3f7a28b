//! Loading datasets into [`Dataset`]: registered datasets by name (from the data
//! directory, after `sslab data fetch`), SVMlight files by path, and official splits.

use std::path::{Path, PathBuf};

use ndarray::Array2;

use super::registry::{Format, Part, Registered, Registry, Rescale};
use super::svmlight::{self, SvmlightOptions};
use super::{Dataset, Features, h5, idx, mat, svmlin};
use crate::error::{Error, Result};

/// Loads registered dataset `name` from `root`: the parts `parts` (all when None) with
/// their rows stacked in that order.
pub fn load_named(
    reg: &Registry,
    name: &str,
    root: &Path,
    parts: Option<&[String]>,
) -> Result<Dataset> {
    let entry = reg.get(name)?;
    let chosen = chosen_parts(entry, name, parts)?;
    let mut blocks = Vec::new();
    let mut classes = Vec::new();
    let mut unknown = Vec::new();
    for part in chosen {
        let x = file(reg, root, name, &part.x)?;
        let y = part.y.as_ref().map(|y| file(reg, root, name, y)).transpose()?;
        let (features, labels, label_path) = read_part(entry, part, &x, y.as_deref())?;
        let (features, labels) = select_rows(features, labels, part.rows, &x)?;
        // SVMlin's unlabeled rows (label `unlabeled_label`): truth unknown.
        let offset = classes.len();
        let is_unknown = |v: &f64| entry.unlabeled_label == Some(*v);
        unknown.extend(
            labels.iter().enumerate().filter(|(_, v)| is_unknown(v)).map(|(i, _)| offset + i),
        );
        let known: Vec<f64> =
            labels.iter().map(|v| if is_unknown(v) { entry.labels[0] } else { *v }).collect();
        classes.extend(class_ids(&known, entry, label_path)?);
        blocks.push(features);
    }
    let mut data =
        Dataset::with_classes(stack(blocks, entry.features)?, classes, entry.class_names.clone())?;
    for i in unknown {
        data.y[i] = f64::NAN;
    }
    Ok(data)
}

/// Errors unless the files of the parts `parts` (all when None) of registered dataset `name`
/// are in `root`: what [`load_named`] reads, checked without reading it.
pub fn check_named(
    reg: &Registry,
    name: &str,
    root: &Path,
    parts: Option<&[String]>,
) -> Result<()> {
    for part in chosen_parts(reg.get(name)?, name, parts)? {
        present(root, name, &part.x)?;
        part.y.as_ref().map(|y| present(root, name, y)).transpose()?;
    }
    Ok(())
}

/// The parts named `parts` of a registered dataset, in that order (all when None).
fn chosen_parts<'a>(
    entry: &'a Registered,
    name: &str,
    parts: Option<&[String]>,
) -> Result<Vec<&'a Part>> {
    match parts {
        None => Ok(entry.parts.iter().collect()),
        Some(names) => names
            .iter()
            .map(|p| {
                entry.parts.iter().find(|q| &q.name == p).ok_or_else(|| {
                    let known: Vec<&str> = entry.parts.iter().map(|q| q.name.as_str()).collect();
                    Error::Data(format!(
                        "dataset `{name}` has no part `{p}` (parts: {})",
                        known.join(", ")
                    ))
                })
            })
            .collect(),
    }
}

/// Reads an SVMlight file given by path. `labels` lists the label values in class-id order;
/// None takes the distinct labels found, higher first when there are two (so +1/−1 and
/// 1/0 keep 1 as the positive class), ascending otherwise. Class names are the labels.
pub fn load_svmlight(
    path: &Path,
    n_features: Option<usize>,
    labels: Option<Vec<f64>>,
) -> Result<Dataset> {
    let opts = SvmlightOptions { n_features, unlabeled: false, labels: labels.clone() };
    let file = svmlight::read(path, &opts)?;
    let labels = labels.unwrap_or_else(|| {
        let mut seen: Vec<f64> = Vec::new();
        for v in &file.labels {
            if !seen.contains(v) {
                seen.push(*v);
            }
        }
        seen.sort_by(f64::total_cmp);
        if seen.len() == 2 {
            seen.reverse();
        }
        seen
    });
    let classes =
        file.labels.iter().map(|v| labels.iter().position(|l| l == v).unwrap_or(0)).collect();
    Dataset::with_classes(
        Features::Sparse(file.x),
        classes,
        labels.iter().map(|v| format!("{v}")).collect(),
    )
}

/// The official splits of registered dataset `name` with `labeled` labelled points, as
/// 0-based row indices into the full dataset of `n_rows` rows (the file's sha256 checked).
pub fn official_splits(
    reg: &Registry,
    name: &str,
    root: &Path,
    labeled: usize,
    n_rows: usize,
) -> Result<Vec<Vec<usize>>> {
    mat::read_splits(&file(reg, root, name, splits_file(reg, name, labeled)?)?, n_rows)
}

/// The file of the official splits of registered dataset `name` with `labeled` labelled
/// points, when the registry lists them and the file is in `root` (not read).
pub fn official_file(reg: &Registry, name: &str, root: &Path, labeled: usize) -> Result<PathBuf> {
    present(root, name, splits_file(reg, name, labeled)?)
}

/// The registry's path of the official splits of `name` with `labeled` labelled points.
fn splits_file<'r>(reg: &'r Registry, name: &str, labeled: usize) -> Result<&'r str> {
    let entry = reg.get(name)?;
    match entry.splits.get(&labeled.to_string()) {
        Some(rel) => Ok(rel),
        None => {
            let known: Vec<&str> = entry.splits.keys().map(String::as_str).collect();
            Err(Error::Data(format!(
                "dataset `{name}` has no official splits with {labeled} labelled points (have: {})",
                if known.is_empty() { "none".to_string() } else { known.join(", ") }
            )))
        }
    }
}

/// `root/rel` after its sha256 check ([`super::verify`]), or an error telling how to
/// fetch it.
fn file(reg: &Registry, root: &Path, name: &str, rel: &str) -> Result<PathBuf> {
    let path = present(root, name, rel)?;
    if let Some(entry) = reg.files.get(rel) {
        super::verify::check(root, rel, entry, name)?;
    }
    Ok(path)
}

/// `root/rel` when it is a file (not read), or an error telling how to fetch it.
fn present(root: &Path, name: &str, rel: &str) -> Result<PathBuf> {
    let path = root.join(rel);
    if path.is_file() {
        Ok(path)
    } else {
        Err(Error::Data(format!(
            "{} is missing: run `sslab data fetch {name}` (or `make data`); the data directory is $SSLAB_DATA_DIR, else `data` in the working folder",
            path.display()
        )))
    }
}

/// Features and labels of one part, and the file the labels came from.
fn read_part<'a>(
    entry: &Registered,
    part: &Part,
    x: &'a Path,
    y: Option<&'a Path>,
) -> Result<(Features, Vec<f64>, &'a Path)> {
    let n_features = Some(entry.features);
    let need_y = || {
        y.ok_or_else(|| Error::Data(format!("{}: registry part has no label file", x.display())))
    };
    let (x_var, y_var) =
        (part.x_var.as_deref().unwrap_or_default(), part.y_var.as_deref().unwrap_or_default());
    match entry.format {
        Format::Svmlight => {
            let opts = SvmlightOptions {
                n_features,
                unlabeled: false,
                labels: Some(entry.labels.clone()),
            };
            let f = svmlight::read(x, &opts)?;
            Ok((Features::Sparse(f.x), f.labels, x))
        }
        Format::Mat => {
            let file = mat::read(x)?;
            let features = file.features(x_var, entry.sparse)?;
            let labels = same_rows(file.vector(y_var)?, features.nrows(), x)?;
            let features = match features {
                Features::Dense(d) => Features::Dense(width(d, entry.features, x)?),
                Features::Sparse(c) if c.ncols() == entry.features => Features::Sparse(c),
                Features::Sparse(c) => return Err(width_error(c.ncols(), entry.features, x)),
            };
            Ok((features, labels, x))
        }
        Format::H5 => {
            let features = width(h5::read_matrix(x, x_var)?, entry.features, x)?;
            let labels = same_rows(h5::read_vector(x, y_var)?, features.nrows(), x)?;
            Ok((Features::Dense(rescale(features, entry.rescale)), labels, x))
        }
        Format::Svmlin => {
            let y = need_y()?;
            let set = svmlin::read(x, y, n_features)?;
            Ok((Features::Sparse(set.x), set.labels.to_vec(), y))
        }
        Format::Idx => {
            let y = need_y()?;
            let (features, labels) = idx::read(x, y)?;
            Ok((Features::Dense(width(features, entry.features, x)?), labels, y))
        }
    }
}

/// Rows `first..=last` (1-based) of a part's features and labels.
fn select_rows(
    x: Features,
    labels: Vec<f64>,
    rows: Option<[usize; 2]>,
    path: &Path,
) -> Result<(Features, Vec<f64>)> {
    let Some([first, last]) = rows else {
        return Ok((x, labels));
    };
    if first == 0 || first > last || last > labels.len() {
        return Err(Error::Data(format!(
            "{}: rows {first}..={last} requested but the file has {}",
            path.display(),
            labels.len()
        )));
    }
    let keep: Vec<usize> = (first - 1..last).collect();
    Ok((x.select_rows(&keep), labels[first - 1..last].to_vec()))
}

/// `round(scale·v + shift, decimals)` of every value (k / 10^d with k an integer is the
/// same f64 as the decimal k·10^-d written out, so the rounding is exact).
fn rescale(mut x: Array2<f64>, rescale: Option<Rescale>) -> Array2<f64> {
    if let Some(Rescale { scale, shift, decimals }) = rescale {
        let p = 10f64.powi(decimals);
        x.mapv_inplace(|v| ((scale * v + shift) * p).round() / p);
    }
    x
}

fn width(x: Array2<f64>, features: usize, path: &Path) -> Result<Array2<f64>> {
    if x.ncols() == features { Ok(x) } else { Err(width_error(x.ncols(), features, path)) }
}

fn width_error(cols: usize, features: usize, path: &Path) -> Error {
    Error::Data(format!("{}: {cols} columns but the registry declares {features}", path.display()))
}

fn same_rows(labels: Vec<f64>, rows: usize, path: &Path) -> Result<Vec<f64>> {
    if labels.len() == rows {
        Ok(labels)
    } else {
        Err(Error::Data(format!("{}: {} labels for {rows} rows", path.display(), labels.len())))
    }
}

fn class_ids(labels: &[f64], entry: &Registered, path: &Path) -> Result<Vec<usize>> {
    labels
        .iter()
        .enumerate()
        .map(|(i, v)| {
            entry.labels.iter().position(|l| l == v).ok_or_else(|| {
                Error::Data(format!(
                    "{}: row {}: unknown label {v} (known: {:?})",
                    path.display(),
                    i + 1,
                    entry.labels
                ))
            })
        })
        .collect()
}

/// Rows of several blocks one under the other (a single block is returned as is).
fn stack(mut blocks: Vec<Features>, n_cols: usize) -> Result<Features> {
    if blocks.len() == 1
        && let Some(only) = blocks.pop()
    {
        return Ok(only);
    }
    Features::stack(&blocks.iter().collect::<Vec<_>>(), n_cols)
}
