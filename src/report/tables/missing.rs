//! The note under a table naming the methods that have no value on a dataset they ran on,
//! and why (every fit failed, a transductive method on a held-out test column, a value the
//! fits do not report, or one undefined in every split).

use super::{Cell, Measure, Source, TEST_ERROR, TEST_PRBEP};
use crate::protocol::ResultRow;

/// One note per (reason, datasets) naming its methods, methods in first-appearance order in `rows`: `No value:
/// GB-SSL on every dataset (transductive: …).` Empty when every method has every cell.
pub fn notes(
    rows: &[ResultRow],
    measure: &Measure,
    datasets: &[String],
    methods: &[String],
    cells: &[Vec<Option<Cell>>],
) -> Vec<String> {
    let has = |d: &str, m: &str| {
        let (Some(d), Some(m)) =
            (datasets.iter().position(|x| x == d), methods.iter().position(|x| x == m))
        else {
            return false;
        };
        cells[d][m].is_some()
    };
    let mut order: Vec<(&str, &str)> = Vec::new();
    for r in rows {
        if !order.contains(&(r.method.as_str(), r.dataset.as_str())) {
            order.push((r.method.as_str(), r.dataset.as_str()));
        }
    }
    // (method, reason, datasets) in first-appearance order.
    let mut missing: Vec<(&str, String, Vec<&str>)> = Vec::new();
    for &(m, d) in order.iter().filter(|&&(m, d)| !has(d, m)) {
        let why = reason(rows, measure, d, m);
        match missing.iter_mut().find(|(mm, w, _)| *mm == m && *w == why) {
            Some(entry) => entry.2.push(d),
            None => missing.push((m, why, vec![d])),
        }
    }
    let all: Vec<&str> = {
        let mut all: Vec<&str> = Vec::new();
        for &(_, d) in &order {
            if !all.contains(&d) {
                all.push(d);
            }
        }
        all
    };
    // Methods missing for the same reason on the same datasets share one note.
    let mut merged: Vec<(Vec<&str>, String, Vec<&str>)> = Vec::new();
    for (m, why, ds) in missing {
        match merged.iter_mut().find(|(_, w, d)| *w == why && *d == ds) {
            Some(entry) => entry.0.push(m),
            None => merged.push((vec![m], why, ds)),
        }
    }
    merged
        .into_iter()
        .map(|(ms, why, ds)| {
            let on = if ds.len() == all.len() && all.len() > 1 {
                "every dataset".to_string()
            } else {
                ds.join(", ")
            };
            format!("No value: {} on {on} ({why}).", ms.join(", "))
        })
        .collect()
}

/// Why `method` has no value of `measure` on `dataset`.
fn reason(rows: &[ResultRow], measure: &Measure, dataset: &str, method: &str) -> String {
    let own: Vec<&ResultRow> =
        rows.iter().filter(|r| r.dataset == dataset && r.method == method).collect();
    if own.iter().all(|r| !r.is_ok()) {
        let first = own.first().and_then(|r| r.message.lines().next()).unwrap_or("");
        return format!("all {} fits failed: {first}", own.len());
    }
    let test = [TEST_ERROR.label, TEST_PRBEP.label].contains(&measure.label);
    let others =
        rows.iter().any(|r| r.dataset == dataset && r.is_ok() && measure.value(r).is_some());
    match &measure.source {
        Source::Percent(_) if test && others => {
            "transductive: it scores the unlabeled points only, not the held-out test rows".into()
        }
        Source::Percent(_) if test => format!("{dataset} holds out no test rows"),
        Source::Column(name) => format!("its fits report no `{name}`"),
        Source::Percent(_) => "undefined in every split, e.g. a PRBEP without positives".into(),
    }
}
