//! `sslab phase-diagram` (Fig. 5): theoretical gain of theory-tuned QLDS over LS-SVM against
//! the labeled count per class and ‖μ₁ − μ₂‖ (μ₁ = −μ₂), with simulated spot checks; a
//! heatmap (PNG and/or SVG) and a CSV.

use std::path::PathBuf;

use sslab::Result;
use sslab::methods::qlds::LambdaPolicy;
use sslab::methods::qlds::selection::{Grid, gain_table, phase_diagram, spot_check};
use sslab::report::{self, figures};

use super::output::write_formats;

#[derive(clap::Args)]
pub struct Args {
    #[arg(long, default_value_t = 100)]
    dim: usize,
    #[arg(long, default_value_t = 1000)]
    unlabeled_per_class: usize,
    #[arg(long, value_delimiter = ',', default_value = "2,5,10,20,50,100")]
    labeled_per_class: Vec<usize>,
    #[arg(long, value_delimiter = ',', default_value = "0.5,1,1.5,2,2.5,3,4")]
    distances: Vec<f64>,
    /// Grid points per α axis.
    #[arg(long, default_value_t = 20)]
    grid: usize,
    /// Cells checked by simulation, `NL:DIST` pairs (e.g. `5:2,50:2`); written to
    /// `<csv stem>_spot_checks.csv`.
    #[arg(long, value_delimiter = ',', value_parser = cell)]
    spot_checks: Vec<(usize, f64)>,
    /// Draws per spot check.
    #[arg(long, default_value_t = 10)]
    draws: usize,
    #[arg(long)]
    csv: PathBuf,
    /// Output figure; its extension is replaced per --format.
    #[arg(short, long)]
    out: PathBuf,
    /// png, svg or both (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "png", value_parser = ["png", "svg"])]
    format: Vec<String>,
}

/// `NL:DIST`.
fn cell(s: &str) -> std::result::Result<(usize, f64), String> {
    let bad = || format!("expected NL:DIST, got `{s}`");
    let (nl, dist) = s.split_once(':').ok_or_else(bad)?;
    Ok((nl.trim().parse().map_err(|_| bad())?, dist.trim().parse().map_err(|_| bad())?))
}

pub fn run(a: Args) -> Result<()> {
    let grid = Grid::uniform(a.grid)?;
    let points = phase_diagram(
        a.dim,
        a.unlabeled_per_class,
        &a.labeled_per_class,
        &a.distances,
        &grid,
        LambdaPolicy::default(),
    )?;
    report::write_csv(&a.csv, &points)?;
    let mut spots = Vec::new();
    for &(nl, dist) in &a.spot_checks {
        let check = spot_check(a.dim, a.unlabeled_per_class, nl, dist, &grid, a.draws, 2023)?;
        let theory = points.iter().find(|p| p.labeled_per_class == nl && p.distance == dist);
        println!(
            "spot check n_l = {nl}, distance {dist}: simulated gain {:.1} pp (LS-SVM {:.1}%, QLDS(th) {:.1}%), theory {}",
            100.0 * check.gain,
            100.0 * check.ls_svm_error,
            100.0 * check.tuned_error,
            theory.map_or("not on the grid".into(), |p| format!("{:.1} pp", 100.0 * p.gain))
        );
        spots.push(check);
    }
    if !spots.is_empty() {
        let stem = a.csv.file_stem().and_then(|s| s.to_str()).unwrap_or("phase");
        report::write_csv(&a.csv.with_file_name(format!("{stem}_spot_checks.csv")), &spots)?;
    }
    let stamp = format!(
        "d = {}, {} unlabeled per class, {}×{} grid · {}",
        a.dim,
        a.unlabeled_per_class,
        a.grid,
        a.grid,
        report::stamp("none (CLI)")
    );
    let heatmap = figures::Heatmap {
        values: &gain_table(&points, &a.labeled_per_class, &a.distances),
        x_labels: &a.labeled_per_class.iter().map(|n| n.to_string()).collect::<Vec<_>>(),
        y_labels: &a.distances.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
        x_desc: "labeled points per class",
        y_desc: "‖μ₁ − μ₂‖",
        format: |v| format!("{v:.1}"),
        title: "Theory: error of LS-SVM minus error of QLDS(th) (percentage points)".into(),
        stamp,
    };
    println!("wrote {}", a.csv.display());
    write_formats(&a.out, &a.format, |out| figures::heatmap(&heatmap, out))
}
