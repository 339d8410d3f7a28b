//! Renderings of a [`Table`]: Markdown, LaTeX (booktabs) and CSV.

use super::{ALPHA, Cell, Table};
use crate::error::{Error, Result};

/// What ↓ means, as the Markdown legend, the LaTeX comment and the HTML report say it.
pub fn mark_meaning() -> String {
    format!(
        "↓: significantly worse than the best (one-sided paired Wilcoxon signed-rank test over \
         common splits, exact up to {} nonzero differences and normal beyond, Holm-corrected \
         for the comparisons in the row, p < {ALPHA})",
        crate::stats::EXACT_MAX
    )
}

/// The test description printed under every table.
fn legend(t: &Table) -> String {
    format!(
        "{}, mean ± std over splits; bold: best mean; {}. {}",
        t.measure.label,
        mark_meaning(),
        t.stamp
    )
}

/// Markdown rendering.
pub fn markdown(t: &Table) -> String {
    let methods: Vec<String> = t.methods.iter().map(|m| cell(m)).collect();
    let mut out =
        format!("| dataset | {} |\n|---|{}\n", methods.join(" | "), "---|".repeat(t.methods.len()));
    for (d, row) in t.datasets.iter().zip(&t.cells) {
        let cells: Vec<String> = row
            .iter()
            .map(|c| match c {
                None => "–".into(),
                Some(c) if c.best => {
                    format!("**{}{}**", t.measure.show(c.mean), spread(t, c, " ± "))
                }
                Some(c) => format!(
                    "{}{}{}",
                    t.measure.show(c.mean),
                    spread(t, c, " ± "),
                    if c.worse() { " ↓" } else { "" }
                ),
            })
            .collect();
        out.push_str(&format!("| {} | {} |\n", cell(d), cells.join(" | ")));
    }
    out.push_str(&format!("\n{}\n", legend(t)));
    for note in &t.notes {
        out.push_str(&format!("\n{note}\n"));
    }
    out
}

/// `sep` and the std of a cell over two splits or more; nothing over one split.
fn spread(t: &Table, c: &Cell, sep: &str) -> String {
    if c.splits >= 2 { format!("{sep}{}", t.measure.show(c.std)) } else { String::new() }
}

/// A name as one Markdown table cell: `|` escaped, line breaks as spaces.
pub fn cell(name: &str) -> String {
    name.replace('|', "\\|").replace(['\r', '\n'], " ")
}

/// LaTeX (booktabs) rendering.
pub fn latex(t: &Table) -> String {
    let esc = |s: &str| s.replace('_', "\\_").replace('%', "\\%").replace('&', "\\&");
    let mut out = format!(
        "% {}\n\\begin{{tabular}}{{l{}}}\n\\toprule\ndataset & {} \\\\\n\\midrule\n",
        legend(t),
        "r".repeat(t.methods.len()),
        t.methods.iter().map(|m| esc(m)).collect::<Vec<_>>().join(" & ")
    );
    for (d, row) in t.datasets.iter().zip(&t.cells) {
        let cells: Vec<String> = row
            .iter()
            .map(|c| match c {
                None => "--".into(),
                Some(c) if c.best => {
                    format!("\\textbf{{{}}}{}", t.measure.show(c.mean), spread(t, c, " $\\pm$ "))
                }
                Some(c) => format!(
                    "{}{}{}",
                    t.measure.show(c.mean),
                    spread(t, c, " $\\pm$ "),
                    if c.worse() { " $\\downarrow$" } else { "" }
                ),
            })
            .collect();
        out.push_str(&format!("{} & {} \\\\\n", esc(d), cells.join(" & ")));
    }
    out.push_str("\\bottomrule\n\\end{tabular}\n");
    for note in &t.notes {
        out.push_str(&format!("% {note}\n"));
    }
    out
}

/// CSV rendering, one line per cell: `dataset,method,mean,std,splits,best,p_value,p_holm,
/// worse,diff,diff_low,diff_high` (empty where a value does not apply).
pub fn csv(t: &Table) -> Result<String> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    let io = |e: ::csv::Error| Error::Report(e.to_string());
    w.write_record([
        "dataset",
        "method",
        "mean",
        "std",
        "splits",
        "best",
        "p_value",
        "p_holm",
        "worse",
        "diff",
        "diff_low",
        "diff_high",
    ])
    .map_err(io)?;
    let p = |v: Option<f64>| v.map_or(String::new(), |p| format!("{p:.6}"));
    let x =
        |v: Option<f64>| v.filter(|v| v.is_finite()).map_or(String::new(), |v| format!("{v:.4}"));
    for (d, row) in t.datasets.iter().zip(&t.cells) {
        for (m, c) in t.methods.iter().zip(row) {
            if let Some(c) = c {
                let diff = c.difference;
                let rec = [
                    d.clone(),
                    m.clone(),
                    format!("{:.4}", c.mean),
                    format!("{:.4}", c.std),
                    c.splits.to_string(),
                    c.best.to_string(),
                    p(c.p_value),
                    p(c.p_holm),
                    c.worse().to_string(),
                    x(diff.map(|d| d.mean)),
                    x(diff.map(|d| d.low)),
                    x(diff.map(|d| d.high)),
                ];
                w.write_record(&rec).map_err(io)?;
            }
        }
    }
    String::from_utf8(w.into_inner().map_err(|e| Error::Report(e.to_string()))?)
        .map_err(|e| Error::Report(e.to_string()))
}
