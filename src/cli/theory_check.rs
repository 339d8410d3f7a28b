//! `sslab theory-check`: Monte-Carlo check of the theory on spec §5's grid (120 settings):
//! a CSV with theory and empirical mean/std/error per setting and a figure (PNG and/or SVG)
//! of theory against simulation; `--from-csv` redraws the figure from an earlier CSV.
//! `--multiclass` runs the K-class theory's grid instead (K = 3, 4, 10; 72 settings).

use std::path::{Path, PathBuf};

use sslab::methods::qlds::LambdaPolicy;
use sslab::methods::qlds::theory::{
    CheckRow, MulticlassCheckRow, multiclass_grid, multiclass_holdout_grid, run_check,
    run_multiclass_check, spec_grid,
};
use sslab::report::{self, figures};
use sslab::{Error, Result};

use super::output::{create_parent, write_formats};

#[derive(clap::Args)]
pub struct Args {
    /// Independent draws per setting.
    #[arg(long, default_value_t = 5)]
    draws: usize,
    #[arg(long, default_value_t = 2023)]
    seed: u64,
    /// `max_eig_all` or `max_eig_unlabeled`.
    #[arg(long, default_value = "max_eig_all")]
    lambda: String,
    #[arg(short, long, default_value = "results/theory_check.csv")]
    out: PathBuf,
    /// Output figure; its extension is replaced per --format.
    #[arg(long, default_value = "figures/theory_check.png")]
    figure: PathBuf,
    /// png, svg or both (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "png", value_parser = ["png", "svg"])]
    format: Vec<String>,
    /// Redraw the figure from this CSV of an earlier run (`--out`'s columns) instead of
    /// simulating: `make redraw-figures`.
    #[arg(long)]
    from_csv: Option<PathBuf>,
    /// The K-class theory on its grid (`make qlds-multiclass-theory`), error band ±0.01.
    #[arg(long)]
    multiclass: bool,
    /// With --multiclass: the hold-out grid of the finite-n rule instead
    /// (`make qlds-multiclass-theory-holdout`; 240 settings).
    #[arg(long, requires = "multiclass")]
    holdout: bool,
}

pub fn run(a: Args) -> Result<()> {
    if let Some(csv) = &a.from_csv {
        let rows = read_rows(csv)?;
        let draws = rows.first().map_or(0, |r| r.draws);
        let lambda = rows.first().map_or(String::new(), |r| r.lambda_policy.clone());
        let points: Vec<_> = rows.iter().filter_map(|r| r.point).collect();
        return draw(&a, &points, rows.len(), draws, &lambda);
    }
    let policy = LambdaPolicy::parse(&a.lambda, LambdaPolicy::EPSILON)
        .filter(|p| !matches!(p, LambdaPolicy::Fixed(_)))
        .ok_or_else(|| {
            Error::param(
                "lambda",
                format!("expected max_eig_all or max_eig_unlabeled, got `{}`", a.lambda),
            )
        })?;
    faer::set_global_parallelism(faer::Par::Seq);
    if a.multiclass {
        return multiclass(&a, policy);
    }
    let rows = run_check(&spec_grid(), policy, a.draws, a.seed, true)?;
    let count = |f: fn(&CheckRow) -> bool| rows.iter().filter(|r| f(r)).count();
    let summary = format!(
        "{} settings: theory valid {}, error within 0.02: {}, m and σ within 10%: {}, m/σ within 10%: {}",
        rows.len(),
        count(|r| r.theory_valid),
        count(|r| r.error_within_002),
        count(|r| r.moments_within_10pct),
        count(|r| r.ratio_within_10pct),
    );
    let points =
        rows.iter().map(|r| pair(r.theory_error, r.empirical_error, r.empirical_error_std));
    write(&a, &rows, points, &summary)
}

/// The K-class check: its CSV, a summary line and the figure.
fn multiclass(a: &Args, policy: LambdaPolicy) -> Result<()> {
    let grid = if a.holdout { multiclass_holdout_grid() } else { multiclass_grid() };
    let rows = run_multiclass_check(&grid, policy, a.draws, a.seed, true)?;
    let count = |f: &dyn Fn(&MulticlassCheckRow) -> bool| rows.iter().filter(|r| f(r)).count();
    let miss = |r: &MulticlassCheckRow| {
        r.theory_error_limit.is_some_and(|t| (t - r.empirical_error).abs() > 0.01)
    };
    let flagged = |r: &MulticlassCheckRow| r.theory_error_limit.is_some() && !r.theory_valid;
    let summary = format!(
        "{} settings: theory valid {}, error within 0.01: {}; the finite-n rule flags {} \
         ({} of them miss 0.01 without it), valid but missing 0.01: {}",
        rows.len(),
        count(&|r| r.theory_valid),
        count(&|r| r.error_within_001),
        count(&flagged),
        count(&|r| flagged(r) && miss(r)),
        count(&|r| r.theory_valid && miss(r)),
    );
    let points =
        rows.iter().map(|r| pair(r.theory_error, r.empirical_error, r.empirical_error_std));
    write(a, &rows, points, &summary)
}

/// Writes the rows as the CSV `--out`, prints `summary`, and draws the figure of the points
/// that have a theory value.
fn write<R: serde::Serialize>(
    a: &Args,
    rows: &[R],
    points: impl Iterator<Item = Option<figures::ErrorPair>>,
    summary: &str,
) -> Result<()> {
    create_parent(&a.out)?;
    report::write_csv(&a.out, rows)?;
    println!("{summary}\nwrote {}", a.out.display());
    let points: Vec<_> = points.flatten().collect();
    draw(a, &points, rows.len(), a.draws, &a.lambda)
}

/// A point of the figure where the theory has a value.
fn pair(theory: Option<f64>, empirical: f64, empirical_std: f64) -> Option<figures::ErrorPair> {
    theory.map(|theory| figures::ErrorPair { theory, empirical, empirical_std })
}

/// The figure of `points` (of `settings` settings with `draws` draws each, λ policy `lambda`).
fn draw(
    a: &Args,
    points: &[figures::ErrorPair],
    settings: usize,
    draws: usize,
    lambda: &str,
) -> Result<()> {
    let (kind, band) = if a.multiclass { ("Multi-class QLDS", 0.01) } else { ("QLDS", 0.02) };
    let title =
        format!("{kind} theory vs simulation: {settings} settings × {draws} draws, λ: {lambda}");
    let stamp = report::stamp(&format!("theory-check seed {}", a.seed));
    write_formats(&a.figure, &a.format, |out| {
        figures::theory_check(points, band, &title, &stamp, out)
    })
}

/// What the figure needs of a row of the check's CSV.
struct SavedRow {
    draws: usize,
    lambda_policy: String,
    /// Theory and simulation, where the theory is valid.
    point: Option<figures::ErrorPair>,
}

/// The rows of a CSV written by an earlier `theory-check`.
fn read_rows(path: &Path) -> Result<Vec<SavedRow>> {
    let bad = |m: String| Error::Csv { path: path.into(), message: m };
    let mut r = csv::Reader::from_path(path).map_err(|e| bad(e.to_string()))?;
    let header = r.headers().map_err(|e| bad(e.to_string()))?.clone();
    let col = |name: &str| {
        header.iter().position(|h| h == name).ok_or_else(|| bad(format!("no column `{name}`")))
    };
    let cols = ["draws", "lambda_policy", "theory_error", "empirical_error", "empirical_error_std"]
        .map(col);
    let [draws, lambda, theory, empirical, std] = cols;
    let (draws, lambda, theory, empirical, std) = (draws?, lambda?, theory?, empirical?, std?);
    let mut rows = Vec::new();
    for (i, rec) in r.records().enumerate() {
        let rec = rec.map_err(|e| bad(e.to_string()))?;
        let line = i + 2;
        let num = |k: usize| {
            rec[k].parse::<f64>().map_err(|_| {
                bad(format!("line {line}: `{}` = `{}` is not a number", &header[k], &rec[k]))
            })
        };
        let point = match &rec[theory] {
            "" => None,
            _ => pair(Some(num(theory)?), num(empirical)?, num(std)?),
        };
        rows.push(SavedRow {
            draws: num(draws)? as usize,
            lambda_policy: rec[lambda].to_string(),
            point,
        });
    }
    Ok(rows)
}
