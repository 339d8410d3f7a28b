//! The papers' tables (`configs/published/*.csv`, `configs/ablations/*_paper.csv`), which
//! runs reproduce them, and the scorecard grid of one run against one table: our cell beside
//! the paper's, coloured by the distance in the paper's std.

use std::path::Path;

use super::page::{esc, tier};
use crate::error::{Error, Result};
use crate::protocol::ResultRow;
use crate::report::compare::{Published, distance, load_published};
use crate::report::tables::{self, ERROR, Table};

/// One published table: its file's stem, its leading `#` comment and its cells.
pub struct PaperTable {
    pub name: String,
    pub about: String,
    pub cells: Vec<Published>,
}

/// The published tables under `root`: `configs/published/*.csv`, then the ablations'
/// `configs/ablations/*_paper.csv`, each folder sorted by name.
pub fn load(root: &Path) -> Result<Vec<PaperTable>> {
    let mut out = Vec::new();
    for (dir, suffix) in [("configs/published", ".csv"), ("configs/ablations", "_paper.csv")] {
        let dir = root.join(dir);
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut files: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(suffix)))
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
            let about: Vec<&str> =
                text.lines().map_while(|l| l.strip_prefix('#')).map(str::trim).collect();
            let file = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            out.push(PaperTable {
                name: file.trim_end_matches(suffix).to_string(),
                about: about.join(" "),
                cells: load_published(&path)?,
            });
        }
    }
    Ok(out)
}

impl PaperTable {
    /// The run reproduces this table: its successful rows hold at least half of the
    /// table's (dataset, method) cells.
    pub fn covers(&self, rows: &[ResultRow]) -> bool {
        let held = self
            .cells
            .iter()
            .filter(|p| {
                rows.iter().any(|r| r.is_ok() && r.dataset == p.dataset && r.method == p.method)
            })
            .count();
        held > 0 && 2 * held >= self.cells.len()
    }

    /// The reproduction notes' name (`docs/reproduction/<paper>.md`): the name's first part.
    pub fn paper(&self) -> &str {
        self.name.split('_').next().unwrap_or(&self.name)
    }

    /// The published cell of (dataset, method).
    pub fn cell(&self, dataset: &str, method: &str) -> Option<&Published> {
        self.cells.iter().find(|p| p.dataset == dataset && p.method == method)
    }
}

/// How one run scores against one table.
pub struct Score {
    /// Cells within 2 std, cells with a distance, cells of the paper.
    pub within: usize,
    pub compared: usize,
    pub cells: usize,
}

/// Our error table over the paper's methods (significance among them, as `sslab table
/// --methods` computes it for the comparison files).
pub fn ours(table: &PaperTable, rows: &[ResultRow], stamp: &str) -> Result<Table> {
    let rows: Vec<ResultRow> = rows
        .iter()
        .filter(|r| table.cells.iter().any(|p| p.method == r.method && p.dataset == r.dataset))
        .cloned()
        .collect();
    tables::build(&rows, ERROR, stamp)
}

/// Our cell and its distance to the paper's (in the paper's std, or ours where it gives none).
fn compare(ours: &Table, p: &Published) -> (Option<tables::Cell>, Option<f64>) {
    let d = ours.datasets.iter().position(|x| *x == p.dataset);
    let m = ours.methods.iter().position(|x| *x == p.method);
    let cell = d.zip(m).and_then(|(d, m)| ours.cells[d][m].clone());
    let z = cell.as_ref().and_then(|c| distance(c.mean, c.std, p));
    (cell, z)
}

/// The grid of the paper's datasets × methods (in the file's order), and the score.
pub fn grid(table: &PaperTable, ours: &Table) -> (String, Score) {
    let mut datasets: Vec<&str> = Vec::new();
    let mut methods: Vec<&str> = Vec::new();
    for p in &table.cells {
        if !datasets.contains(&p.dataset.as_str()) {
            datasets.push(&p.dataset);
        }
        if !methods.contains(&p.method.as_str()) {
            methods.push(&p.method);
        }
    }
    let mut score = Score { within: 0, compared: 0, cells: table.cells.len() };
    let mut rows = Vec::new();
    for d in &datasets {
        let mut row = format!("<th>{}</th>", esc(d));
        for m in &methods {
            let Some(p) = table.cell(d, m) else {
                row.push_str("<td class=\"none\"></td>");
                continue;
            };
            let (cell, z) = compare(ours, p);
            if let Some(z) = z {
                score.compared += 1;
                score.within += usize::from(z.abs() <= 2.0);
            }
            let mine = cell.map_or("–".to_string(), |c| {
                format!("{:.2} ± {:.2}{}", c.mean, c.std, if c.worse() { " ↓" } else { "" })
            });
            let theirs =
                if p.mean.is_nan() { "lost".to_string() } else { format!("{:.2}", p.mean) };
            row.push_str(&format!(
                "<td class=\"num {}\" title=\"{}\">{}<small>paper {theirs} ± {:.2}{}</small><small>{}</small></td>",
                tier(z),
                esc(&p.note),
                esc(&mine),
                p.std,
                if p.worse { " ↓" } else { "" },
                z.map_or("–".to_string(), |z| format!("{z:+.2} std")),
            ));
        }
        rows.push(row);
    }
    let mut header = vec!["dataset"];
    header.extend(methods.iter().copied());
    let mut html = super::page::table(&header, &rows);
    let notes: Vec<String> = table
        .cells
        .iter()
        .filter(|p| !p.note.is_empty())
        .map(|p| {
            format!("<li><b>{} · {}</b>: {}</li>", esc(&p.dataset), esc(&p.method), esc(&p.note))
        })
        .collect();
    if !notes.is_empty() {
        html.push_str(&format!(
            "<details><summary>Notes on {} cells</summary><ul>{}</ul></details>\n",
            notes.len(),
            notes.concat()
        ));
    }
    (html, score)
}
