//! Theory against simulation: empirical error (mean ± std over draws) against the
//! theoretical error, one point per setting, with the diagonal and a ± band around it.

use std::path::Path;

use plotters::prelude::*;

use super::style::{self, Entry, Marker};
use crate::error::{Error, Result};

/// One point: theoretical error, empirical mean and standard deviation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ErrorPair {
    pub theory: f64,
    pub empirical: f64,
    pub empirical_std: f64,
}

/// Draws the scatter with the band ±`band` into a PNG (or SVG, by the extension) at `path`,
/// the legend beside the plot.
pub fn theory_check(
    points: &[ErrorPair],
    band: f64,
    title: &str,
    stamp: &str,
    path: &Path,
) -> Result<()> {
    let fail = |e: &dyn std::fmt::Display| Error::Report(format!("{}: {e}", path.display()));
    if points.is_empty() {
        return Err(Error::Report("theory check figure needs at least one point".into()));
    }
    let top =
        points.iter().map(|p| p.theory.max(p.empirical + p.empirical_std)).fold(0.0, f64::max)
            * 1.05;
    let (grey, blue) = (RGBColor(150, 150, 150), RGBColor(31, 119, 180));
    let line = |label: &str, colour: RGBColor| Entry {
        label: label.into(),
        colour: Some(colour),
        marker: None,
        dash: Some(None),
    };
    // The legend outside the plot.
    let entries = [
        line("theory = simulation", BLACK),
        line(&format!("±{band} around it"), grey),
        Entry {
            label: "settings (mean ± std)".into(),
            colour: Some(blue),
            marker: Some(Marker::Circle),
            dash: None,
        },
    ];
    let width = style::legend_width(&entries);
    let (root, plot) = super::canvas(path, (760 + width, 760), stamp)?;
    let plot = plot.titled(title, ("sans-serif", 20)).map_err(|e| fail(&e))?;
    let body = style::beside(&plot, width, 30, &entries)?;
    let mut chart = ChartBuilder::on(&body)
        .margin(14)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..top, 0.0..top)
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .x_desc("theoretical error")
        .y_desc("empirical error (mean ± std over draws)")
        .x_label_formatter(&|v| super::style::tick(*v))
        .y_label_formatter(&|v| super::style::tick(*v))
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(|e| fail(&e))?;
    chart.draw_series(LineSeries::new([(0.0, 0.0), (top, top)], BLACK)).map_err(|e| fail(&e))?;
    for shift in [-band, band] {
        chart
            .draw_series(LineSeries::new([(0.0, shift), (top, top + shift)], grey.stroke_width(1)))
            .map_err(|e| fail(&e))?;
    }
    chart
        .draw_series(points.iter().map(|p| {
            PathElement::new(
                [
                    (p.theory, p.empirical - p.empirical_std),
                    (p.theory, p.empirical + p.empirical_std),
                ],
                blue.mix(0.5),
            )
        }))
        .map_err(|e| fail(&e))?;
    chart
        .draw_series(points.iter().map(|p| Circle::new((p.theory, p.empirical), 3, blue.filled())))
        .map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))
}
