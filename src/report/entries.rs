//! The dataset entries behind result rows along a swept key. A row keeps its dataset's name,
//! not the config entry it was expanded from, so the entries are read back from the names:
//! two names seen at different values of the key, each at one, are one entry when they
//! differ in one run of digits or of other characters (`gauss-m2`, `gauss-m5`;
//! `books-nl010`, `books-nl020`); a name seen at several values (a key swept by the methods)
//! is an entry of its own.

use std::collections::{BTreeMap, BTreeSet};

/// The entry of each `(name, value)` of `rows`, as a label: for an entry of several names
/// their common runs with the varying one written `{key}` (`gauss-m{m}`), else the name.
pub fn entries(rows: &[(&str, &str)], key: &str) -> Vec<String> {
    let mut at: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for &(name, v) in rows {
        at.entry(name).or_default().insert(v);
    }
    let names: Vec<&str> = at.keys().copied().collect();
    let mut parent: Vec<usize> = (0..names.len()).collect();
    for i in 0..names.len() {
        for j in i + 1..names.len() {
            let (a, b) = (&at[names[i]], &at[names[j]]);
            if a.len() == 1 && b.len() == 1 && a != b && varying(names[i], names[j]).is_some() {
                let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
                parent[ri] = rj;
            }
        }
    }
    let mut members: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for i in 0..names.len() {
        members.entry(root(&mut parent, i)).or_default().push(names[i]);
    }
    let mut label: BTreeMap<&str, String> = BTreeMap::new();
    for group in members.values() {
        let first = runs(group[0]);
        let text: String = (0..first.len())
            .map(|k| {
                let same = group.iter().all(|n| runs(n)[k] == first[k]);
                if same { first[k].to_string() } else { format!("{{{key}}}") }
            })
            .collect();
        for name in group {
            label.insert(name, text.clone());
        }
    }
    rows.iter().map(|(name, _)| label[name].clone()).collect()
}

/// The root of `i` in a union-find forest (halving the path).
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// The runs of digits and of other characters of a name (`books-nl010` → `books-nl`, `010`).
fn runs(name: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut digits = None;
    for (i, c) in name.char_indices() {
        let d = c.is_ascii_digit();
        if digits.is_some_and(|was| was != d) {
            out.push(&name[start..i]);
            start = i;
        }
        digits = Some(d);
    }
    out.push(&name[start..]);
    out
}

/// The one run in which `a` and `b` differ, where they have the same number of runs and
/// differ in exactly one.
fn varying(a: &str, b: &str) -> Option<usize> {
    let (ra, rb) = (runs(a), runs(b));
    if ra.len() != rb.len() {
        return None;
    }
    let mut diff = (0..ra.len()).filter(|&k| ra[k] != rb[k]);
    match (diff.next(), diff.next()) {
        (Some(k), None) => Some(k),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_one_entry_join_and_other_entries_stay_apart() {
        let rows = [("gauss-m2", "2"), ("gauss-m5", "5"), ("kitchen-m5", "5"), ("kitchen-m9", "9")];
        assert_eq!(
            entries(&rows, "m"),
            ["gauss-m{m}", "gauss-m{m}", "kitchen-m{m}", "kitchen-m{m}"]
        );
        // Labels that are not the values, and entries differing in a digit of their own.
        let rows = [("b-nl010", "5"), ("b-nl020", "10"), ("set1-m2", "2"), ("set2-m2", "2")];
        assert_eq!(entries(&rows, "m"), ["b-nl{m}", "b-nl{m}", "set1-m2", "set2-m2"]);
        let rows = [("set1-m2", "2"), ("set1-m6", "6"), ("set2-m2", "2"), ("set2-m6", "6")];
        assert_eq!(entries(&rows, "m"), ["set1-m{m}", "set1-m{m}", "set2-m{m}", "set2-m{m}"]);
        // A key swept by the methods: each dataset is seen at every value.
        let rows = [("usps", "1"), ("usps", "2"), ("uspt", "1"), ("uspt", "2")];
        assert_eq!(entries(&rows, "m"), ["usps", "usps", "uspt", "uspt"]);
        assert_eq!(runs("a10b-2"), ["a", "10", "b-", "2"]);
        assert_eq!(varying("a10b", "a20b"), Some(1));
        assert_eq!(varying("a10b", "c20b"), None);
    }
}
