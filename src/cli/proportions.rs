//! `sslab proportions` (Fig. 4): error of the theory-chosen QLDS when the unlabeled class
//! shares are assumed equal to the (balanced) labeled ones, against knowing them; a line
//! chart (PNG and/or SVG) and a CSV.

use std::path::PathBuf;

use sslab::Result;
use sslab::methods::qlds::LambdaPolicy;
use sslab::methods::qlds::selection::{Grid, ProportionPoint, proportion_study};
use sslab::report::{self, figures};

use super::output::write_formats;

#[derive(clap::Args)]
pub struct Args {
    #[arg(long, default_value_t = 100)]
    dim: usize,
    #[arg(long, default_value_t = 50)]
    labeled_per_class: usize,
    /// Total unlabeled points.
    #[arg(long, default_value_t = 2000)]
    unlabeled: usize,
    #[arg(long, default_value_t = 1.0)]
    mean_norm: f64,
    /// Shares of class +1 among the unlabeled points.
    #[arg(long, value_delimiter = ',', default_value = "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9")]
    shares: Vec<f64>,
    #[arg(long, default_value_t = 20)]
    grid: usize,
    #[arg(long)]
    csv: PathBuf,
    /// Output figure; its extension is replaced per --format.
    #[arg(short, long)]
    out: PathBuf,
    /// png, svg or both (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "png", value_parser = ["png", "svg"])]
    format: Vec<String>,
}

pub fn run(a: Args) -> Result<()> {
    let grid = Grid::uniform(a.grid)?;
    let points = proportion_study(
        a.dim,
        a.labeled_per_class,
        a.unlabeled,
        a.mean_norm,
        &a.shares,
        &grid,
        LambdaPolicy::default(),
    )?;
    report::write_csv(&a.csv, &points)?;
    let curve = |label: &str, error: fn(&ProportionPoint) -> f64| figures::curves::Curve {
        label: label.into(),
        group: String::new(),
        points: points.iter().map(|p| (p.unlabeled_share, 100.0 * error(p), 0.0)).collect(),
    };
    let curves = [
        curve("α chosen assuming unlabeled shares = labeled shares", |p| p.assumed_error),
        curve("α chosen knowing the unlabeled shares", |p| p.known_error),
    ];
    let stamp = format!(
        "d = {}, {} labeled per class, {} unlabeled, ‖μ‖ = {} · {}",
        a.dim,
        a.labeled_per_class,
        a.unlabeled,
        a.mean_norm,
        report::stamp("none (CLI)")
    );
    let plot = figures::curves::CurvePlot {
        curves: &curves,
        title: "QLDS(th) under class-proportion mismatch".into(),
        x_label: "share of class +1 among unlabeled points".into(),
        y_label: "theoretical error (%)".into(),
        stamp,
        bounds: (Some(0.0), Some(100.0)),
        facet: false,
    };
    println!("wrote {}", a.csv.display());
    write_formats(&a.out, &a.format, |out| figures::curves::draw(&plot, out))
}
