//! Result rows seen along one swept key (`sslab table --rows KEY`, `sslab plot-curve --x KEY`).

use std::collections::{BTreeMap, BTreeSet};

use crate::error::{Error, Result};
use crate::protocol::ResultRow;

/// The rows that sweep `key`, relabelled: `dataset` becomes the key's value (after the row's
/// other swept values, if any, or after the dataset's name where entries would otherwise
/// merge) and `method` loses the key's part of its name (`TV-SVM[gamma=0.1,mu=1]` →
/// `TV-SVM[mu=1]`); returns them with the key's value of each row.
pub fn along(rows: &[ResultRow], key: &str) -> Result<Vec<(ResultRow, String)>> {
    let mut out = Vec::new();
    for r in rows {
        let Some((_, v)) = r.swept.iter().find(|(k, _)| k == key) else { continue };
        let method = strip(&r.method, key, v);
        let others: Vec<String> = r
            .swept
            .iter()
            .filter(|(k, _)| k != key)
            .map(|(k, v)| format!("{k}={v}"))
            .filter(|kv| !method.contains(kv.as_str()))
            .collect();
        let mut label = others;
        label.push(format!("{key}={v}"));
        out.push((ResultRow { dataset: label.join(", "), method, ..r.clone() }, v.clone()));
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
    // Two dataset entries landing on one label: keep them apart by name.
    let mut sources: BTreeMap<(&str, &str), BTreeSet<&str>> = BTreeMap::new();
    for ((new, _), old) in
        out.iter().zip(rows.iter().filter(|r| r.swept.iter().any(|(k, _)| k == key)))
    {
        sources
            .entry((new.dataset.as_str(), new.method.as_str()))
            .or_default()
            .insert(old.dataset.as_str());
    }
    if sources.values().any(|s| s.len() > 1) {
        let names: Vec<String> = rows
            .iter()
            .filter(|r| r.swept.iter().any(|(k, _)| k == key))
            .map(|r| r.dataset.clone())
            .collect();
        for ((row, _), name) in out.iter_mut().zip(names) {
            row.dataset = format!("{name}: {}", row.dataset);
        }
    }
    Ok(out)
}

/// `name` without the part naming `key`'s value `v`: `key=v` (default names), else the
/// last `v` (names from placeholders); emptied brackets and separators are dropped.
fn strip(name: &str, key: &str, v: &str) -> String {
    let pair = format!("{key}={v}");
    let mut s = match (name.find(&pair), name.rfind(v)) {
        (Some(i), _) => format!("{}{}", &name[..i], &name[i + pair.len()..]),
        (None, Some(i)) if !v.is_empty() => format!("{}{}", &name[..i], &name[i + v.len()..]),
        _ => name.to_string(),
    };
    for (from, to) in [("[,", "["), (",,", ","), (",]", "]"), ("[]", "")] {
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
    fn entries_that_would_merge_keep_their_names() {
        let rows = [row("a-m1", "M", &[("m", "1")]), row("b-m1", "M", &[("m", "1")])];
        let labels: Vec<String> =
            along(&rows, "m").unwrap().into_iter().map(|(r, _)| r.dataset).collect();
        assert_eq!(labels, ["a-m1: m=1", "b-m1: m=1"]);
    }
}
