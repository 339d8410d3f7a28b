//! Summary tables: mean ± std of the error per (dataset, method) with polars, rendered as
//! Markdown with datasets as rows and methods as columns.

use polars::prelude::*;

use crate::error::{Error, Result};
use crate::protocol::ResultRow;

fn polars_err(e: PolarsError) -> Error {
    Error::Report(e.to_string())
}

/// Per (dataset, method), in first-appearance order: `dataset, method, error_mean,
/// error_std, splits` (error in %, std with ddof = 1). Failed fits are left out.
pub fn summary(rows: &[ResultRow]) -> Result<DataFrame> {
    let rows: Vec<&ResultRow> = rows.iter().filter(|r| r.is_ok()).collect();
    let df = df![
        "dataset" => rows.iter().map(|r| r.dataset.as_str()).collect::<Vec<_>>(),
        "method" => rows.iter().map(|r| r.method.as_str()).collect::<Vec<_>>(),
        "error" => rows.iter().map(|r| 100.0 * r.error).collect::<Vec<_>>(),
    ]
    .map_err(polars_err)?;
    // Eager aggregations: the lazy engine would pull polars' cloud I/O stack into the build.
    #[allow(deprecated)]
    let (mean, std, count) = {
        let g = df.group_by_stable(["dataset", "method"]).map_err(polars_err)?;
        let g = g.select(["error"]);
        (
            g.mean().map_err(polars_err)?,
            g.std(1).map_err(polars_err)?,
            g.count().map_err(polars_err)?,
        )
    };
    // Each aggregate frame is [dataset, method, <aggregate>]; polars names the aggregate.
    let aggregate = |frame: &DataFrame, name: &str| -> Result<Column> {
        let col = frame.columns().get(2).ok_or_else(|| Error::Report("empty aggregate".into()))?;
        Ok(col.clone().with_name(name.into()))
    };
    let key = |name: &str| mean.column(name).cloned().map_err(polars_err);
    DataFrame::new_infer_height(vec![
        key("dataset")?,
        key("method")?,
        aggregate(&mean, "error_mean")?,
        aggregate(&std, "error_std")?,
        aggregate(&count, "splits")?.cast(&DataType::UInt64).map_err(polars_err)?,
    ])
    .map_err(polars_err)
}

/// A Markdown table (datasets × methods, "mean ± std" in %) followed by `stamp`.
pub fn markdown(summary: &DataFrame, stamp: &str) -> Result<String> {
    let strings = |name: &str| -> Result<Vec<String>> {
        let col = summary.column(name).map_err(polars_err)?;
        let ca = col.str().map_err(polars_err)?;
        Ok(ca.iter().map(|v| v.unwrap_or("").to_string()).collect())
    };
    let floats = |name: &str| -> Result<Vec<f64>> {
        let col = summary.column(name).map_err(polars_err)?;
        let ca = col.f64().map_err(polars_err)?;
        Ok(ca.iter().map(|v| v.unwrap_or(f64::NAN)).collect())
    };
    let (datasets, methods) = (strings("dataset")?, strings("method")?);
    let (means, stds) = (floats("error_mean")?, floats("error_std")?);
    let mut dataset_order: Vec<&str> = Vec::new();
    let mut method_order: Vec<&str> = Vec::new();
    for (d, m) in datasets.iter().zip(&methods) {
        if !dataset_order.contains(&d.as_str()) {
            dataset_order.push(d);
        }
        if !method_order.contains(&m.as_str()) {
            method_order.push(m);
        }
    }
    let mut out = format!("| dataset | {} |\n|---|{}\n", method_order.join(" | "), "---|".repeat(method_order.len()));
    for d in &dataset_order {
        let cells: Vec<String> = method_order
            .iter()
            .map(|m| {
                (0..datasets.len())
                    .find(|&i| datasets[i] == *d && methods[i] == *m)
                    .map_or("–".into(), |i| format!("{:.2} ± {:.2}", means[i], stds[i]))
            })
            .collect();
        out.push_str(&format!("| {d} | {} |\n", cells.join(" | ")));
    }
    out.push_str(&format!("\nError on the unlabeled set in %, mean ± std over splits. {stamp}\n"));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(dataset: &str, method: &str, split: usize, error: f64) -> ResultRow {
        ResultRow {
            experiment: "e".into(),
            config_hash: "h".into(),
            dataset: dataset.into(),
            split,
            split_seed: 0,
            method: method.into(),
            kind: "qlds".into(),
            alpha_l: None,
            alpha_u: None,
            lambda_policy: "fixed".into(),
            lambda: 1.0,
            error,
            n_labeled: 1,
            n_unlabeled: 1,
            dim: 1,
            status: "ok".into(),
            message: String::new(),
            fit_seconds: 0.0,
        }
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
        let s = summary(&rows).unwrap();
        assert_eq!(s.height(), 3);
        let md = markdown(&s, "stamp").unwrap();
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "| dataset | M2 | M1 |");
        // M2 on b: errors 10% and 30% → mean 20, sample std √200 ≈ 14.14.
        assert_eq!(lines[2], "| b | 20.00 ± 14.14 | 20.00 ± 0.00 |");
        assert!(lines[3].starts_with("| a | 50.00 ±") && lines[3].ends_with("| – |"));
        assert!(md.contains("stamp"));
    }
}
