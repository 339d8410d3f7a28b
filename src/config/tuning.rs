//! Tuning blocks: a `[[methods]]` entry's `tune = { key = [v1, v2], …, seed = S, splits = N,
//! criterion = "unlabeled" | "kfold:K" }` lists the keys chosen per dataset entry over the
//! grid (the product of the lists, the first key in the file varying slowest), on splits
//! drawn from seed S only. Every grid point is checked by the method's family, so a bad value
//! is an error at its line naming its position in the list.

use std::ops::Range;
use std::sync::Arc;

use serde::Deserialize;
use serde::de::IntoDeserializer;
use toml::de::{DeTable, DeValue};
use toml::{Spanned, Value};

use super::{suggest, sweep};
use crate::engine::{Checked, Located, Method, Shared};
use crate::error::Result;

/// How a tuned method is scored on a tuning split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Criterion {
    /// Error on the split's unlabeled rows.
    Unlabeled,
    /// Stratified K-fold on the labeled rows; each held-out fold joins the unlabeled rows.
    KFold(usize),
}

impl Criterion {
    /// As written in configs: `unlabeled` or `kfold:K`.
    pub fn name(&self) -> String {
        match self {
            Criterion::Unlabeled => "unlabeled".into(),
            Criterion::KFold(k) => format!("kfold:{k}"),
        }
    }
}

/// One grid point: the tuned keys with their values as written, and the checked method.
#[derive(Debug, Clone)]
pub struct GridPoint {
    pub values: Vec<(String, String)>,
    pub method: Arc<dyn Method>,
}

/// A method entry's tuning: its grid, the tuning seed and split count, and the criterion.
#[derive(Debug, Clone)]
pub struct Tuning {
    pub grid: Vec<GridPoint>,
    /// Tuning uses splits `0..splits` drawn from `seed` (never the experiment's seed).
    pub seed: u64,
    pub splits: usize,
    pub criterion: Criterion,
}

/// A grid key's listed values, each with its text as written.
type GridValues = Vec<(Spanned<Shared>, String)>;

/// A `tune` table as written: the grid keys with their listed values, and the settings.
#[derive(Debug, Clone)]
pub struct RawTune {
    span: Range<usize>,
    /// Each grid key with its values and their text as written.
    keys: Vec<(Spanned<String>, GridValues)>,
    seed: Option<Spanned<Shared>>,
    splits: Option<Spanned<Shared>>,
    criterion: Option<Spanned<Shared>>,
}

/// The most grid points of one entry.
const MAX_POINTS: usize = 1_000;

/// Removes the `tune` table of every `[[methods]]` entry of `root` (as written, before its
/// sweeps expand it); returns one per entry, in order.
pub fn extract(root: &mut DeTable, at: Located) -> Result<Vec<Option<RawTune>>> {
    let Some(entries) = root.get_mut("methods") else { return Ok(Vec::new()) };
    let DeValue::Array(array) = entries.get_mut() else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    for (i, entry) in array.iter_mut().enumerate() {
        let DeValue::Table(t) = entry.get_mut() else {
            out.push(None);
            continue;
        };
        out.push(t.remove("tune").map(|v| raw(v, i, at)).transpose()?);
    }
    Ok(out)
}

/// Reads one `tune` value: a table of lists and settings.
fn raw(v: Spanned<DeValue>, i: usize, at: Located) -> Result<RawTune> {
    let span = v.span();
    let DeValue::Table(t) = v.into_inner() else {
        return Err(at.error(span, format!("methods[{i}].tune: expected a table, e.g. tune = {{ gamma = [0.1, 1], seed = 7, splits = 2 }}")));
    };
    let mut r = RawTune { span, keys: Vec::new(), seed: None, splits: None, criterion: None };
    let mut items: Vec<_> = t.into_iter().collect();
    items.sort_by_key(|(k, _)| k.span().start);
    for (k, v) in items {
        let key = Spanned::new(k.span(), k.get_ref().to_string());
        match key.get_ref().as_str() {
            "seed" => r.seed = Some(value(v, &format!("methods[{i}].tune.seed"), at)?),
            "splits" => r.splits = Some(value(v, &format!("methods[{i}].tune.splits"), at)?),
            "criterion" => r.criterion = Some(value(v, "", at)?),
            name => {
                let list = match v.into_inner() {
                    DeValue::Array(a) if !a.is_empty() => a
                        .into_iter()
                        .map(|x| {
                            let key = format!("methods[{i}].tune.{name}");
                            Ok((value(x.clone(), &key, at)?, sweep::text(&x, at)))
                        })
                        .collect::<Result<Vec<_>>>()?,
                    _ => {
                        return Err(at.error(
                            k.span(),
                            format!(
                                "methods[{i}].tune.{name}: expected a non-empty list of values"
                            ),
                        ));
                    }
                };
                r.keys.push((key, list));
            }
        }
    }
    Ok(r)
}

/// A parsed value with its span; an integer beyond 64 bits is an error naming `key`.
fn value(v: Spanned<DeValue>, key: &str, at: Located) -> Result<Spanned<Shared>> {
    let s = v.span();
    Shared::deserialize(v.into_deserializer()).map(|x| Spanned::new(s.clone(), x)).map_err(|e| {
        let written = at.src.get(s.clone()).unwrap_or_default();
        let message = match suggest::too_large(e.message(), written) {
            Some(n) => suggest::out_of_range(key, n),
            None => e.message().to_string(),
        };
        at.error(s, message)
    })
}

/// Checks a tuning block: `check` checks the entry with one grid point's values added (an
/// error inside it names the value's position through `at`). `set` lists the entry's own
/// keys; `eval_seed` is the experiment's seed, which tuning may not use.
pub fn check(
    raw: RawTune,
    i: usize,
    set: &[String],
    eval_seed: u64,
    at: Located,
    check: impl Fn(Vec<(String, Spanned<Shared>)>, Located) -> Result<Checked>,
) -> Result<(Tuning, Vec<String>)> {
    let key = |k: &str| format!("methods[{i}].tune.{k}");
    if raw.keys.is_empty() {
        return Err(at.error(
            raw.span,
            format!("methods[{i}].tune: no key to tune (give at least one `key = [values]`)"),
        ));
    }
    if let Some((k, _)) = raw.keys.iter().find(|(k, _)| set.contains(k.get_ref())) {
        return Err(at.error(
            k.span(),
            format!("{}: also set in the entry; a key is either set or tuned", key(k.get_ref())),
        ));
    }
    let seed = match &raw.seed {
        None => {
            return Err(at.error(
                raw.span.clone(),
                format!("{}: missing (the tuning seed; not the experiment's seed)", key("seed")),
            ));
        }
        Some(s) => match s.get_ref().as_integer().map(u64::try_from) {
            Some(Ok(v)) if v == eval_seed => return Err(at.error(
                s.span(),
                format!(
                    "{}: equals the experiment's seed, so tuning would see the evaluation splits",
                    key("seed")
                ),
            )),
            Some(Ok(v)) => v,
            _ => {
                return Err(at.error(s.span(), format!("{}: expected an integer ≥ 0", key("seed"))));
            }
        },
    };
    let splits = match &raw.splits {
        None => {
            return Err(at.error(
                raw.span.clone(),
                format!("{}: missing (how many splits of the tuning seed)", key("splits")),
            ));
        }
        Some(s) => match s.get_ref().as_integer() {
            Some(n @ 1..=10_000) => n as usize,
            _ => {
                return Err(at.error(
                    s.span(),
                    format!("{}: expected an integer in 1..=10000", key("splits")),
                ));
            }
        },
    };
    let criterion = match &raw.criterion {
        None => Criterion::Unlabeled,
        Some(c) => criterion(c.get_ref()).ok_or_else(|| {
            at.error(
                c.span(),
                format!("{}: expected \"unlabeled\" or \"kfold:K\" with K ≥ 2", key("criterion")),
            )
        })?,
    };
    let total = raw
        .keys
        .iter()
        .try_fold(1usize, |n, (_, v)| n.checked_mul(v.len()))
        .filter(|n| *n <= MAX_POINTS);
    if total.is_none() {
        return Err(
            at.error(raw.span, format!("methods[{i}].tune: more than {MAX_POINTS} grid points"))
        );
    }
    let mut grid = Vec::new();
    let mut names = Vec::new();
    let lengths: Vec<usize> = raw.keys.iter().map(|(_, v)| v.len()).collect();
    for pick in sweep::combinations(&lengths) {
        let mut origins = Vec::new();
        let mut values = Vec::new();
        let mut written = Vec::new();
        for ((k, list), &j) in raw.keys.iter().zip(&pick) {
            let (v, text) = &list[j];
            origins.push((
                v.span(),
                format!("{}, grid value {} of {}", key(k.get_ref()), j + 1, list.len()),
            ));
            values.push((k.get_ref().clone(), v.clone()));
            written.push((k.get_ref().clone(), text.clone()));
        }
        let checked = check(values, Located { grid: &origins, ..at })?;
        names.push(checked.name);
        grid.push(GridPoint { values: written, method: Arc::from(checked.method) });
    }
    Ok((Tuning { grid, seed, splits, criterion }, names))
}

/// `unlabeled` or `kfold:K` (K ≥ 2).
fn criterion(v: &Value) -> Option<Criterion> {
    match v.as_str()? {
        "unlabeled" => Some(Criterion::Unlabeled),
        s => s.strip_prefix("kfold:")?.parse().ok().filter(|k| *k >= 2).map(Criterion::KFold),
    }
}
