//! `[[datasets]]` entries read from files: `kind = "named"` (the registry) and
//! `kind = "svmlight"` (a path), with class selection, preprocessing and official splits.
//! The data are loaded here, once per run, so that file errors point at the config line.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use toml::Value;

use super::raw;
use crate::data::preprocess::{self, Step};
use crate::data::registry::Registry;
use crate::data::{DataSource, Dataset, Features, LoadedData, Sizes, load};
use crate::engine::Located;
use crate::error::Result;

/// Loads and prepares a file dataset; returns the source and, with official splits, the
/// split sizes they imply.
pub(super) fn source(
    d: &raw::Dataset,
    i: usize,
    span: Range<usize>,
    splits: usize,
    at: Located,
) -> Result<(DataSource, Option<(Sizes, Sizes)>)> {
    let key = |k: &str| format!("datasets[{i}].{k}");
    let located = |span: Range<usize>, k: &'static str| {
        move |e: crate::Error| at.error(span.clone(), format!("{}: {e}", key(k)))
    };
    let mut test_set: Option<Dataset> = None;
    let (mut data, official) = match d.kind.get_ref().as_str() {
        "named" => {
            let Some(name) = &d.dataset else {
                return Err(at.error(
                    span,
                    format!(
                        "{}: required for a named dataset (see configs/datasets.toml)",
                        key("dataset")
                    ),
                ));
            };
            let reg = Registry::builtin()?;
            let root = load::data_dir();
            let test_parts = d.test.as_ref().and_then(|t| t.get_ref().parts.clone());
            // Without `parts`, the pool is every part not held out for testing.
            let parts = match (&d.parts, &test_parts) {
                (Some(p), _) => Some(p.get_ref().clone()),
                (None, Some(test)) => Some(
                    reg.get(name.get_ref())?
                        .parts
                        .iter()
                        .map(|p| p.name.clone())
                        .filter(|p| !test.contains(p))
                        .collect(),
                ),
                (None, None) => None,
            };
            let data = load::load_named(&reg, name.get_ref(), &root, parts.as_deref())
                .map_err(located(name.span(), "dataset"))?;
            if let Some(test) = &test_parts {
                let span = d.test.as_ref().map_or(span.clone(), |t| t.span());
                test_set = Some(
                    load::load_named(&reg, name.get_ref(), &root, Some(test))
                        .map_err(located(span, "test"))?,
                );
            }
            let unknown = data.unknown_truth();
            let official = match &d.official_splits {
                None if !unknown.is_empty() => {
                    return Err(at.error(name.span(), format!(
                        "{}: {} rows have no label (the file's own split): use `official_splits = {}`",
                        key("dataset"),
                        unknown.len(),
                        data.len() - unknown.len()
                    )));
                }
                None => None,
                // The file's own split: its labelled rows, every split alike.
                Some(k) if !unknown.is_empty() => {
                    let known: Vec<usize> =
                        (0..data.len()).filter(|i| !data.y[*i].is_nan()).collect();
                    if usize::try_from(*k.get_ref()).ok() != Some(known.len()) {
                        return Err(at.error(
                            k.span(),
                            format!(
                                "{}: the file's own split labels {} rows",
                                key("official_splits"),
                                known.len()
                            ),
                        ));
                    }
                    Some(vec![known; splits])
                }
                Some(k) => {
                    let labeled = usize::try_from(*k.get_ref()).unwrap_or(0);
                    let s = load::official_splits(&reg, name.get_ref(), &root, labeled, data.len())
                        .map_err(located(k.span(), "official_splits"))?;
                    if splits > s.len() {
                        return Err(at.error(
                            k.span(),
                            format!(
                                "{}: {} official splits but experiment.splits = {splits}",
                                key("official_splits"),
                                s.len()
                            ),
                        ));
                    }
                    Some(s)
                }
            };
            (data, official)
        }
        _ => {
            let Some(path) = &d.path else {
                return Err(
                    at.error(span, format!("{}: required for an svmlight dataset", key("path")))
                );
            };
            let features = match &d.features {
                None => None,
                Some(f) => {
                    Some(usize::try_from(*f.get_ref()).ok().filter(|n| *n >= 1).ok_or_else(
                        || at.error(f.span(), format!("{}: must be ≥ 1", key("features"))),
                    )?)
                }
            };
            let labels = d.labels.as_ref().map(|l| l.get_ref().clone());
            let data = load::load_svmlight(Path::new(path.get_ref()), features, labels)
                .map_err(located(path.span(), "path"))?;
            if let Some(t) = &d.test
                && let Some(test) = &t.get_ref().path
            {
                // The pool's width and label order, so that columns and class ids agree.
                let order = data
                    .class_names
                    .iter()
                    .map(|c| c.parse::<f64>())
                    .collect::<std::result::Result<Vec<_>, _>>()
                    .ok();
                test_set = Some(
                    load::load_svmlight(Path::new(test), Some(data.dim()), order)
                        .map_err(located(t.span(), "test"))?,
                );
            }
            (data, None)
        }
    };
    if let Some(c) = &d.classes {
        if official.is_some() {
            return Err(at.error(c.span(), format!("{}: a class subset changes the rows, so it cannot use official_splits (use `positive`)", key("classes"))));
        }
        let ids = names(c.get_ref(), &data).map_err(located(c.span(), "classes"))?;
        data = data.select_classes(&ids).map_err(located(c.span(), "classes"))?;
        test_set = test_set
            .map(|t| t.select_classes(&ids))
            .transpose()
            .map_err(located(c.span(), "classes"))?;
    }
    if let Some(p) = &d.positive {
        let list = match p.get_ref() {
            Value::Array(a) => a.clone(),
            v => vec![v.clone()],
        };
        let ids = names(&list, &data).map_err(located(p.span(), "positive"))?;
        data = data.one_vs_rest(&ids).map_err(located(p.span(), "positive"))?;
        test_set = test_set
            .map(|t| t.one_vs_rest(&ids))
            .transpose()
            .map_err(located(p.span(), "positive"))?;
    }
    if let Some(p) = &d.preprocess {
        let steps = p
            .get_ref()
            .iter()
            .map(|s| {
                Step::parse(s).ok_or_else(|| {
                    at.error(
                        p.span(),
                        format!(
                            "{}: unknown step `{s}`{} (known: {})",
                            key("preprocess"),
                            super::suggest::did_you_mean(s, Step::NAMES.iter().copied()),
                            Step::NAMES.join(", ")
                        ),
                    )
                })
            })
            .collect::<Result<Vec<_>>>()?;
        match test_set.as_mut() {
            None => data.x = preprocess::apply(data.x, &steps),
            // Test rows are preprocessed with the pool (features only, as unlabeled rows are).
            Some(t) => {
                let n = data.len();
                let both = Features::stack(&[&data.x, &t.x], t.dim())
                    .map_err(located(p.span(), "preprocess"))?;
                let both = preprocess::apply(both, &steps);
                data.x = both.select_rows(&(0..n).collect::<Vec<_>>());
                t.x = both.select_rows(&(n..both.nrows()).collect::<Vec<_>>());
            }
        }
    }
    let sizes = official.as_ref().map(|s| {
        let k = s.first().map_or(0, Vec::len);
        (Sizes::Total(k), Sizes::Total(data.len() - k))
    });
    Ok((
        DataSource::Loaded(Arc::new(LoadedData {
            dataset: data,
            official_splits: official,
            test: test_set.map(Arc::new),
        })),
        sizes,
    ))
}

/// Errors unless the per-class split sizes `l` and `u` fit in every class.
pub(super) fn check_fit(
    data: &Dataset,
    l: &[usize],
    u: &[usize],
    span: Range<usize>,
    i: usize,
    at: Located,
) -> Result<()> {
    let counts = data.class_counts();
    for k in 0..counts.len() {
        if l[k] + u[k] > counts[k] {
            return Err(at.error(span, format!(
                "datasets[{i}]: the split asks for {} labeled + {} unlabeled points of class `{}`, which has only {}",
                l[k], u[k], data.class_names[k], counts[k]
            )));
        }
    }
    Ok(())
}

/// Errors unless the labeled rows of every official split hold two classes or more.
pub(super) fn check_official(
    data: &Dataset,
    splits: &[Vec<usize>],
    span: Range<usize>,
    i: usize,
    at: Located,
) -> Result<()> {
    for (s, rows) in splits.iter().enumerate() {
        let mut classes: Vec<usize> =
            rows.iter().filter_map(|&r| data.classes.get(r).copied()).collect();
        classes.sort_unstable();
        classes.dedup();
        if classes.len() < 2 {
            return Err(at.error(
                span,
                format!("datasets[{i}]: official split {s} labels points of one class only"),
            ));
        }
    }
    Ok(())
}

/// Class ids of class names given as strings or integers.
fn names(list: &[Value], data: &Dataset) -> Result<Vec<usize>> {
    list.iter()
        .map(|v| match v {
            Value::String(s) => data.class_id(s),
            Value::Integer(n) => data
                .class_id(&n.to_string())
                .or_else(|e| data.class_id(&format!("+{n}")).map_err(|_| e)),
            other => data.class_id(&other.to_string()),
        })
        .collect()
}

#[cfg(test)]
mod tests;
