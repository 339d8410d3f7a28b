//! One run folder as the report sees it (its rows, summary, config and provenance) and its
//! page.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::notes::markdown;
use super::page::{esc, link, page};
use super::scorecard::PaperTable;
use super::sections::{failures, summary as summary_table, tuning as tuning_grids};
use super::svg::curves;
use crate::error::Result;
use crate::protocol::{self, ResultRow};
use crate::report::{self, swept, tables, times};

/// A run folder: `results.csv` (if any), `summary.md` and where its config was found.
pub struct Run {
    /// The page's file stem, unique in the site.
    pub id: String,
    pub dir: PathBuf,
    pub name: String,
    pub rows: Vec<ResultRow>,
    pub summary: Option<String>,
    /// The config file and its text: the run's own `config.toml`, else the file under
    /// `configs/` with the run's config hash, else the one with its experiment name.
    pub config: Option<(PathBuf, String)>,
    /// Figures (file names under `img/`) whose name starts with the run's.
    pub figures: Vec<String>,
}

impl Run {
    /// Reads a run folder; `configs` are the (path, text) of every config file.
    pub fn load(dir: &Path, id: String, configs: &[(PathBuf, String)]) -> Result<Run> {
        let name = dir.file_name().map_or(id.clone(), |n| n.to_string_lossy().into_owned());
        let csv = dir.join("results.csv");
        let rows = if csv.is_file() { protocol::read_results(&csv)? } else { Vec::new() };
        let summary = std::fs::read_to_string(dir.join("summary.md")).ok();
        let own = dir.join("config.toml");
        let hashes: BTreeSet<&str> = rows.iter().map(|r| r.config_hash.as_str()).collect();
        let experiment = rows.first().map_or(name.as_str(), |r| r.experiment.as_str());
        let config = match std::fs::read_to_string(&own) {
            Ok(text) => Some((own, text)),
            Err(_) => configs
                .iter()
                .find(|(_, t)| crate::config::hash(t).is_ok_and(|h| hashes.contains(h.as_str())))
                .or_else(|| {
                    configs.iter().find(|(_, t)| experiment_name(t).as_deref() == Some(experiment))
                })
                .cloned(),
        };
        Ok(Run { id, dir: dir.to_path_buf(), name, rows, summary, config, figures: Vec::new() })
    }

    /// Distinct config hashes of the rows, sorted; without rows, those `summary.md` names.
    pub fn hashes(&self) -> Vec<String> {
        let mut set: BTreeSet<String> = self.rows.iter().map(|r| r.config_hash.clone()).collect();
        if set.is_empty() {
            set.extend(self.stamped("config "));
        }
        set.into_iter().collect()
    }

    /// The commits named by `summary.md`'s stamps.
    pub fn commits(&self) -> Vec<String> {
        self.stamped("commit ")
    }

    /// The distinct words after `label` in `summary.md` (its stamps' hashes or commits).
    fn stamped(&self, label: &str) -> Vec<String> {
        let text = self.summary.as_deref().unwrap_or_default();
        let mut out: Vec<String> = Vec::new();
        for word in text.split(label).skip(1) {
            let c: String =
                word.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
            if !c.is_empty() && !out.contains(&c) {
                out.push(c);
            }
        }
        out
    }

    /// The date the results were committed (git), else the day they were written.
    pub fn date(&self) -> String {
        let file = if self.rows.is_empty() { "summary.md" } else { "results.csv" };
        let path = self.dir.join(file);
        let git = std::process::Command::new("git")
            .args(["log", "-1", "--format=%cs", "--"])
            .arg(&path)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .filter(|s| !s.is_empty());
        git.unwrap_or_else(|| {
            let written = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
            written.map_or("unknown".into(), |t| format!("{} (written, not committed)", day(t)))
        })
    }

    /// The config's leading comment (what the run is), cut at 160 characters.
    pub fn about(&self) -> String {
        let text = self.config.as_ref().map_or("", |(_, t)| t.as_str());
        let comment: Vec<&str> =
            text.lines().map_while(|l| l.strip_prefix('#')).map(str::trim).collect();
        let comment = comment.join(" ");
        match comment.char_indices().nth(160) {
            Some((i, _)) => format!("{}…", &comment[..i]),
            None => comment,
        }
    }

    /// Successful and failed fits.
    pub fn counts(&self) -> (usize, usize) {
        let ok = self.rows.iter().filter(|r| r.is_ok()).count();
        (ok, self.rows.len() - ok)
    }

    /// The run's page; `papers` are the published tables it reproduces.
    pub fn page(
        &self,
        papers: &[&PaperTable],
        notes_link: &dyn Fn(&str) -> Option<String>,
    ) -> Result<String> {
        // (anchor, heading, body) of each section present.
        let mut parts: Vec<(&str, &str, String)> = Vec::new();
        if self.rows.is_empty() {
            if let Some(md) = &self.summary {
                parts.push(("summary", "Summary", markdown(md, 2, notes_link)));
            }
        } else {
            parts.push(("summary", "Summary", self.summaries(papers)?));
            let swept = self.swept()?;
            if !swept.is_empty() {
                parts.push(("swept", "Swept tables", swept));
            }
        }
        if !self.figures.is_empty() {
            let figs = gallery(&self.figures);
            parts.push(("figures", "Figures", figs));
        }
        let tuning = self.dir.join("tuning.csv");
        if tuning.is_file() {
            let intro = "<p>Mean error over the tuning splits per grid point (open a line for its grid); the chosen point is outlined.</p>\n";
            parts.push(("tuning", "Tuning grids", format!("{intro}{}", tuning_grids(&tuning)?)));
        }
        if !self.rows.is_empty() {
            let stamp = report::stamp(&self.hashes().join("+"));
            let md = times::times_markdown(&self.rows, &stamp);
            parts.push((
                "times",
                "Times",
                format!(
                    "<p>Fit + scoring time per split in ms, mean ± std.</p>\n{}",
                    markdown(&md, 2, notes_link)
                ),
            ));
            parts.push(("failed", "Failed fits", failures(&self.rows)));
        }
        let config = match &self.config {
            Some((path, text)) => format!(
                "<p><code>{}</code></p>\n<pre>{}</pre>\n",
                esc(&path.display().to_string()),
                esc(text)
            ),
            None => "<p>No config file found for this run.</p>\n".into(),
        };
        parts.push(("config", "Config", config));
        let toc: Vec<String> = parts.iter().map(|(id, h, _)| link(&format!("#{id}"), h)).collect();
        let mut b = format!("{}<p>Sections: {}</p>\n", self.provenance(), toc.join(" · "));
        for (id, h, body) in parts {
            b.push_str(&format!("<h2 id=\"{id}\">{h}</h2>\n{body}"));
        }
        Ok(page(&self.name, &b))
    }

    /// The provenance list at the top of the page.
    fn provenance(&self) -> String {
        let (ok, failed) = self.counts();
        let hashes = self.hashes().join(", ");
        let config_note = match (&self.config, self.hashes().first()) {
            (Some((_, text)), Some(_)) => match crate::config::hash(text) {
                Ok(h) if self.hashes().contains(&h) => String::new(),
                Ok(h) => {
                    format!(" (the config file below now hashes to {h}: changed since the run)")
                }
                Err(_) => String::new(),
            },
            _ => String::new(),
        };
        let mut items = vec![
            ("folder", esc(&self.dir.display().to_string())),
            ("config hash", esc(&(hashes + &config_note))),
            ("commit", esc(&self.commits().join(", "))),
            ("date", esc(&self.date())),
        ];
        if !self.rows.is_empty() {
            let distinct = |f: &dyn Fn(&ResultRow) -> &str| {
                self.rows.iter().map(f).collect::<BTreeSet<_>>().len()
            };
            items.push(("fits", format!("{ok} ok, {failed} failed")));
            items.push((
                "datasets · methods",
                format!("{} · {}", distinct(&|r| &r.dataset), distinct(&|r| &r.method)),
            ));
        }
        let dl: String = items.iter().map(|(k, v)| format!("<dt>{k}</dt><dd>{v}</dd>")).collect();
        format!("<dl>{dl}</dl>\n")
    }

    /// The summary tables per measure, the paper's number under ours where published.
    fn summaries(&self, papers: &[&PaperTable]) -> Result<String> {
        let stamp = report::stamp(&self.hashes().join("+"));
        let mut b = String::new();
        if !papers.is_empty() {
            let names: Vec<String> = papers
                .iter()
                .map(|p| link(&format!("scorecard.html#{}", p.name), &p.name))
                .collect();
            b.push_str(&format!(
                "<p>The paper's numbers (from {}) are shown under ours in the error table, coloured by the distance.</p>\n{}",
                names.join(", "),
                super::page::tier_legend()
            ));
        }
        for measure in [tables::ERROR, tables::TEST_ERROR, tables::PRBEP, tables::TEST_PRBEP] {
            if !self.rows.iter().any(|r| r.is_ok() && measure.value(r).is_some()) {
                continue;
            }
            let percent_error = measure.label == tables::ERROR.label;
            let t = tables::build(&self.rows, measure, &stamp)?;
            let paper = |d: &str, m: &str| {
                percent_error.then(|| papers.iter().find_map(|p| p.cell(d, m).cloned())).flatten()
            };
            b.push_str(&format!(
                "<h3>{}</h3>\n{}",
                esc(&t.measure.label),
                summary_table(&t, &paper)
            ));
        }
        Ok(b)
    }

    /// One error table per swept key (but `dataset`), a row per value of the key, and its
    /// curves where the values are numbers.
    fn swept(&self) -> Result<String> {
        let stamp = report::stamp(&self.hashes().join("+"));
        let keys: BTreeSet<&str> =
            self.rows.iter().flat_map(|r| r.swept.iter().map(|(k, _)| k.as_str())).collect();
        let mut b = String::new();
        for key in keys.into_iter().filter(|k| *k != "dataset") {
            let rows: Vec<ResultRow> =
                swept::along(&self.rows, key)?.into_iter().map(|(r, _)| r).collect();
            let table = tables::build(&rows, tables::ERROR, &stamp)?;
            let body = format!("{}{}", summary_table(&table, &|_, _| None), curves(&table, key));
            // Many settings (several keys swept at once) fold away to keep the page readable.
            b.push_str(&if table.datasets.len() > 12 {
                format!(
                    "<details><summary>Error along <code>{}</code>: {} settings</summary>\n{body}</details>\n",
                    esc(key),
                    table.datasets.len()
                )
            } else {
                format!("<h3>Error along <code>{}</code></h3>\n{body}", esc(key))
            });
        }
        Ok(b)
    }
}

/// Figures of the site's `img/` folder side by side, each captioned with its file name and
/// linked to itself at full size.
pub fn gallery(files: &[String]) -> String {
    let figs: String = files
        .iter()
        .map(|f| {
            format!(
                "<figure><a href=\"img/{0}\"><img src=\"img/{0}\" alt=\"{0}\"></a><figcaption>{0}</figcaption></figure>\n",
                esc(f)
            )
        })
        .collect();
    format!("<div class=\"gallery\">\n{figs}</div>\n")
}

/// `[experiment] name` of a config's text.
fn experiment_name(text: &str) -> Option<String> {
    let table: toml::Table = toml::from_str(text).ok()?;
    table.get("experiment")?.get("name")?.as_str().map(String::from)
}

/// The UTC day of `t` as YYYY-MM-DD (civil from days, H. Hinnant's algorithm).
fn day(t: std::time::SystemTime) -> String {
    let secs = t.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_civil_dates() {
        let at = |s: u64| day(std::time::UNIX_EPOCH + std::time::Duration::from_secs(s));
        assert_eq!(at(0), "1970-01-01");
        assert_eq!(at(951_782_400), "2000-02-29");
        assert_eq!(at(1_795_996_800 + 86_399), "2026-11-30");
    }
}
