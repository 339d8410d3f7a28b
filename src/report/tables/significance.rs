//! Within a dataset: each method against the row's best over the splits both completed —
//! the one-sided paired Wilcoxon signed-rank p, its Holm correction over the row's
//! comparisons, and the mean paired difference with its 95 % t interval (the effect size).

use std::collections::HashMap;

use super::{ALPHA, Cell, Measure};
use crate::protocol::ResultRow;
use crate::stats::posthoc::holm;
use crate::stats::{mean_ci, signed_rank_p_greater};

/// Mean of the paired differences method − best over common splits (in the table's unit),
/// with the bounds of its 95 % t confidence interval (NaN below two splits).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Difference {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

/// Fills `best`, `p_value`, `p_holm` and `difference` of one row of cells (`row[m]` for
/// `methods[m]` on `dataset`); `sign` orients the measure so that lower is better.
pub fn mark_row(
    rows: &[ResultRow],
    measure: &Measure,
    dataset: &str,
    methods: &[String],
    row: &mut [Option<Cell>],
) {
    let sign = if measure.higher_is_better { -1.0 } else { 1.0 };
    let mean = |c: &Option<Cell>| c.as_ref().map_or(f64::INFINITY, |c| sign * c.mean);
    let Some(best) = (0..row.len())
        .filter(|&m| row[m].is_some())
        .min_by(|&a, &b| mean(&row[a]).total_cmp(&mean(&row[b])))
    else {
        return;
    };
    // Per method, its value on each split (split → value), one pass over the rows.
    let mut by_method: HashMap<&str, HashMap<usize, f64>> = HashMap::new();
    for r in rows.iter().filter(|r| r.is_ok() && r.dataset == dataset) {
        if let Some(v) = measure.value(r) {
            by_method.entry(r.method.as_str()).or_default().insert(r.split, v);
        }
    }
    let empty = HashMap::new();
    let best_values = by_method.get(methods[best].as_str()).unwrap_or(&empty);
    let mut tested: Vec<usize> = Vec::new();
    for (m, cell) in row.iter_mut().enumerate() {
        let Some(cell) = cell else { continue };
        if m == best {
            cell.best = true;
            continue;
        }
        let mine = by_method.get(methods[m].as_str()).unwrap_or(&empty);
        let mut pairs: Vec<(usize, f64)> = mine
            .iter()
            .filter_map(|(split, v)| best_values.get(split).map(|b| (*split, v - b)))
            .collect();
        pairs.sort_by_key(|(split, _)| *split);
        let diffs: Vec<f64> = pairs.into_iter().map(|(_, d)| d).collect();
        cell.p_value =
            Some(signed_rank_p_greater(&diffs.iter().map(|d| sign * d).collect::<Vec<_>>()));
        if !diffs.is_empty() {
            let (mean, low, high) = mean_ci(&diffs, ALPHA);
            cell.difference = Some(Difference { mean, low, high });
        }
        tested.push(m);
    }
    let raw: Vec<f64> = tested.iter().filter_map(|&m| row[m].as_ref()?.p_value).collect();
    for (&m, adjusted) in tested.iter().zip(holm(&raw)) {
        if let Some(cell) = row[m].as_mut() {
            cell.p_holm = Some(adjusted);
        }
    }
}
