//! `sslab plot-curve`: the error (or the test error, a PRBEP, any numeric column such as a
//! selected α) against a swept key of the config (`--x`), one curve per method, over the
//! datasets whose name starts with --prefix (PNG and/or SVG).

use std::path::PathBuf;

use sslab::Result;
use sslab::protocol::ResultRow;
use sslab::report::{self, columns, figures, tables};

use super::output::{hashes, read_all, write_formats};

#[derive(clap::Args)]
pub struct Args {
    /// One or more results.csv files.
    #[arg(required = true)]
    results: Vec<PathBuf>,
    /// The swept key on the x axis (a results.csv column with numbers).
    #[arg(long)]
    x: String,
    /// Only datasets whose name starts with this.
    #[arg(long, default_value = "")]
    prefix: String,
    /// What to plot: error or prbep on the unlabeled rows, test_error or test_prbep on the
    /// held-out test rows (all in %), or any numeric column of results.csv as written
    /// (alpha_l, alpha_u, lambda, a value the fits reported such as gamma, ...).
    #[arg(long, default_value = "error")]
    value: String,
    /// `dataset`: one panel per group of the other swept values (e.g. per dataset) instead of
    /// a line style per group.
    #[arg(long, value_parser = ["dataset"])]
    facet: Option<String>,
    #[arg(long)]
    title: Option<String>,
    /// Output file; its extension is replaced per --format.
    #[arg(short, long)]
    out: PathBuf,
    /// png, svg or both (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "png", value_parser = ["png", "svg"])]
    format: Vec<String>,
}

pub fn run(a: Args) -> Result<()> {
    let rows = read_all(&a.results)?;
    let column = a.value.as_str();
    let percent = [0.0, 100.0].map(Some);
    let (y_label, bounds, measure) = match column {
        "error" => ("error on unlabeled points (%)".to_string(), percent, Some(tables::ERROR)),
        "prbep" => ("PRBEP on unlabeled points (%)".into(), percent, Some(tables::PRBEP)),
        "test_error" => {
            ("error on held-out test points (%)".into(), percent, Some(tables::TEST_ERROR))
        }
        "test_prbep" => {
            ("PRBEP on held-out test points (%)".into(), percent, Some(tables::TEST_PRBEP))
        }
        "alpha_l" => ("selected αₗ (mean over splits)".into(), [Some(0.0), None], None),
        "alpha_u" => ("selected αᵤ (mean over splits)".into(), [Some(0.0), Some(1.0)], None),
        other => (format!("{other} (mean over splits)"), [None, None], None),
    };
    let curves = match measure {
        Some(m) => figures::curves::along(&rows, &a.x, &a.prefix, &|r| m.value(r))?,
        None => {
            columns::check(&rows, column)?;
            let pick = |r: &ResultRow| columns::value(r, column).number();
            figures::curves::along(&rows, &a.x, &a.prefix, &pick)?
        }
    };
    let x_label = match a.x.as_str() {
        "labeled_per_class" => "labeled examples per class".to_string(),
        x => x.replace("alpha_l", "αₗ").replace("alpha_u", "αᵤ"),
    };
    let on = a.prefix.trim_end_matches(['-', '_', ' ']);
    let on = if on.is_empty() { String::new() } else { format!("{on}: ") };
    let plot = figures::curves::CurvePlot {
        curves: &curves,
        title: a.title.unwrap_or_else(|| format!("{on}{y_label} against {x_label}")),
        x_label,
        y_label,
        stamp: report::stamp(&hashes(&rows)),
        bounds: (bounds[0], bounds[1]),
        facet: a.facet.is_some(),
    };
    write_formats(&a.out, &a.format, |out| figures::curves::draw(&plot, out))
}
