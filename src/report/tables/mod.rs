//! Summary tables: mean ± std of a measure (the error, or the PRBEP) per (dataset, method),
//! aggregated with polars, with a significance mark (↓) where a method is significantly
//! worse than the dataset's best (Holm-corrected within the row), rendered as Markdown,
//! LaTeX or CSV (datasets as rows, methods as columns).

use std::collections::HashMap;

use polars::prelude::*;

pub mod across;
mod missing;
pub mod rank;
pub mod rank_csv;
pub mod rank_render;
mod render;
mod significance;

pub use super::measure::{ERROR, Measure, PRBEP, Source, TEST_ERROR, TEST_PRBEP, error_percent};
use crate::error::{Error, Result};
use crate::protocol::ResultRow;
pub use render::{cell, csv, latex, mark_meaning, markdown};
pub use significance::Difference;

/// Significance level of the tests (the per-row Holm procedure, Friedman and its post-hoc
/// tests); the effect sizes' intervals are at 1 − ALPHA.
pub const ALPHA: f64 = 0.05;

fn polars_err(e: PolarsError) -> Error {
    Error::Report(e.to_string())
}

/// One cell: error statistics in % over the successful splits.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub mean: f64,
    pub std: f64,
    pub splits: usize,
    /// Best mean of its dataset.
    pub best: bool,
    /// Uncorrected p-value of "worse than the best" (one-sided paired Wilcoxon over common
    /// splits); None for the best.
    pub p_value: Option<f64>,
    /// `p_value` Holm-adjusted over the comparisons of its row; None for the best.
    pub p_holm: Option<f64>,
    /// Effect size: the mean paired difference with the best; None for the best or
    /// without a common split.
    pub difference: Option<Difference>,
}

impl Cell {
    /// A cell of these statistics, not yet compared with its row.
    pub fn new(mean: f64, std: f64, splits: usize) -> Cell {
        Cell { mean, std, splits, best: false, p_value: None, p_holm: None, difference: None }
    }

    /// Significantly worse than the best: Holm-adjusted p below [`ALPHA`].
    pub fn worse(&self) -> bool {
        self.p_holm.is_some_and(|p| p < ALPHA)
    }
}

/// A datasets × methods table in first-appearance order, with its provenance stamp.
#[derive(Debug, Clone)]
pub struct Table {
    pub measure: Measure,
    pub datasets: Vec<String>,
    pub methods: Vec<String>,
    /// `cells[d][m]`, None where the method has no successful split on the dataset.
    pub cells: Vec<Vec<Option<Cell>>>,
    pub stamp: String,
    /// Printed under the table: the methods without a value on some dataset, and why.
    pub notes: Vec<String>,
}

/// Per (dataset, method), in first-appearance order: `dataset, method, value_mean,
/// value_std, splits` (std with ddof = 1) of `value` over the successful fits where it is
/// defined.
pub fn summary(rows: &[ResultRow], value: &dyn Fn(&ResultRow) -> Option<f64>) -> Result<DataFrame> {
    let rows: Vec<(&ResultRow, f64)> =
        rows.iter().filter(|r| r.is_ok()).filter_map(|r| value(r).map(|v| (r, v))).collect();
    // polars groups on one integer per (dataset, method) pair, numbered in first-appearance
    // order: grouping on the two string columns row-encodes them, which zero-fills an 8 MiB
    // buffer of polars' that stays resident to the end of the process (`sslab run`'s peak
    // memory on small data sets).
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    let mut number: HashMap<(&str, &str), u32> = HashMap::new();
    let cell: Vec<u32> = rows
        .iter()
        .map(|(r, _)| {
            let key = (r.dataset.as_str(), r.method.as_str());
            *number.entry(key).or_insert_with(|| {
                pairs.push(key);
                pairs.len() as u32 - 1
            })
        })
        .collect();
    let df = df![
        "cell" => cell,
        "value" => rows.iter().map(|(_, v)| *v).collect::<Vec<_>>(),
    ]
    .map_err(polars_err)?;
    // Eager aggregations: the lazy engine would pull polars' cloud I/O stack into the build.
    #[allow(deprecated)]
    let (mean, std, count) = {
        let g = df.group_by_stable(["cell"]).map_err(polars_err)?;
        let g = g.select(["value"]);
        (
            g.mean().map_err(polars_err)?,
            g.std(1).map_err(polars_err)?,
            g.count().map_err(polars_err)?,
        )
    };
    // Each aggregate frame is [cell, <aggregate>]; polars names the aggregate.
    let aggregate = |frame: &DataFrame, name: &str| -> Result<Column> {
        let col = frame.columns().get(1).ok_or_else(|| Error::Report("empty aggregate".into()))?;
        Ok(col.clone().with_name(name.into()))
    };
    let cells = mean.column("cell").and_then(|c| c.u32().cloned()).map_err(polars_err)?;
    let (datasets, methods): (Vec<&str>, Vec<&str>) =
        cells.iter().map(|c| c.map_or(("", ""), |c| pairs[c as usize])).unzip();
    DataFrame::new_infer_height(vec![
        Column::new("dataset".into(), datasets),
        Column::new("method".into(), methods),
        aggregate(&mean, "value_mean")?,
        aggregate(&std, "value_std")?,
        aggregate(&count, "splits")?.cast(&DataType::UInt64).map_err(polars_err)?,
    ])
    .map_err(polars_err)
}

/// One aggregated (dataset, method) pair.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub dataset: String,
    pub method: String,
    pub mean: f64,
    pub std: f64,
    pub splits: usize,
}

/// [`summary`] as plain records, in the same order.
pub fn records(
    rows: &[ResultRow],
    value: &dyn Fn(&ResultRow) -> Option<f64>,
) -> Result<Vec<Record>> {
    let s = summary(rows, value)?;
    let strings = |name: &str| -> Result<Vec<String>> {
        let ca = s.column(name).and_then(|c| c.str().cloned()).map_err(polars_err)?;
        Ok(ca.iter().map(|v| v.unwrap_or("").to_string()).collect())
    };
    let floats = |name: &str| -> Result<Vec<f64>> {
        let ca = s.column(name).and_then(|c| c.f64().cloned()).map_err(polars_err)?;
        Ok(ca.iter().map(|v| v.unwrap_or(f64::NAN)).collect())
    };
    let counts: Vec<usize> = {
        let ca = s.column("splits").and_then(|c| c.u64().cloned()).map_err(polars_err)?;
        ca.iter().map(|v| v.unwrap_or(0) as usize).collect()
    };
    let (ds, ms, means, stds) =
        (strings("dataset")?, strings("method")?, floats("value_mean")?, floats("value_std")?);
    Ok((0..ds.len())
        .map(|i| Record {
            dataset: ds[i].clone(),
            method: ms[i].clone(),
            mean: means[i],
            std: stds[i],
            splits: counts[i],
        })
        .collect())
}

/// Builds the table: polars aggregates, then per dataset the paired test of every method
/// against the best one over the splits both completed, Holm-corrected within the row.
pub fn build(rows: &[ResultRow], measure: Measure, stamp: &str) -> Result<Table> {
    let recs = records(rows, &|r| measure.value(r))?;
    let mut datasets: Vec<String> = Vec::new();
    let mut methods: Vec<String> = Vec::new();
    for r in &recs {
        if !datasets.contains(&r.dataset) {
            datasets.push(r.dataset.clone());
        }
        if !methods.contains(&r.method) {
            methods.push(r.method.clone());
        }
    }
    let mut cells = vec![vec![None; methods.len()]; datasets.len()];
    for r in recs {
        let d = datasets.iter().position(|x| *x == r.dataset).unwrap_or(0);
        let m = methods.iter().position(|x| *x == r.method).unwrap_or(0);
        cells[d][m] = Some(Cell::new(r.mean, r.std, r.splits));
    }
    for (dataset, row) in datasets.iter().zip(cells.iter_mut()) {
        significance::mark_row(rows, &measure, dataset, &methods, row);
    }
    let notes = missing::notes(rows, &measure, &datasets, &methods, &cells);
    Ok(Table { measure, datasets, methods, cells, stamp: stamp.to_string(), notes })
}

/// The error for a name that matches nothing: a did-you-mean suggestion (by edit distance)
/// and the names that exist (`no rows for method `QLDS(tH)` (did you mean `QLDS(th)`?);
/// methods in the results: …`).
pub fn no_match(what: &str, word: &str, known: &[&str]) -> Error {
    let hint = crate::support::suggest::did_you_mean(word, known.iter().copied());
    Error::Report(format!(
        "no rows for {what} `{word}`{hint}; {what}s in the results: {}",
        known.join(", ")
    ))
}

/// The distinct values of `field` over `rows`, in first-appearance order.
pub fn distinct(rows: &[ResultRow], field: fn(&ResultRow) -> &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for r in rows {
        let v = field(r);
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// The error for a prefix no dataset name starts with: the closest beginning of a name (by
/// edit distance) and the first 12 names that exist.
pub fn no_prefix(rows: &[ResultRow], prefix: &str) -> Error {
    let names = distinct(rows, |r| &r.dataset);
    let n = prefix.chars().count();
    let starts: Vec<String> = names.iter().map(|d| d.chars().take(n).collect()).collect();
    let hint = crate::support::suggest::did_you_mean(prefix, starts.iter().map(String::as_str));
    let shown: Vec<&str> = names.iter().take(12).copied().collect();
    let more =
        if names.len() > 12 { format!(", … ({} in all)", names.len()) } else { String::new() };
    Error::Report(format!(
        "no result rows for datasets starting with `{prefix}`{hint}; datasets in the results: {}{more}",
        shown.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(dataset: &str, method: &str, split: usize, error: f64) -> ResultRow {
        crate::protocol::test_row(dataset, method, split, error)
    }

    #[test]
    fn mean_and_sample_std_per_cell_in_first_appearance_order() {
        let rows = vec![
            row("b", "M2", 0, 0.10),
            row("b", "M1", 0, 0.20),
            row("b", "M2", 1, 0.30),
            row("b", "M1", 1, 0.20),
            row("a", "M2", 0, 0.50),
        ];
        let t = build(&rows, ERROR, "stamp").unwrap();
        let md = markdown(&t);
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "| dataset | M2 | M1 |");
        // M2 on b: errors 10% and 30% → mean 20, sample std √200 ≈ 14.14; ties → M2 first.
        assert_eq!(lines[2], "| b | **20.00 ± 14.14** | 20.00 ± 0.00 |");
        // One split: no std to show.
        assert_eq!(lines[3], "| a | **50.00** | – |");
        assert!(md.contains("stamp"));
    }

    #[test]
    fn names_with_pipes_or_line_breaks_stay_in_their_cell() {
        let t =
            build(&[row("a|b", "M\nN", 0, 0.1), row("a|b", "M\nN", 1, 0.2)], ERROR, "s").unwrap();
        let md = markdown(&t);
        assert!(md.starts_with("| dataset | M N |\n") && md.contains("| a\\|b | "), "{md}");
        assert_eq!(md.lines().nth(2).unwrap().matches(" | ").count(), 1, "{md}");
    }

    #[test]
    fn higher_is_better_measures_take_the_largest_mean_as_best() {
        let mut rows = Vec::new();
        for s in 0..8 {
            rows.push(ResultRow { prbep: 0.9, ..row("d", "A", s, 0.3) });
            rows.push(ResultRow { prbep: 0.5 + 0.01 * s as f64, ..row("d", "B", s, 0.1) });
        }
        let t = build(&rows, PRBEP, "").unwrap();
        let (a, b) = (t.cells[0][0].clone().unwrap(), t.cells[0][1].clone().unwrap());
        assert!(a.best && !b.best && b.worse());
        assert!((a.mean - 90.0).abs() < 1e-9);
        assert!(markdown(&t).contains("PRBEP on the unlabeled set in %"));
        // On the error, B is the best and A the worse one.
        let t = build(&rows, ERROR, "").unwrap();
        assert!(t.cells[0][1].clone().unwrap().best && t.cells[0][0].clone().unwrap().worse());
    }

    #[test]
    fn a_reported_column_is_summarised_as_written() {
        let gamma = |method: &str, s: usize, g: f64| ResultRow {
            reported: vec![("gamma".into(), g.to_string())],
            ..row("d", method, s, 0.3)
        };
        let rows: Vec<ResultRow> = (0..4)
            .flat_map(|s| [gamma("A", s, 1e-5 * (1 + s) as f64), gamma("B", s, 2.0)])
            .collect();
        let t = build(&rows, Measure::column(&rows, "gamma").unwrap(), "").unwrap();
        let (a, b) = (t.cells[0][0].clone().unwrap(), t.cells[0][1].clone().unwrap());
        assert!((a.mean - 2.5e-5).abs() < 1e-15 && (b.mean - 2.0).abs() < 1e-12 && a.best);
        let md = markdown(&t);
        assert!(md.contains("| d | **2.50e-5 ± 1.29e-5** | 2.00 ± 0.00 |"), "{md}");
        assert!(md.contains("`gamma` (results.csv column)"), "{md}");
        let e = Measure::column(&rows, "method").unwrap_err().to_string();
        assert!(e.contains("numeric columns: split"), "{e}");
    }

    #[test]
    fn consistently_worse_method_is_marked_and_failed_rows_are_ignored() {
        let mut rows = Vec::new();
        for s in 0..8 {
            rows.push(row("d", "good", s, 0.10 + 0.01 * s as f64));
            rows.push(row("d", "bad", s, 0.20 + 0.01 * s as f64));
            rows.push(row("d", "same", s, if s % 2 == 0 { 0.12 } else { 0.08 } + 0.01 * s as f64));
        }
        let mut failed = row("d", "bad", 9, f64::NAN);
        failed.status = "failed".into();
        rows.push(failed);
        let t = build(&rows, ERROR, "").unwrap();
        let cell = |m: usize| t.cells[0][m].clone().unwrap();
        assert!(cell(0).best && !cell(0).worse());
        assert!(cell(1).worse() && cell(1).splits == 8);
        assert_eq!(cell(1).p_value, Some(1.0 / 256.0));
        assert!(!cell(2).worse());
        assert!(markdown(&t).contains("| 23.50 ± 2.45 ↓ |"), "{}", markdown(&t));
        assert!(latex(&t).contains("23.50 $\\pm$ 2.45 $\\downarrow$"), "{}", latex(&t));
        let csv = csv(&t).unwrap();
        assert!(csv.lines().nth(2).unwrap().starts_with("d,bad,23.5000,"));
        // Uncorrected p, Holm over the row's two comparisons (2 × 1/256), the mark, and the
        // mean paired difference of 10 points (every split) with its interval.
        let line = csv.lines().nth(2).unwrap();
        assert!(line.ends_with(",0.003906,0.007812,true,10.0000,10.0000,10.0000"), "{line}");
    }

    #[test]
    fn marks_are_holm_corrected_within_the_row_and_the_raw_p_is_kept() {
        // Over 5 splits all worse, the exact one-sided p is 1/32 < 0.05.
        let rows = |worse: &[&str]| -> Vec<ResultRow> {
            let mut out = Vec::new();
            for s in 0..5 {
                out.push(row("d", "best", s, 0.10 + 0.01 * s as f64));
                for (i, m) in worse.iter().enumerate() {
                    out.push(row("d", m, s, 0.20 + 0.01 * (s + i) as f64));
                }
            }
            out
        };
        let one = build(&rows(&["A"]), ERROR, "").unwrap();
        let a = one.cells[0][1].clone().unwrap();
        assert_eq!((a.p_value, a.p_holm, a.worse()), (Some(1.0 / 32.0), Some(1.0 / 32.0), true));
        // Two such comparisons in the row: Holm doubles the smaller p, 1/16 ≥ 0.05, no mark.
        let two = build(&rows(&["A", "B"]), ERROR, "").unwrap();
        for m in 1..3 {
            let c = two.cells[0][m].clone().unwrap();
            assert_eq!(
                (c.p_value, c.p_holm, c.worse()),
                (Some(1.0 / 32.0), Some(1.0 / 16.0), false)
            );
            let d = c.difference.unwrap();
            assert!(d.low < d.mean && d.mean < d.high, "{d:?}");
        }
        assert!(!markdown(&two).lines().nth(2).unwrap().contains('↓'), "{}", markdown(&two));
        assert!(csv(&two).unwrap().contains(",0.031250,0.062500,false,"));
    }

    #[test]
    fn methods_without_a_value_are_named_under_the_table_with_the_reason() {
        let mut rows = Vec::new();
        for s in 0..3 {
            rows.push(ResultRow { test_error: Some(0.2), ..row("a", "inductive", s, 0.1) });
            rows.push(row("a", "transductive", s, 0.1));
            rows.push(row("b", "inductive", s, 0.1));
            let mut failed = row("a", "broken", s, f64::NAN);
            failed.status = "failed".into();
            failed.message = "singular matrix\nmore".into();
            rows.push(failed);
        }
        let t = build(&rows, TEST_ERROR, "").unwrap();
        assert_eq!(t.methods, ["inductive"]);
        assert_eq!(
            t.notes,
            [
                "No value: transductive on a (transductive: it scores the unlabeled points only, \
                 not the held-out test rows).",
                "No value: inductive on b (b holds out no test rows).",
                "No value: broken on a (all 3 fits failed: singular matrix).",
            ]
        );
        assert!(markdown(&t).ends_with("(all 3 fits failed: singular matrix).\n"));
        assert!(latex(&t).contains("\n% No value: broken on a"));
        assert!(build(&rows, ERROR, "").unwrap().notes[0].starts_with("No value: broken on a "));
        let e = no_match("method", "Inductive", &distinct(&rows, |r| &r.method)).to_string();
        assert!(e.contains("(did you mean `inductive`?); methods in the results: inductive, transductive, broken"), "{e}");
    }
}
