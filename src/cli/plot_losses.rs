//! `sslab plot-losses`: the SVMlin paper's Fig. 1 (the l2 loss of TSVM on labeled and
//! unlabeled points) and Fig. 2 (the DA loss on an unlabeled point for several
//! temperatures), drawn from the solvers' loss code.

use std::path::PathBuf;

use sslab::Result;
use sslab::report::{self, figures};

use super::output::write_formats;

#[derive(clap::Args)]
pub struct Args {
    /// Output folder: svmlin_fig1_tsvm_loss.EXT and svmlin_fig2_da_loss.EXT.
    #[arg(short, long, default_value = "figures")]
    out: PathBuf,
    /// Temperatures of Fig. 2 (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "3,1.5,0.8,0.4,0.1")]
    temperatures: Vec<f64>,
    /// png, svg or both (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "png", value_parser = ["png", "svg"])]
    format: Vec<String>,
}

pub fn run(a: Args) -> Result<()> {
    if let Some(t) = a.temperatures.iter().find(|t| !(**t > 0.0 && t.is_finite())) {
        return Err(sslab::Error::param("temperatures", format!("{t} is not a positive number")));
    }
    let stamp = report::stamp("none (CLI)");
    let (fig1, fig2) =
        (figures::losses::tsvm_curves(), figures::losses::da_curves(&a.temperatures));
    let plots = [
        ("svmlin_fig1_tsvm_loss", &fig1, "SVMlin Fig. 1: the l₂ loss of TSVM", "loss"),
        (
            "svmlin_fig2_da_loss",
            &fig2,
            "SVMlin Fig. 2: the DA loss on an unlabeled point, by temperature T",
            "loss (λᵤ = 1)",
        ),
    ];
    for (name, curves, title, y) in plots {
        let plot = figures::curves::CurvePlot {
            curves,
            title: title.into(),
            x_label: "output o = wᵀx".into(),
            y_label: y.into(),
            stamp: stamp.clone(),
            bounds: (None, None),
            facet: false,
        };
        write_formats(&a.out.join(name), &a.format, |out| figures::curves::draw(&plot, out))?;
    }
    Ok(())
}
