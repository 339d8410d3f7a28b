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
    /// From `configs/ablations/` (a hypothesis test), not a table of the paper.
    pub ablation: bool,
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
                ablation: suffix == "_paper.csv",
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

    /// This ablation tests a mismatch of `table`: its comment names `published/<table>.csv`,
    /// or, naming none, the same paper and a same "Table N".
    pub fn explains(&self, table: &PaperTable) -> bool {
        if !self.ablation || table.ablation {
            return false;
        }
        if self.about.contains("published/") {
            return self.about.contains(&format!("published/{}.csv", table.name));
        }
        let numbers = |about: &str| -> Vec<String> {
            about
                .split("Table ")
                .skip(1)
                .map(|w| w.chars().take_while(char::is_ascii_digit).collect())
                .collect()
        };
        let theirs = numbers(&table.about);
        self.paper() == table.paper()
            && numbers(&self.about).iter().any(|n| !n.is_empty() && theirs.contains(n))
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
            // A paper without stds: no "± 0.00".
            let spread = if p.std > 0.0 { format!(" ± {:.2}", p.std) } else { String::new() };
            row.push_str(&format!(
                "<td class=\"num {}\" title=\"{}\">{}<small>paper {theirs}{spread}{}</small><small>{}</small></td>",
                tier(z),
                esc(&p.note),
                esc(&mine),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::test_row;

    fn table(name: &str, ablation: bool, about: &str, cells: &[(&str, &str)]) -> PaperTable {
        let cells = cells
            .iter()
            .map(|(d, m)| Published {
                dataset: d.to_string(),
                method: m.to_string(),
                mean: 10.0,
                std: 0.0,
                worse: false,
                note: String::new(),
            })
            .collect();
        PaperTable { name: name.into(), ablation, about: about.into(), cells }
    }

    #[test]
    fn runs_cover_tables_and_ablations_explain_the_tables_they_name() {
        let t2 = table(
            "qlds_table2",
            false,
            "QLDS paper, Table 2: error",
            &[("a", "M"), ("b", "M"), ("c", "M")],
        );
        let t4 = table("qlds_table4", false, "QLDS paper, Table 4 (appendix)", &[("a", "N")]);
        let rows = [test_row("a", "M", 0, 0.1), test_row("b", "M", 0, 0.1)];
        assert!(t2.covers(&rows) && !t4.covers(&rows));
        assert!(!t2.covers(&rows[..1]), "1 of 3 cells is not half");
        let named =
            table("qlds_x", true, "Transcribed from configs/published/qlds_table4.csv", &[]);
        let unnamed = table("qlds_y", true, "The QLDS paper's Table 2 rows", &[]);
        let other = table("tv_z", true, "The TV paper's Table 2 rows", &[]);
        assert!(named.explains(&t4) && !named.explains(&t2));
        assert!(unnamed.explains(&t2) && !unnamed.explains(&t4));
        assert!(!other.explains(&t2) && !t2.explains(&t2));
        // The paper gives no std, so ours scales: a is 11 ± 1.41 (+0.71 std), b 21 ± 1.41
        // (+7.78 std), c is missing.
        let rows = [
            test_row("a", "M", 0, 0.10),
            test_row("a", "M", 1, 0.12),
            test_row("b", "M", 0, 0.20),
            test_row("b", "M", 1, 0.22),
        ];
        let ours = crate::report::tables::build(&rows, ERROR, "s").unwrap();
        let (html, score) = grid(&t2, &ours);
        assert_eq!((score.within, score.compared, score.cells), (1, 2, 3), "{html}");
        assert!(html.contains("class=\"num ok\"") && html.contains("+0.71 std"), "{html}");
        assert!(html.contains("class=\"num far\"") && html.contains("+7.78 std"), "{html}");
        assert!(html.contains("paper 10.00<"), "{html}");
    }
}
