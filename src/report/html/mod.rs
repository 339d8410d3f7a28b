//! `sslab report`: a static HTML site of run folders that opens offline (inline style, no
//! script, images copied beside the pages, relative links only). Every page is built from
//! files: the run folders, `configs/` (the configs and the papers' numbers), `figures/` and
//! `docs/reproduction/` under the repository root.
//!
//! Pages: `index.html` (every run, the scorecard's counts), `scorecard.html` (per published
//! table and run, our cells beside the paper's), `run-<id>.html` per run,
//! `notes-<paper>.html` per reproduction note, `figures.html` (figures of no run) and `img/`.

mod notes;
pub mod page;
mod run;
mod scorecard;
mod sections;
mod svg;

use std::path::{Path, PathBuf};

use page::{esc, link, td};
use run::Run;
use scorecard::PaperTable;

use crate::error::{Error, Result};

/// The run folders under `results`: every folder holding `results.csv` or `summary.md`,
/// searched below the others, sorted. Symbolic links are not followed (a link to `.` would
/// loop, a link elsewhere would publish what lies outside).
pub fn run_dirs(results: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(results)
        .map_err(|e| Error::io(results, e))?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    entries.sort();
    for dir in entries {
        if dir.join("results.csv").is_file() || dir.join("summary.md").is_file() {
            out.push(dir);
        } else {
            out.extend(run_dirs(&dir)?);
        }
    }
    Ok(out)
}

/// Regular files under `dir` (recursively, not following symbolic links) whose name ends
/// with one of `ext`, sorted.
fn files(dir: &Path, ext: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for entry in entries.filter_map(|e| e.ok()) {
        let (path, Ok(kind)) = (entry.path(), entry.file_type()) else { continue };
        if kind.is_dir() {
            out.extend(files(&path, ext));
        } else if kind.is_file() && ext.iter().any(|x| path.to_string_lossy().ends_with(x)) {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// A name safe in a file name and a link: letters, digits, `.`, `_`, `-`; others as `_`.
fn slug(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' })
        .collect()
}

/// Writes the site for the run folders `runs` into `out`, reading `configs/`, `figures/` and
/// `docs/reproduction/` under `root` and the figures (PNG, SVG) inside each run folder;
/// returns the pages written.
pub fn write(runs: &[PathBuf], root: &Path, out: &Path) -> Result<Vec<PathBuf>> {
    let img = out.join("img");
    if std::fs::symlink_metadata(&img).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(Error::Data(format!(
            "{}: a symbolic link, not written through",
            img.display()
        )));
    }
    std::fs::create_dir_all(&img).map_err(|e| Error::io(&img, e))?;
    let configs: Vec<(PathBuf, String)> = files(&root.join("configs"), &[".toml"])
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            Some((p.strip_prefix(root).unwrap_or(&p).to_path_buf(), text))
        })
        .collect();
    let mut loaded: Vec<Run> = Vec::new();
    for dir in runs {
        let name = dir.file_name().map_or("run".into(), |n| slug(&n.to_string_lossy()));
        let parent = dir
            .parent()
            .and_then(|p| p.file_name())
            .map_or(String::new(), |n| slug(&n.to_string_lossy()));
        let id =
            if loaded.iter().any(|r| r.id == name) { format!("{parent}-{name}") } else { name };
        loaded.push(Run::load(dir, id, &configs)?);
    }
    // Each figure goes to the run whose name is its longest prefix (`-` read as `_`).
    let mut loose = Vec::new();
    for fig in files(&root.join("figures"), &[".png", ".svg"]) {
        let name = fig.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
        // Written beside and renamed: a planted `img/NAME` link is replaced, not written through.
        let bytes = std::fs::read(&fig).map_err(|e| Error::io(&fig, e))?;
        crate::support::write_atomic(&img.join(&name), &bytes)?;
        let stem = name.rsplit_once('.').map_or(name.as_str(), |(s, _)| s);
        let owner = loaded
            .iter_mut()
            .filter(|r| {
                let n = r.name.replace('-', "_");
                stem == n || stem.starts_with(&format!("{n}_"))
            })
            .max_by_key(|r| r.name.len());
        match owner {
            Some(r) => r.figures.push(name),
            None => loose.push(name),
        }
    }
    // Figures a user wrote into a run folder (`--out out/NAME/curve.png`) are that run's,
    // named after it in `img/`.
    for r in loaded.iter_mut() {
        for fig in files(&r.dir, &[".png", ".svg"]) {
            let file = fig.file_name().map_or(String::new(), |n| slug(&n.to_string_lossy()));
            let name = format!("{}-{file}", r.id);
            let bytes = std::fs::read(&fig).map_err(|e| Error::io(&fig, e))?;
            crate::support::write_atomic(&img.join(&name), &bytes)?;
            r.figures.push(name);
        }
    }
    let papers = scorecard::load(root)?;
    let notes_md = files(&root.join("docs/reproduction"), &[".md"]);
    let note_names: Vec<String> = notes_md
        .iter()
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    let note_link = |dest: &str| {
        notes::web_or(dest, &|d: &str| {
            let file = d.split('#').next()?.rsplit('/').next()?;
            let stem = file.strip_suffix(".md")?;
            note_names.iter().any(|n| n == stem).then(|| format!("notes-{}.html", slug(stem)))
        })
    };
    let mut written = Vec::new();
    let mut put = |file: String, html: String| -> Result<()> {
        let path = out.join(file);
        crate::support::write_atomic(&path, html.as_bytes())?;
        written.push(path);
        Ok(())
    };
    for (path, name) in notes_md.iter().zip(&note_names) {
        let md = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        // The note's own first heading titles the page.
        let (title, md) = match md.split_once('\n') {
            Some((first, rest)) if first.starts_with("# ") => (first[2..].to_string(), rest),
            _ => (format!("Reproduction notes: {name}"), md.as_str()),
        };
        put(
            format!("notes-{}.html", slug(name)),
            page::page(&title, &notes::markdown(md, 0, &note_link)),
        )?;
    }
    for r in &loaded {
        let mine: Vec<&PaperTable> = papers.iter().filter(|p| p.covers(&r.rows)).collect();
        put(format!("run-{}.html", r.id), r.page(&mine, &note_link)?)?;
    }
    let (card, scores) = scorecard_page(&papers, &loaded, &note_names)?;
    put("scorecard.html".into(), card)?;
    put("index.html".into(), index(&loaded, &scores, &note_names))?;
    let figs = run::gallery(&loose);
    put(
        "figures.html".into(),
        page::page(
            "Other figures",
            &format!(
                "<p>Figures under <code>figures/</code> that belong to no run folder (theory studies, score histograms, benchmarks).</p>\n{figs}"
            ),
        ),
    )?;
    Ok(written)
}

/// One line of the scorecard's summary: table, run id, an ablation's, score.
type Line = (String, String, bool, scorecard::Score);

/// The scorecard page, and its lines for the index.
fn scorecard_page(
    papers: &[PaperTable],
    runs: &[Run],
    notes: &[String],
) -> Result<(String, Vec<Line>)> {
    let mut body = format!(
        "<p>Per table of the papers (<code>configs/published/</code>) and per ablation \
         (<code>configs/ablations/*_paper.csv</code>), every run folder holding at least half of its \
         cells: our error (mean ± std, % over splits) above the paper's. Significance (↓) is \
         computed among the table's methods.</p>\n{}",
        page::tier_legend()
    );
    let mut lines = Vec::new();
    for p in papers {
        body.push_str(&format!(
            "<h2 id=\"{}\">{}</h2>\n<p class=\"legend\">{}</p>\n",
            esc(&p.name),
            esc(&p.name),
            esc(&p.about)
        ));
        if notes.iter().any(|n| n == p.paper()) {
            body.push_str(&format!(
                "<p>Why cells differ: {}.</p>\n",
                link(
                    &format!("notes-{}.html", slug(p.paper())),
                    &format!("reproduction notes ({})", p.paper())
                )
            ));
        }
        let ablations: Vec<String> = papers
            .iter()
            .filter(|a| a.explains(p))
            .map(|a| link(&format!("#{}", a.name), &a.name))
            .collect();
        if !ablations.is_empty() {
            body.push_str(&format!(
                "<p>Ablations on this paper's mismatches: {}.</p>\n",
                ablations.join(", ")
            ));
        }
        let covering: Vec<&Run> = runs.iter().filter(|r| p.covers(&r.rows)).collect();
        if covering.is_empty() {
            body.push_str("<p>No run folder of this report reproduces this table.</p>\n");
        }
        for r in covering {
            let ours = scorecard::ours(p, &r.rows, &crate::report::stamp(&r.hashes().join("+")))?;
            let (grid, score) = scorecard::grid(p, &ours);
            body.push_str(&format!(
                "<h3>{}: {} of {} compared cells within 2 std ({} cells in the paper)</h3>\n{grid}<p class=\"stamp\">{}</p>\n",
                link(&format!("run-{}.html", r.id), &r.name),
                score.within,
                score.compared,
                score.cells,
                esc(&ours.stamp)
            ));
            lines.push((p.name.clone(), r.id.clone(), p.ablation, score));
        }
    }
    Ok((page::page("Reproduction scorecard", &body), lines))
}

/// The index: the scorecard's counts, every run, the notes.
fn index(runs: &[Run], scores: &[Line], notes: &[String]) -> String {
    let mut b = format!(
        "<p>Generated by sslab at commit {} from {} run folders.</p>\n",
        esc(crate::report::commit()),
        runs.len()
    );
    b.push_str("<h2>Reproduction scorecard</h2>\n");
    let name_of =
        |id: &str| runs.iter().find(|r| r.id == id).map_or(id.to_string(), |r| r.name.clone());
    for (ablations, what) in [(false, "paper table"), (true, "ablation")] {
        let rows: Vec<String> = scores
            .iter()
            .filter(|(_, _, a, _)| *a == ablations)
            .map(|(table, id, _, s)| {
                let share =
                    if s.compared > 0 { 100.0 * s.within as f64 / s.compared as f64 } else { 0.0 };
                format!(
                    "<td>{}</td><td>{}</td><td class=\"num {}\">{} of {} ({share:.0} %)</td><td class=\"num\">{}</td>",
                    link(&format!("scorecard.html#{table}"), table),
                    link(&format!("run-{id}.html"), &name_of(id)),
                    if share >= 75.0 { "ok" } else if share >= 40.0 { "near" } else { "far" },
                    s.within,
                    s.compared,
                    s.cells
                )
            })
            .collect();
        if !rows.is_empty() {
            b.push_str(&page::table(
                &[what, "run", "cells within 2 std", "cells in the paper"],
                &rows,
            ));
        }
    }
    b.push_str("<p class=\"legend\">Cells compared: those with our number and the paper's mean; within 2 std: \
                |ours − paper| ≤ 2 × the paper's std (ours where it gives none). Green: at least 75 % \
                of the compared cells within, yellow: at least 40 %, red: fewer.</p>\n");
    let notes: Vec<String> =
        notes.iter().map(|n| link(&format!("notes-{}.html", slug(n)), n)).collect();
    b.push_str(&format!(
        "<p>Reproduction notes (what differs and why): {}. Figures of no run: {}.</p>\n",
        notes.join(", "),
        link("figures.html", "other figures")
    ));
    let mut groups: Vec<String> = Vec::new();
    for r in runs {
        let g = r.dir.parent().map_or(String::new(), |p| p.display().to_string());
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    // Shallower folders first: results/ before results/ablations/.
    groups.sort_by_key(|g| g.matches('/').count());
    for g in groups {
        b.push_str(&format!("<h2>Runs in <code>{}</code></h2>\n", esc(&g)));
        let rows: Vec<String> = runs
            .iter()
            .filter(|r| r.dir.parent().map(|p| p.display().to_string()) == Some(g.clone()))
            .map(|r| {
                let (ok, failed) = r.counts();
                let fits = if r.rows.is_empty() {
                    "–".to_string()
                } else {
                    format!("{ok} ok, {failed} failed")
                };
                format!(
                    "<td>{}</td>{}{}{}{}<td class=\"num\">{}</td>{}",
                    link(&format!("run-{}.html", r.id), &r.name),
                    td(&r.hashes().join(", ")),
                    td(&fits),
                    td(&r.commits().join(", ")),
                    td(&r.date()),
                    r.figures.len(),
                    td(&r.about())
                )
            })
            .collect();
        b.push_str(&page::table(
            &[
                "run",
                "config hash",
                "fits",
                "commit",
                "date",
                "figures",
                "about (the config's leading comment)",
            ],
            &rows,
        ));
    }
    page::page(page::INDEX_TITLE, &b)
}
