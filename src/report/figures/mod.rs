//! PNG figures with plotters, one file per figure kind. Text uses the bundled DejaVu Sans
//! (`assets/fonts`), so no system font is needed.

mod annealing;
pub mod curves;
mod heatmap;
mod scaling;
mod scores;
mod theory_check;

pub use annealing::{AnnealingPlot, PathPoint, annealing_plot};
pub use scaling::{ScalingPlot, TimingSeries, scaling_plot};
pub use heatmap::{Heatmap, heatmap};
pub use scores::{ScoreHistogram, score_histogram};
pub use theory_check::{ErrorPair, theory_check};

use std::sync::Once;

use plotters::style::FontStyle;

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
