//! Sections of a run's page built from its files: a summary table (the paper's number under
//! ours where published), the tuning grids of `tuning.csv` and the failed fits.

use std::path::Path;

use super::page::{esc, table, td, tier};
use crate::error::{Error, Result};
use crate::protocol::ResultRow;
use crate::report::compare::{Published, distance};
use crate::report::tables::{Table, mark_meaning};

/// A summary table; `paper` gives the published cell of (dataset, method), if any, shown
/// under ours and colouring it.
pub fn summary(t: &Table, paper: &dyn Fn(&str, &str) -> Option<Published>) -> String {
    let rows: Vec<String> = t
        .datasets
        .iter()
        .zip(&t.cells)
        .map(|(d, row)| {
            let mut html = format!("<th>{}</th>", esc(d));
            for (m, c) in t.methods.iter().zip(row) {
                let Some(c) = c else {
                    html.push_str("<td class=\"num\">–</td>");
                    continue;
                };
                let mean = t.measure.show(c.mean);
                let mut text = if c.best { format!("<b>{mean}</b>") } else { mean };
                if c.splits >= 2 {
                    text.push_str(&format!(" ± {}", t.measure.show(c.std)));
                }
                if c.worse() {
                    text.push_str(" ↓");
                }
                let p = match (c.p_value, c.p_holm) {
                    (Some(p), Some(h)) => format!("; p = {p:.3}, Holm p = {h:.3}"),
                    _ => String::new(),
                };
                let effect = c.difference.map_or(String::new(), |d| {
                    format!(
                        "; difference with the best {:+.2} [{:.2}, {:.2}]",
                        d.mean, d.low, d.high
                    )
                });
                let (class, under) = match paper(d, m) {
                    Some(p) => {
                        let z = distance(c.mean, c.std, &p);
                        let theirs =
                            if p.mean.is_nan() { "lost".into() } else { format!("{:.2}", p.mean) };
                        (
                            tier(z),
                            format!(
                                "<small>paper {theirs}{}</small>",
                                if p.worse { " ↓" } else { "" }
                            ),
                        )
                    }
                    None => ("", String::new()),
                };
                html.push_str(&format!(
                    "<td class=\"num {class}\" title=\"{} splits{p}{effect}\">{text}{under}</td>",
                    c.splits
                ));
            }
            html
        })
        .collect();
    let mut header = vec!["dataset"];
    header.extend(t.methods.iter().map(String::as_str));
    format!(
        "{}<p class=\"legend\">{}, mean ± std over splits; bold: best mean; {}; hover a cell for \
         its splits, p-values and mean paired difference with the best (95 % interval). {}</p>\n",
        table(&header, &rows),
        esc(&t.measure.label),
        esc(&mark_meaning()),
        esc(&t.stamp)
    )
}

/// The grids of a `tuning.csv`: per (dataset, method) every grid point with its mean tuning
/// error, the chosen one marked, folded under a line naming the choice.
pub fn tuning(path: &Path) -> Result<String> {
    let err = |e: csv::Error| Error::Csv { path: path.to_path_buf(), message: e.to_string() };
    let mut reader = csv::Reader::from_path(path).map_err(err)?;
    let header: Vec<String> = reader.headers().map_err(err)?.iter().map(String::from).collect();
    let col = |name: &str| header.iter().position(|h| h == name);
    let (Some(method), Some(criterion), Some(error), Some(std), Some(chosen)) =
        (col("method"), col("criterion"), col("error_percent"), col("std_percent"), col("chosen"))
    else {
        return Err(Error::Report(format!(
            "{}: not a tuning.csv (columns: {})",
            path.display(),
            header.join(", ")
        )));
    };
    let records: Vec<csv::StringRecord> =
        reader.records().collect::<Result<_, _>>().map_err(err)?;
    let mut groups: Vec<(String, String)> = Vec::new();
    for r in &records {
        let key = (r[0].to_string(), r[method].to_string());
        if !groups.contains(&key) {
            groups.push(key);
        }
    }
    let percent = |s: &str| s.parse::<f64>().map_or(s.to_string(), |v| format!("{v:.2}"));
    let edge = col("edge");
    let mut out = String::new();
    for (d, m) in groups {
        let rs: Vec<&csv::StringRecord> =
            records.iter().filter(|r| r[0] == *d && r[method] == *m).collect();
        let params: Vec<usize> =
            (method + 1..criterion).filter(|&i| rs.iter().any(|r| !r[i].is_empty())).collect();
        let point = |r: &csv::StringRecord| -> String {
            params
                .iter()
                .map(|&i| format!("{}={}", &header[i], &r[i]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let choice =
            rs.iter().find(|r| &r[chosen] == "true").map_or("no point chosen".to_string(), |r| {
                let on_edge = edge.map_or("", |i| &r[i]);
                let warn = if on_edge.is_empty() {
                    String::new()
                } else {
                    format!(", on the grid's edge: {on_edge}")
                };
                format!("chosen {} (error {} %{warn})", point(r), percent(&r[error]))
            });
        let rows: Vec<String> = rs
            .iter()
            .map(|r| {
                let class = if &r[chosen] == "true" { " class=\"chosen\"" } else { "" };
                let cells: String = params.iter().map(|&i| td(&r[i])).collect();
                let msg = col("message").map_or("", |i| &r[i]);
                format!(
                    "<td{class}>{}</td>{cells}<td class=\"num\">{} ± {}</td>{}",
                    if class.is_empty() { "" } else { "chosen" },
                    percent(&r[error]),
                    percent(&r[std]),
                    td(msg)
                )
            })
            .collect();
        let mut head = vec![""];
        head.extend(params.iter().map(|&i| header[i].as_str()));
        head.extend(["error % ± std", "message"]);
        out.push_str(&format!(
            "<details><summary>{} · {}: {} — {} points</summary>\n{}</details>\n",
            esc(&d),
            esc(&m),
            esc(&choice),
            rs.len(),
            table(&head, &rows)
        ));
    }
    Ok(out)
}

/// The failed fits, one line per (dataset, method, reason) with the splits it hit.
pub fn failures(rows: &[ResultRow]) -> String {
    // (dataset, method, reason) and the splits it hit.
    type Group<'a> = ((&'a str, &'a str, &'a str), Vec<usize>);
    let mut groups: Vec<Group> = Vec::new();
    for r in rows.iter().filter(|r| !r.is_ok()) {
        let key = (r.dataset.as_str(), r.method.as_str(), r.message.as_str());
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, splits)) => splits.push(r.split),
            None => groups.push((key, vec![r.split])),
        }
    }
    if groups.is_empty() {
        return "<p>No fit failed.</p>\n".into();
    }
    let rows: Vec<String> = groups
        .iter()
        .map(|((d, m, why), splits)| {
            let s: Vec<String> = splits.iter().map(usize::to_string).collect();
            format!(
                "{}{}<td class=\"num\">{}</td>{}{}",
                td(d),
                td(m),
                splits.len(),
                td(&s.join(" ")),
                td(why)
            )
        })
        .collect();
    table(&["dataset", "method", "fits", "splits", "reason"], &rows)
}
