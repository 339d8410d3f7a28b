//! Running-time tables: mean ± std of `fit_seconds` per (dataset, method), in milliseconds,
//! datasets as rows (with d and n) and methods as columns.

use super::tables::cell;
use crate::protocol::ResultRow;
use crate::stats::mean_std;

/// The Markdown table followed by `stamp`; datasets and methods in first-appearance order.
pub fn times_markdown(rows: &[ResultRow], stamp: &str) -> String {
    let mut datasets: Vec<&ResultRow> = Vec::new();
    let mut methods: Vec<&str> = Vec::new();
    for r in rows {
        if !datasets.iter().any(|d| d.dataset == r.dataset) {
            datasets.push(r);
        }
        if !methods.contains(&r.method.as_str()) {
            methods.push(&r.method);
        }
    }
    let header: Vec<String> = methods.iter().map(|m| cell(m)).collect();
    let mut out = format!(
        "| dataset | d | n | {} |\n|---|---|---|{}\n",
        header.join(" | "),
        "---|".repeat(methods.len())
    );
    for d in &datasets {
        let cells: Vec<String> = methods
            .iter()
            .map(|m| {
                let t: Vec<f64> = rows
                    .iter()
                    .filter(|r| r.dataset == d.dataset && r.method == *m)
                    .map(|r| 1e3 * r.fit_seconds)
                    .collect();
                if t.is_empty() {
                    return "–".into();
                }
                let (mean, std) = mean_std(&t);
                format!("{mean:.1} ± {std:.1}")
            })
            .collect();
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            cell(&d.dataset),
            d.dim,
            d.n_labeled + d.n_unlabeled,
            cells.join(" | ")
        ));
    }
    out.push_str(&format!("\nFit time per split in ms (selection + final fit + scoring), mean ± std over splits. {stamp}\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(dataset: &str, method: &str, secs: f64) -> ResultRow {
        ResultRow {
            n_labeled: 2,
            n_unlabeled: 8,
            dim: 5,
            fit_seconds: secs,
            ..crate::protocol::test_row(dataset, method, 0, 0.0)
        }
    }

    #[test]
    fn mean_and_std_in_milliseconds() {
        let rows = [row("a", "th", 0.001), row("a", "th", 0.003), row("a", "cv", 0.010)];
        let md = times_markdown(&rows, "stamp");
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "| dataset | d | n | th | cv |");
        // th: 1 and 3 ms → mean 2, sample std √2 ≈ 1.41.
        assert_eq!(lines[2], "| a | 5 | 10 | 2.0 ± 1.4 | 10.0 ± 0.0 |");
    }
}
