//! Helpers the subcommands share: reading result files, writing outputs.

use std::path::{Path, PathBuf};

use sslab::config::Experiment;
use sslab::protocol::{self, ResultRow};
use sslab::report::{self, tables};
use sslab::{Error, Result};

/// Rows of several results files, pooled.
pub fn read_all(results: &[PathBuf]) -> Result<Vec<ResultRow>> {
    let mut rows = Vec::new();
    for path in results {
        rows.extend(protocol::read_results(path)?);
    }
    Ok(rows)
}

/// The distinct config hashes of `rows`, joined with `+` (for stamps).
pub fn hashes(rows: &[ResultRow]) -> String {
    let mut h: Vec<&str> = rows.iter().map(|r| r.config_hash.as_str()).collect();
    h.sort();
    h.dedup();
    h.join("+")
}

/// Creates the parent folder of an output file.
pub fn create_parent(out: &Path) -> Result<()> {
    match out.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) => std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e)),
        None => Ok(()),
    }
}

/// Draws a figure once per format (`png`, `svg`) at `out` with that extension, printing each.
pub fn write_formats(
    out: &Path,
    formats: &[String],
    draw: impl Fn(&Path) -> Result<()>,
) -> Result<()> {
    for ext in formats {
        let path = out.with_extension(ext);
        create_parent(&path)?;
        draw(&path)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// The outputs of a whole run in `dir` whose rows came from the row logs `logs`:
/// results.csv, summary.md (also printed) and, when the config saves scores, scores.csv.
pub fn write_run(exp: &Experiment, rows: &[ResultRow], logs: &[PathBuf], dir: &Path) -> Result<()> {
    let csv = dir.join("results.csv");
    protocol::write_results(&csv, rows)?;
    protocol::write_scores(exp, rows, logs, dir)?;
    // The unlabeled error, and the test error where the datasets hold out test rows.
    let measures = [tables::ERROR, tables::TEST_ERROR]
        .into_iter()
        .filter(|m| rows.iter().any(|r| r.is_ok() && m.value(r).is_some()));
    let md = measures
        .map(|m| Ok(tables::markdown(&tables::build(rows, m, &report::stamp(&exp.hash))?)))
        .collect::<Result<Vec<_>>>()?
        .join("\n");
    let md_path = dir.join("summary.md");
    write(&md_path, &format!("# {}\n\n{md}", exp.name))?;
    println!("{md}\nwrote {} and {}", csv.display(), md_path.display());
    Ok(())
}

/// Writes `text` to `path` whole or not at all (a temporary file renamed over it, so a
/// full disk leaves the old file and a symlink there is replaced, not written through).
pub fn write(path: &Path, text: &str) -> Result<()> {
    sslab::support::write_atomic(path, text.as_bytes())
}

/// A number for JSON output: `null` when not finite.
pub fn json_number(v: f64) -> String {
    if v.is_finite() { format!("{v}") } else { "null".into() }
}
