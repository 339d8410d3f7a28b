//! `sslab plot-curve`: error (or selected α) against a swept key of the config (`--x`), one
//! curve per method, over the datasets whose name starts with --prefix (PNG).

use std::path::PathBuf;

use sslab::Result;
use sslab::protocol::ResultRow;
use sslab::report::{self, figures, tables};

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
    /// What to plot: error (in %), alpha_l or alpha_u.
    #[arg(long, default_value = "error", value_parser = ["error", "alpha_l", "alpha_u"])]
    value: String,
    #[arg(long)]
    title: Option<String>,
    /// Output PNG.
    #[arg(short, long)]
    out: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    let rows = read_all(&a.results)?;
    let (pick, y_label): (fn(&ResultRow) -> Option<f64>, &str) = match a.value.as_str() {
        "alpha_l" => (|r| r.alpha_l, "selected α_l (mean over splits)"),
        "alpha_u" => (|r| r.alpha_u, "selected α_u (mean over splits)"),
        _ => (tables::error_percent, "error on unlabeled points (%)"),
    };
    let curves = figures::curves::along(&rows, &a.x, &a.prefix, pick)?;
    let plot = figures::curves::CurvePlot {
        curves: &curves,
        title: a.title.unwrap_or_else(|| format!("{}{} against {}", a.prefix, a.value, a.x)),
        x_label: a.x.clone(),
        y_label: y_label.into(),
        stamp: report::stamp(&hashes(&rows)),
    };
    create_parent(&a.out)?;
    figures::curves::draw(&plot, &a.out)?;
    println!("wrote {}", a.out.display());
    Ok(())
}
