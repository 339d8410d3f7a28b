//! Result rows seen along one swept key (`sslab table --rows KEY`, `sslab plot-curve --x KEY`).

use std::collections::{BTreeMap, BTreeSet};

use super::entries;
use crate::error::{Error, Result};
use crate::protocol::ResultRow;

/// The rows that sweep `key`, relabelled: `dataset` becomes the key's value (after the row's
/// other swept values, if any) and, where the sweep put the key's value into method names,
/// `method` loses it (`TV-SVM[gamma=0.1,mu=1]` → `TV-SVM[mu=1]`); returns them with the key's
/// value of each row. Rows of several dataset entries (`gauss-m{m}` and `kitchen-m{m}`) are
/// never pooled: where entries share the other swept values, every label starts with its
/// entry (`gauss-m{m}: m=5`, see [`entries`]), so a table has rows, a figure curves or
/// panels, per entry; rows of different datasets left under one label are warned about.
pub fn along(rows: &[ResultRow], key: &str) -> Result<Vec<(ResultRow, String)>> {
    let swept: Vec<(&ResultRow, &str)> = rows
        .iter()
        .filter_map(|r| r.swept.iter().find(|(k, _)| k == key).map(|(_, v)| (r, v.as_str())))
        .collect();
    let named = in_method_names(&swept, key);
    let mut out = Vec::new();
    for &(r, v) in &swept {
        let method = if named { strip(&r.method, key, v) } else { r.method.clone() };
        let others: Vec<String> = r
            .swept
            .iter()
            .filter(|(k, _)| k != key)
            .filter(|(k, v)| element(&method, k).is_none_or(|(_, _, l)| l != v))
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let mut label = others;
        label.push(format!("{key}={v}"));
        out.push((ResultRow { dataset: label.join(", "), method, ..r.clone() }, v.to_string()));
    }
    if out.is_empty() {
        let keys: BTreeSet<&str> =
            rows.iter().flat_map(|r| r.swept.iter().map(|(k, _)| k.as_str())).collect();
        let keys: Vec<&str> = keys.into_iter().collect();
        return Err(Error::Report(format!(
            "no result row sweeps `{key}` (swept keys: {})",
            if keys.is_empty() { "none".into() } else { keys.join(", ") }
        )));
    }
    // The entries behind each group of labels (a label without the key's value).
    let names: Vec<(&str, &str)> = swept.iter().map(|&(r, v)| (r.dataset.as_str(), v)).collect();
    let entries = entries::entries(&names, key);
    let mut per_group: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for ((row, _), e) in out.iter().zip(&entries) {
        per_group.entry(group(&row.dataset, key)).or_default().insert(e);
    }
    if per_group.values().any(|s| s.len() > 1) {
        for ((row, _), e) in out.iter_mut().zip(&entries) {
            row.dataset = format!("{e}: {}", row.dataset);
        }
    }
    warn_pooled(&out, &names);
    Ok(out)
}

/// The group of a label from [`along`]: the label without its last part, `key=value` (the
/// entry and the other swept values; empty when the key is all there is).
pub fn group<'a>(label: &'a str, key: &str) -> &'a str {
    let at = label.rfind(&format!("{key}=")).unwrap_or(0);
    label[..at].trim_end_matches([',', ' ', ':'])
}

/// Warns (stderr) where rows of different datasets share a label and a method: a table or
/// a figure would average them together.
fn warn_pooled(out: &[(ResultRow, String)], names: &[(&str, &str)]) {
    let mut sources: BTreeMap<(&str, &str), BTreeSet<&str>> = BTreeMap::new();
    for ((new, _), (old, _)) in out.iter().zip(names) {
        sources.entry((&new.dataset, &new.method)).or_default().insert(old);
    }
    for ((label, method), olds) in sources.iter().filter(|(_, s)| s.len() > 1) {
        let olds: Vec<&str> = olds.iter().copied().collect();
        eprintln!(
            "warning: `{method}` at `{label}` averages the rows of datasets {}",
            olds.join(", ")
        );
    }
}

/// Whether the sweep of `key` put its value into method names: rows differing in the key's
/// value never share a method name (or, with one value, every name carries the default
/// `[key=value]` suffix). A key swept by datasets leaves method names whole however they
/// read (`TSVM(S=10000)` at 10 labeled examples per class stays `TSVM(S=10000)`).
fn in_method_names(swept: &[(&ResultRow, &str)], key: &str) -> bool {
    let mut per_method: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for &(r, v) in swept {
        per_method.entry(r.method.as_str()).or_default().insert(v);
    }
    let values: BTreeSet<&str> = swept.iter().map(|&(_, v)| v).collect();
    let suffixed = |&(r, v): &(&ResultRow, &str)| element(&r.method, key).is_some_and(|e| e.2 == v);
    per_method.values().all(|s| s.len() == 1) && (values.len() > 1 || swept.iter().all(suffixed))
}

/// The `key=label` element of a name's bracketed suffix (`M[a=1,key=label]`): its byte
/// range and its label.
fn element<'a>(name: &'a str, key: &str) -> Option<(usize, usize, &'a str)> {
    let open = name.rfind('[')?;
    let close = open + name[open..].find(']')?;
    let mut at = open + 1;
    for part in name[open + 1..close].split(',') {
        let end = at + part.len();
        if let Some(label) = part.strip_prefix(key).and_then(|p| p.strip_prefix('=')) {
            return Some((at, end, label));
        }
        at = end + 1;
    }
    None
}

/// `name` without the part naming `key`'s value `v`: the `key=…` element of its bracketed
/// suffix (default names), else the last whole occurrence of `v` (names filled from `{key}`
/// placeholders; digits inside a longer number do not count); emptied brackets and
/// separators are dropped.
fn strip(name: &str, key: &str, v: &str) -> String {
    let glued = |c: char| c.is_alphanumeric() || c == '.';
    let whole = |i: usize| !name[..i].ends_with(glued) && !name[i + v.len()..].starts_with(glued);
    let cut = element(name, key).map(|(a, b, _)| (a, b)).or_else(|| {
        let mut at = name.rmatch_indices(v).map(|(i, _)| i);
        at.find(|&i| !v.is_empty() && whole(i)).map(|i| (i, i + v.len()))
    });
    let mut s = match cut {
        Some((a, b)) => format!("{}{}", &name[..a], &name[b..]),
        None => name.to_string(),
    };
    let emptied = [("[,", "["), (",,", ","), (",]", "]"), ("[]", ""), ("(,", "("), (",)", ")")];
    for (from, to) in emptied {
        s = s.replace(from, to);
    }
    s.trim_end_matches([' ', '-', '_', '=', ',']).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::test_row;

    fn row(dataset: &str, method: &str, swept: &[(&str, &str)]) -> ResultRow {
        ResultRow {
            swept: swept.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            ..test_row(dataset, method, 0, 0.1)
        }
    }

    #[test]
    fn method_names_lose_the_key_and_rows_are_labelled_by_its_value() {
        assert_eq!(strip("TV-SVM[gamma=0.1,mu=1]", "gamma", "0.1"), "TV-SVM[mu=1]");
        assert_eq!(strip("TV-SVM[gamma=0.1]", "gamma", "0.1"), "TV-SVM");
        assert_eq!(strip("TV-SVM γ 0.1", "gamma", "0.1"), "TV-SVM γ");
        let rows = [
            row("usps", "TV[gamma=0.1]", &[("gamma", "0.1")]),
            row("usps", "TV[gamma=1]", &[("gamma", "1")]),
            row("books-nl010", "LS-SVM", &[("dataset", "books"), ("labeled_per_class", "5")]),
        ];
        let a = along(&rows, "gamma").unwrap();
        assert_eq!(
            a.iter()
                .map(|(r, v)| (r.dataset.as_str(), r.method.as_str(), v.as_str()))
                .collect::<Vec<_>>(),
            [("gamma=0.1", "TV", "0.1"), ("gamma=1", "TV", "1")]
        );
        let b = along(&rows, "labeled_per_class").unwrap();
        assert_eq!(b[0].0.dataset, "dataset=books, labeled_per_class=5");
        assert!(
            along(&rows, "mu")
                .unwrap_err()
                .to_string()
                .contains("swept keys: dataset, gamma, labeled_per_class")
        );
    }

    #[test]
    fn rows_of_several_entries_are_labelled_by_their_entry() {
        let labels = |rows: &[ResultRow]| -> Vec<String> {
            along(rows, "m").unwrap().into_iter().map(|(r, _)| r.dataset).collect()
        };
        // Entries sharing the swept values, and entries with values of their own (which
        // would otherwise join into one curve).
        let rows = [row("a-m1", "M", &[("m", "1")]), row("b-m1", "M", &[("m", "1")])];
        assert_eq!(labels(&rows), ["a-m1: m=1", "b-m1: m=1"]);
        let rows = [
            row("a-m1", "M", &[("m", "1")]),
            row("a-m2", "M", &[("m", "2")]),
            row("b-m3", "M", &[("m", "3")]),
            row("b-m4", "M", &[("m", "4")]),
        ];
        assert_eq!(labels(&rows), ["a-m{m}: m=1", "a-m{m}: m=2", "b-m{m}: m=3", "b-m{m}: m=4"]);
        // One entry, or entries told apart by another swept value: no prefix.
        assert_eq!(labels(&rows[..2]), ["m=1", "m=2"]);
        let rows =
            [row("x", "M", &[("d", "x"), ("m", "1")]), row("y", "M", &[("d", "y"), ("m", "1")])];
        assert_eq!(labels(&rows), ["d=x, m=1", "d=y, m=1"]);
        assert_eq!(group("a-m{m}: d=x, m=1", "m"), "a-m{m}: d=x");
        assert_eq!(group("m=1", "m"), "");
    }

    #[test]
    fn numbers_in_method_names_survive_a_dataset_sweep() {
        // Regression: the value of a dataset key was cut out of method names as a substring
        // (`TSVM(S=10000)` → `TSVM(S=000)` at m = 10, `QLDS(1,0.5)` → `QLDS(1,0.)` at m = 5).
        let mut rows = Vec::new();
        for m in ["5", "10", "50"] {
            for method in ["TSVM(S=10000)", "QLDS(1,0.5)", "M[m=2]"] {
                rows.push(row(&format!("b-{m}"), method, &[("dataset", "b"), ("m", m)]));
            }
        }
        let a = along(&rows, "m").unwrap();
        let methods: BTreeSet<&str> = a.iter().map(|(r, _)| r.method.as_str()).collect();
        assert_eq!(methods, BTreeSet::from(["TSVM(S=10000)", "QLDS(1,0.5)", "M[m=2]"]));
        assert_eq!(a[3].0.dataset, "dataset=b, m=10");
        // A method key filled into a placeholder name: only the whole number goes.
        let rows: Vec<ResultRow> = ["0.5", "5", "10"]
            .iter()
            .map(|u| row("d", &format!("QLDS(5,{u})"), &[("alpha_u", u)]))
            .collect();
        let names: Vec<String> =
            along(&rows, "alpha_u").unwrap().into_iter().map(|(r, _)| r.method).collect();
        assert_eq!(names, ["QLDS(5)", "QLDS(5)", "QLDS(5)"]);
        assert_eq!(strip("QLDS(1,0.5)", "m", "5"), "QLDS(1,0.5)");
        assert_eq!(strip("TSVM[S=10000,m=10]", "m", "10"), "TSVM[S=10000]");
        assert_eq!(strip("TSVM[m=100]", "m", "100"), "TSVM");
    }
}
