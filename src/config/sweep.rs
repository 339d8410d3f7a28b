//! Sweeps: any `[[datasets]]` or `[[methods]]` key written `key = { sweep = [v1, v2, …] }`
//! takes each value in turn; an entry expands to the Cartesian product of its swept keys
//! (the first swept key in the file varies slowest). Keys given the same `zip = "group"`
//! vary together instead (their lists have one length). `names = [...]` gives each value the
//! label used in generated entry names (default: the value as written, strings unquoted,
//! lists joined by `+`). A `name` with `{key}` placeholders is filled with the labels;
//! otherwise the entry's name gets the suffix `[key=label,...]`.
//! A sweep is a table, so it cannot be confused with a key taking a list.

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;
use toml::de::{DeString, DeTable, DeValue};

use super::raw::Table;
use crate::engine::Located;
use crate::error::Result;

/// The most entries a config's `[[datasets]]` (or `[[methods]]`) may expand to.
const MAX_ENTRIES: usize = 10_000;

/// The most bytes of swept values (as written) and labels the expanded entries of a config
/// may hold in all: each keeps the text of the values it took.
const MAX_TEXT: usize = 64 << 20;

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

/// One expanded entry: the entry it comes from, the values its sweeps set (each swept key,
/// and `name` when its placeholders were filled), and what it swept. The entry's other
/// values are not copied: [`apply`] shares them.
pub struct Pick<'i> {
    pub entry: usize,
    set: DeTable<'i>,
    swept: Swept,
}

/// One swept key of an entry.
struct Axis<'i> {
    key: String,
    values: Vec<Spanned<DeValue<'i>>>,
    labels: Vec<String>,
    zip: Option<String>,
}

/// The expansion of the `table` array of `root` (`datasets` or `methods`): one pick per
/// expanded entry (an entry without sweeps is one pick), and the origins of the swept
/// values, sorted by position.
pub fn expand<'i>(
    root: &DeTable<'i>,
    table: &str,
    at: Located,
) -> Result<(Vec<Pick<'i>>, Vec<Origin>)> {
    let Some(DeValue::Array(array)) = root.get(table).map(Spanned::get_ref) else {
        return Ok((Vec::new(), Vec::new()));
    };
    let (mut picks, mut origins) = (Vec::new(), Vec::new());
    let mut text = 0usize;
    for (i, entry) in array.iter().enumerate() {
        let unswept = Pick { entry: i, set: DeTable::new(), swept: Swept::default() };
        let DeValue::Table(t) = entry.get_ref() else {
            picks.push(unswept);
            continue;
        };
        let axes = axes(t, &format!("{table}[{i}]"), at)?;
        if axes.is_empty() {
            picks.push(unswept);
            continue;
        }
        let lengths: Vec<usize> = axes.iter().map(|g| g[0].values.len()).collect();
        let size = lengths.iter().try_fold(1usize, |n, l| n.checked_mul(*l)).unwrap_or(usize::MAX);
        if size.saturating_add(picks.len()) > MAX_ENTRIES {
            return Err(at.error(axes[0][0].values[0].span(), format!("{table}[{i}]: its sweeps expand to {size} entries; at most {MAX_ENTRIES} per config")));
        }
        // Each expanded entry keeps the text and label of one value per axis.
        let longest: usize = axes
            .iter()
            .flatten()
            .map(|a| a.values.iter().zip(&a.labels).map(|(v, l)| v.span().len() + l.len()).max())
            .map(Option::unwrap_or_default)
            .sum();
        text = text.saturating_add(size.saturating_mul(longest));
        if text > MAX_TEXT {
            return Err(at.error(axes[0][0].values[0].span(), format!("{table}[{i}]: its swept values are too long to keep with each of its {size} entries (at most {} MiB of swept text per config); sweep shorter values, e.g. put a long list in a data file", MAX_TEXT >> 20)));
        }
        for axis in axes.iter().flatten() {
            for (j, v) in axis.values.iter().enumerate() {
                let what = format!(
                    "{table}[{i}].{}, sweep value {} of {}",
                    axis.key,
                    j + 1,
                    axis.values.len()
                );
                origins.push((v.span(), what));
            }
        }
        for pick in combinations(&lengths) {
            let mut set = DeTable::new();
            let mut s = Swept::default();
            let mut labels = Vec::new();
            for (group, &j) in axes.iter().zip(&pick) {
                for axis in group {
                    let v = axis.values[j].clone();
                    s.values.push((axis.key.clone(), self::text(&v, at)));
                    labels.push((axis.key.as_str(), axis.labels[j].as_str()));
                    set.insert(Spanned::new(v.span(), DeString::from(axis.key.clone())), v);
                }
            }
            let (suffix, name) = name(t, &labels, &format!("{table}[{i}]"), at)?;
            s.suffix = suffix;
            set.extend(name);
            picks.push(Pick { entry: i, set, swept: s });
        }
    }
    origins.sort_by_key(|(span, _)| span.start);
    Ok((picks, origins))
}

/// The expanded entries of `picks`, each its entry of `entries` with the values its sweeps
/// set; the other values are shared with the entry, not copied.
pub fn apply(
    entries: &[Spanned<Table>],
    picks: Vec<Pick>,
    at: Located,
) -> Result<Vec<(Spanned<Table>, Swept)>> {
    picks
        .into_iter()
        .map(|p| {
            let base = &entries[p.entry];
            let mut t = base.get_ref().clone();
            if !p.set.is_empty() {
                let de = toml::de::Deserializer::from(Spanned::new(base.span(), p.set));
                t.extend(Table::deserialize(de).map_err(|e| super::serde_error(e, at))?);
            }
            Ok((Spanned::new(base.span(), t), p.swept))
        })
        .collect()
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

/// A key and the value an expanded entry sets it to.
type Setting<'i> = (Spanned<DeString<'i>>, Spanned<DeValue<'i>>);

/// Fills the `{key}` placeholders of the entry's `name` with `labels`: returns an empty
/// suffix and the filled name to set; without placeholders returns `[key=label,...]` for
/// the caller to append, and nothing to set.
fn name<'i>(
    t: &DeTable<'i>,
    labels: &[(&str, &str)],
    entry: &str,
    at: Located,
) -> Result<(String, Option<Setting<'i>>)> {
    let suffix = format!(
        "[{}]",
        labels.iter().map(|(k, l)| format!("{k}={l}")).collect::<Vec<_>>().join(",")
    );
    let Some((k, v)) = t.get_key_value("name") else { return Ok((suffix, None)) };
    let Some(template) = v.get_ref().as_str().filter(|s| s.contains('{')).map(str::to_string)
    else {
        return Ok((suffix, None));
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
    let value = Spanned::new(v.span(), DeValue::String(DeString::from(filled)));
    Ok((String::new(), Some((k.clone(), value))))
}
