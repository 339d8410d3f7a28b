//! `sslab plot-curve`: error (or any numeric column, e.g. a selected α) against a swept key
//! of the config (`--x`), one curve per method, over the datasets whose name starts with
//! --prefix (PNG).

use std::path::PathBuf;

use sslab::Result;
use sslab::protocol::ResultRow;
use sslab::report::{self, columns, figures, tables};

use super::output::{create_parent, hashes, read_all};

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
    /// What to plot: error (in %), or any numeric column of results.csv as written (alpha_l,
    /// alpha_u, lambda, a value the fits reported such as gamma, prbep, ...).
    #[arg(long, default_value = "error")]
    value: String,
    #[arg(long)]
    title: Option<String>,
    /// Output PNG.
    #[arg(short, long)]
    out: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    let rows = read_all(&a.results)?;
    let column = a.value.as_str();
    let y_label = match column {
        "error" => "error on unlabeled points (%)".to_string(),
        "alpha_l" => "selected α_l (mean over splits)".to_string(),
        "alpha_u" => "selected α_u (mean over splits)".to_string(),
        other => format!("{other} (mean over splits)"),
    };
    let curves = if column == "error" {
        figures::curves::along(&rows, &a.x, &a.prefix, &tables::error_percent)?
    } else {
        columns::check(&rows, column)?;
        let pick = |r: &ResultRow| columns::value(r, column).number();
        figures::curves::along(&rows, &a.x, &a.prefix, &pick)?
    };
    let plot = figures::curves::CurvePlot {
        curves: &curves,
        title: a.title.unwrap_or_else(|| format!("{}{} against {}", a.prefix, a.value, a.x)),
        x_label: a.x.clone(),
        y_label,
        stamp: report::stamp(&hashes(&rows)),
    };
    create_parent(&a.out)?;
    figures::curves::draw(&plot, &a.out)?;
    println!("wrote {}", a.out.display());
    Ok(())
}
