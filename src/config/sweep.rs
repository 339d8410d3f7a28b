//! Sweeps: any `[[datasets]]` or `[[methods]]` key written `key = { sweep = [v1, v2, …] }`
//! takes each value in turn; an entry expands to the Cartesian product of its swept keys
//! (the first swept key in the file varies slowest). Keys given the same `zip = "group"`
//! vary together instead (their lists have one length). `names = [...]` gives each value the
//! label used in generated entry names (default: the value as written, strings unquoted,
//! lists joined by `+`). A `name` with `{key}` placeholders is filled with the labels;
//! otherwise the entry's name gets the suffix `[key=label,...]`.
//! A sweep is a table, so it cannot be confused with a key taking a list.

use std::ops::Range;

use toml::Spanned;
use toml::de::{DeArray, DeString, DeTable, DeValue};

use crate::engine::Located;
use crate::error::Result;

/// The most entries a config's `[[datasets]]` (or `[[methods]]`) may expand to.
const MAX_ENTRIES: usize = 10_000;

/// The most values (numbers, strings, …) the expanded entries of a config may hold in all:
/// each expanded entry is a copy of its entry.
const MAX_VALUES: usize = 10_000_000;

/// The number of scalar values in `v` (lists and tables counted by their contents) as a
/// copy of it holds them: a sweep counts as the one value it is replaced by.
fn weight(v: &DeValue) -> usize {
    match v {
        DeValue::Table(t) if t.contains_key("sweep") => 1,
        DeValue::Array(a) => a.iter().map(|x| weight(x.get_ref())).sum::<usize>().max(1),
        DeValue::Table(t) => t.values().map(|x| weight(x.get_ref())).sum::<usize>().max(1),
        _ => 1,
    }
}

/// What an expanded entry took from its sweeps.
#[derive(Debug, Clone, Default)]
pub struct Swept {
    /// Each swept key and its value as written (strings unquoted), in file order.
    pub values: Vec<(String, String)>,
    /// Appended to the entry's name (given or the family's default) when the name has no
    /// placeholders.
    pub suffix: String,
}

/// Where a swept value is written and what it is (`datasets[1].dim, sweep value 3 of 4`).
pub type Origin = (Range<usize>, String);

/// One swept key of an entry.
struct Axis<'i> {
    key: String,
    values: Vec<Spanned<DeValue<'i>>>,
    labels: Vec<String>,
    zip: Option<String>,
}

/// Expands the sweeps of the `table` array of `root` (`datasets` or `methods`) in place;
/// returns, per expanded entry, what it swept, and the origins of swept values.
pub fn expand<'i>(
    root: &mut DeTable<'i>,
    table: &str,
    at: Located,
) -> Result<(Vec<Swept>, Vec<Origin>)> {
    let Some(entries) = root.get_mut(table) else { return Ok((Vec::new(), Vec::new())) };
    let DeValue::Array(array) = entries.get_mut() else { return Ok((Vec::new(), Vec::new())) };
    let mut out = DeArray::new();
    let (mut swept, mut origins) = (Vec::new(), Vec::new());
    for (i, entry) in array.iter().enumerate() {
        let DeValue::Table(t) = entry.get_ref() else {
            out.push(entry.clone());
            swept.push(Swept::default());
            continue;
        };
        let axes = axes(t, &format!("{table}[{i}]"), at)?;
        if axes.is_empty() {
            out.push(entry.clone());
            swept.push(Swept::default());
            continue;
        }
        let lengths: Vec<usize> = axes.iter().map(|g| g[0].values.len()).collect();
        let size = lengths.iter().try_fold(1usize, |n, l| n.checked_mul(*l)).unwrap_or(usize::MAX);
        if size.saturating_add(out.len()) > MAX_ENTRIES {
            return Err(at.error(axes[0][0].values[0].span(), format!("{table}[{i}]: its sweeps expand to {size} entries; at most {MAX_ENTRIES} per config")));
        }
        let copied = size.saturating_mul(weight(entry.get_ref()));
        if copied > MAX_VALUES {
            return Err(at.error(axes[0][0].values[0].span(), format!("{table}[{i}]: its sweeps expand to {size} copies of an entry of {} values, {copied} in all; at most {MAX_VALUES} per config (sweep fewer values or put the large value in a data file)", weight(entry.get_ref()))));
        }
        for pick in combinations(&lengths) {
            let mut t = t.clone();
            let mut s = Swept::default();
            let mut labels = Vec::new();
            for (group, &j) in axes.iter().zip(&pick) {
                for axis in group {
                    let v = axis.values[j].clone();
                    origins.push((
                        v.span(),
                        format!(
                            "{table}[{i}].{}, sweep value {} of {}",
                            axis.key,
                            j + 1,
                            axis.values.len()
                        ),
                    ));
                    s.values.push((axis.key.clone(), text(&v, at)));
                    labels.push((axis.key.as_str(), axis.labels[j].as_str()));
                    t.insert(Spanned::new(v.span(), DeString::from(axis.key.clone())), v);
                }
            }
            s.suffix = name(&mut t, &labels, &format!("{table}[{i}]"), at)?;
            out.push(Spanned::new(entry.span(), DeValue::Table(t)));
            swept.push(s);
        }
    }
    *array = out;
    Ok((swept, origins))
}

/// The swept keys of one entry, grouped so that each zip group is one axis (keys in file order).
fn axes<'i>(t: &DeTable<'i>, entry: &str, at: Located) -> Result<Vec<Vec<Axis<'i>>>> {
    let mut found: Vec<(usize, Axis<'i>)> = Vec::new();
    for (k, v) in t.iter() {
        let DeValue::Table(spec) = v.get_ref() else { continue };
        let key = format!("{entry}.{}", k.get_ref());
        let Some(list) = spec.get("sweep") else {
            continue;
        };
        if let Some((bad, _)) =
            spec.iter().find(|(k, _)| !["sweep", "zip", "names"].contains(&k.get_ref().as_ref()))
        {
            return Err(at.error(
                bad.span(),
                format!(
                    "{key}.{}: not a sweep key (a sweep takes `sweep`, `zip` and `names`)",
                    bad.get_ref()
                ),
            ));
        }
        if ["name", "kind"].contains(&k.get_ref().as_ref()) {
            return Err(at.error(k.span(), format!("{key}: cannot be swept (put `{{key}}` placeholders in `name`; one entry per kind)")));
        }
        let values: Vec<_> = match list.get_ref() {
            DeValue::Array(a) if !a.is_empty() => a.iter().cloned().collect(),
            _ => {
                return Err(at.error(
                    list.span(),
                    format!("{key}.sweep: expected a non-empty list of values"),
                ));
            }
        };
        let labels = match spec.get("names") {
            None => values.iter().map(|v| label(v, at)).collect(),
            Some(n) => match n.get_ref() {
                DeValue::Array(a)
                    if a.len() == values.len() && a.iter().all(|x| x.get_ref().is_str()) =>
                {
                    a.iter().map(|x| x.get_ref().as_str().unwrap_or_default().to_string()).collect()
                }
                _ => {
                    return Err(at.error(
                        n.span(),
                        format!(
                            "{key}.names: expected {} strings, one per swept value",
                            values.len()
                        ),
                    ));
                }
            },
        };
        let zip = match spec.get("zip") {
            None => None,
            Some(z) => Some(z.get_ref().as_str().map(str::to_string).ok_or_else(|| {
                at.error(z.span(), format!("{key}.zip: expected a group name (a string)"))
            })?),
        };
        found.push((k.span().start, Axis { key: k.get_ref().to_string(), values, labels, zip }));
    }
    found.sort_by_key(|(start, _)| *start);
    let mut groups: Vec<Vec<Axis>> = Vec::new();
    for (_, axis) in found {
        match groups.iter_mut().find(|g| axis.zip.is_some() && g[0].zip == axis.zip) {
            Some(g) if g[0].values.len() != axis.values.len() => {
                let span = axis.values[0].span();
                return Err(at.error(
                    span,
                    format!(
                        "{entry}.{}: zip group `{}` has {} values ({}) but this sweep has {}",
                        axis.key,
                        g[0].zip.as_deref().unwrap_or_default(),
                        g[0].values.len(),
                        g[0].key,
                        axis.values.len()
                    ),
                ));
            }
            Some(g) => g.push(axis),
            None => groups.push(vec![axis]),
        }
    }
    Ok(groups)
}

/// Every choice of one index per axis of the given lengths, the first axis varying slowest.
pub(super) fn combinations(lengths: &[usize]) -> Vec<Vec<usize>> {
    lengths.iter().fold(vec![Vec::new()], |acc, &n| {
        acc.into_iter()
            .flat_map(|head| (0..n).map(move |j| head.iter().copied().chain([j]).collect()))
            .collect()
    })
}

/// A value as written in the file; strings without their quotes.
pub(super) fn text(v: &Spanned<DeValue>, at: Located) -> String {
    match v.get_ref() {
        DeValue::String(s) => s.to_string(),
        _ => at.src[v.span()].trim().to_string(),
    }
}

/// The default label of a value: as written, strings unquoted, lists joined by `+`.
fn label(v: &Spanned<DeValue>, at: Located) -> String {
    match v.get_ref() {
        DeValue::Array(a) => a.iter().map(|x| label(x, at)).collect::<Vec<_>>().join("+"),
        _ => text(v, at),
    }
}

/// Fills the `{key}` placeholders of the entry's `name` with `labels` and returns an empty
/// suffix; without placeholders returns `[key=label,...]` for the caller to append.
fn name(t: &mut DeTable, labels: &[(&str, &str)], entry: &str, at: Located) -> Result<String> {
    let suffix = format!(
        "[{}]",
        labels.iter().map(|(k, l)| format!("{k}={l}")).collect::<Vec<_>>().join(",")
    );
    let Some(v) = t.get_mut("name") else { return Ok(suffix) };
    let Some(template) = v.get_ref().as_str().filter(|s| s.contains('{')).map(str::to_string)
    else {
        return Ok(suffix);
    };
    let mut filled = String::new();
    let mut rest = template.as_str();
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').map(|c| open + c).ok_or_else(|| {
            at.error(v.span(), format!("{entry}.name: `{{` without a closing `}}`"))
        })?;
        let key = &rest[open + 1..close];
        let (_, l) = labels.iter().find(|(k, _)| *k == key).ok_or_else(|| {
            let keys: Vec<&str> = labels.iter().map(|(k, _)| *k).collect();
            at.error(
                v.span(),
                format!(
                    "{entry}.name: placeholder `{{{key}}}` is not a swept key (swept: {})",
                    keys.join(", ")
                ),
            )
        })?;
        filled.push_str(&rest[..open]);
        filled.push_str(l);
        rest = &rest[close + 1..];
    }
    filled.push_str(rest);
    *v = Spanned::new(v.span(), DeValue::String(DeString::from(filled)));
    Ok(String::new())
}
