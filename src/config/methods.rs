//! `[[methods]]` entries: the config reads `kind` and `name`, the family owning the kind
//! reads the rest.

use std::sync::Arc;

use toml::Spanned;

use super::raw::{Table, table_parts};
use super::sweep::Swept;
use super::tuning::{self, RawTune, Tuning};
use crate::engine::{Entry, Family, Located, Method};
use crate::error::Result;

/// A named method with checked parameters.
#[derive(Debug, Clone)]
pub struct MethodSpec {
    pub name: String,
    /// The config `kind` (`qlds`, `ls_svm`, `tv_svm`, `tsvm`, ...).
    pub kind: String,
    /// Whether the kind handles more than two classes itself (else: one-vs-rest).
    pub multiclass: bool,
    /// The method; with tuning, the first grid point's (for cost and memory estimates).
    pub method: Arc<dyn Method>,
    /// Swept keys and the values this entry took (empty without sweeps).
    pub swept: Vec<(String, String)>,
    /// The `tune` block: the grid each dataset entry chooses from (None: not tuned).
    pub tuning: Option<Tuning>,
}

/// Checks one entry; `tune` is its `tune` block, `eval_seed` the experiment's seed.
pub(super) fn method(
    table: Spanned<Table>,
    swept: Swept,
    tune: Option<RawTune>,
    i: usize,
    eval_seed: u64,
    at: Located,
    families: &[&dyn Family],
) -> Result<MethodSpec> {
    let (span, kind, name, values) = table_parts(table, at)?;
    let kind_name = kind.get_ref().clone();
    let family =
        families.iter().find(|f| f.kinds().contains(&kind_name.as_str())).ok_or_else(|| {
            let known: Vec<&str> =
                families.iter().flat_map(|f| f.kinds().iter().copied()).collect();
            Entry::new(at, "methods", i, span.clone(), kind.clone(), Vec::new()).error(
                "kind",
                format!(
                    "unknown kind `{kind_name}`{} (known: {})",
                    crate::support::suggest::did_you_mean(&kind_name, known.iter().copied()),
                    known.join(", ")
                ),
            )
        })?;
    let (default, method, tuning) = match tune {
        None => {
            let checked =
                family.check(&Entry::new(at, "methods", i, span.clone(), kind.clone(), values))?;
            (checked.name, Arc::from(checked.method), None)
        }
        Some(raw) => {
            let set: Vec<String> = values.iter().map(|(k, _)| k.clone()).collect();
            let (t, names) = tuning::check(raw, i, &set, eval_seed, at, |point, at| {
                family.check(&Entry::new(
                    at,
                    "methods",
                    i,
                    span.clone(),
                    kind.clone(),
                    values.iter().cloned().chain(point).collect(),
                ))
            })?;
            // One default name for the grid when its points agree on it (e.g. `TV-SVM`).
            let default = if names.iter().all(|n| *n == names[0]) {
                names[0].clone()
            } else {
                format!("{kind_name}(tuned)")
            };
            (default, t.grid[0].method.clone(), Some(t))
        }
    };
    let name = name.map_or(default, Spanned::into_inner) + &swept.suffix;
    let multiclass = family.multiclass_kinds().contains(&kind_name.as_str());
    Ok(MethodSpec { name, kind: kind_name, multiclass, method, swept: swept.values, tuning })
}
