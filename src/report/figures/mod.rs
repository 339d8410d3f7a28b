//! Figures with plotters, one file per figure kind, as PNG or SVG (by the output's
//! extension). Text uses the bundled DejaVu Sans (`assets/fonts`), so no system font is
//! needed; PNG text is laid out by [`surface`].

mod annealing;
mod cd;
pub mod curves;
mod heatmap;
pub mod losses;
mod scaling;
pub mod scores;
pub mod style;
pub mod surface;
mod theory_check;
mod tuning;

pub use annealing::{AnnealingPlot, PathPoint, annealing_plot};
pub use cd::{CdDiagram, cd_diagram};
pub use heatmap::{Heatmap, heatmap};
pub use scaling::{
    ScaleFigure, ScaleSeries, ScalingPlot, TimingSeries, scale_figure, scaling_plot,
};
pub use scores::{ScoreHistogram, score_histogram};
pub use theory_check::{ErrorPair, theory_check};
pub use tuning::{GridLine, TuningPlot, tuning_plot};

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;

use crate::error::{Error, Result};

pub use surface::Surface;

/// A drawing area of a figure.
type Area<'a> = DrawingArea<Surface<'a>, Shift>;

/// A white PNG (or SVG, by the extension) of `size` at `path` whose bottom 30 px hold the provenance `stamp`; returns
/// the root (to `present` at the end) and the plot area above the footer.
fn canvas<'a>(path: &'a Path, size: (u32, u32), stamp: &str) -> Result<(Area<'a>, Area<'a>)> {
    register_font();
    let fail = |e: &dyn std::fmt::Display| Error::Report(format!("{}: {e}", path.display()));
    let root = Surface::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let (plot, footer) = root.split_vertically(size.1 - 30);
    let grey = ("sans-serif", 13).into_font().color(&RGBColor(90, 90, 90));
    footer.draw(&Text::new(stamp.to_string(), (12, 8), grey)).map_err(|e| fail(&e))?;
    Ok((root, plot))
}

static FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");

/// Registers the bundled font as "sans-serif" (once per process).
fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font file is part of the crate; failing to parse it is a build defect.
        plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
            .unwrap_or_else(|_| panic!("bundled DejaVu Sans font is invalid"));
    });
}
