//! A heatmap of values on a (column, row) grid with the value printed in each cell.

use std::path::Path;

use plotters::prelude::*;

use crate::error::{Error, Result};

/// Cells `values[row][col]`; columns and rows are labelled by `x_labels`, `y_labels`.
#[derive(Debug, Clone)]
pub struct Heatmap<'a> {
    pub values: &'a [Vec<f64>],
    pub x_labels: &'a [String],
    pub y_labels: &'a [String],
    pub x_desc: &'a str,
    pub y_desc: &'a str,
    /// How a value is printed in its cell.
    pub format: fn(f64) -> String,
    pub title: String,
    pub stamp: String,
}

/// Draws the heatmap (white = smallest value, dark blue = largest) into a PNG at `path`.
pub fn heatmap(h: &Heatmap, path: &Path) -> Result<()> {
    let fail = |e: &dyn std::fmt::Display| Error::Report(format!("{}: {e}", path.display()));
    let (nx, ny) = (h.x_labels.len(), h.y_labels.len());
    if nx == 0 || ny == 0 || h.values.len() != ny || h.values.iter().any(|r| r.len() != nx) {
        return Err(Error::Report("heatmap needs values[row][col] matching the labels".into()));
    }
    let lo = h.values.iter().flatten().copied().fold(f64::INFINITY, f64::min);
    let hi = h.values.iter().flatten().copied().fold(f64::NEG_INFINITY, f64::max);
    let (root, whole) = super::canvas(path, (980, 640), &h.stamp)?;
    let (plot, bar) = whole.split_horizontally(860);
    let mut chart = ChartBuilder::on(&plot)
        .caption(&h.title, ("sans-serif", 20))
        .margin(14)
        .x_label_area_size(44)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..nx as f64, 0.0..ny as f64)
        .map_err(|e| fail(&e))?;
    let label =
        |labels: &[String], v: f64| labels.get(v.floor() as usize).cloned().unwrap_or_default();
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(nx * 2 + 1)
        .y_labels(ny * 2 + 1)
        .x_label_formatter(&|v| {
            if (v.fract() - 0.5).abs() < 1e-9 { label(h.x_labels, *v) } else { String::new() }
        })
        .y_label_formatter(&|v| {
            if (v.fract() - 0.5).abs() < 1e-9 { label(h.y_labels, *v) } else { String::new() }
        })
        .x_desc(h.x_desc)
        .y_desc(h.y_desc)
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(|e| fail(&e))?;
    let shade = |v: f64| {
        let t = if hi > lo { (v - lo) / (hi - lo) } else { 0.0 };
        let mix = |a: f64, b: f64| (a + t * (b - a)).round() as u8;
        RGBColor(mix(255.0, 8.0), mix(255.0, 69.0), mix(255.0, 148.0))
    };
    for (r, row) in h.values.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            let (x, y) = (c as f64, r as f64);
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x, y), (x + 1.0, y + 1.0)],
                    shade(v).filled(),
                )))
                .map_err(|e| fail(&e))?;
            let ink = if hi > lo && (v - lo) / (hi - lo) > 0.55 { WHITE } else { BLACK };
            let style = ("sans-serif", 13).into_font().color(&ink).pos(
                plotters::style::text_anchor::Pos::new(
                    plotters::style::text_anchor::HPos::Center,
                    plotters::style::text_anchor::VPos::Center,
                ),
            );
            chart
                .draw_series(std::iter::once(Text::new((h.format)(v), (x + 0.5, y + 0.5), style)))
                .map_err(|e| fail(&e))?;
        }
    }
    colour_bar(&bar, (lo, hi), &shade, h.format).map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))
}

/// The colour scale beside the cells: the shades from `lo` (bottom) to `hi`, ticked with
/// the cells' number format.
fn colour_bar(
    area: &super::Area,
    (lo, hi): (f64, f64),
    shade: &dyn Fn(f64) -> RGBColor,
    format: fn(f64) -> String,
) -> std::result::Result<(), String> {
    let e = |e: DrawingAreaErrorKind<super::surface::SurfaceError>| e.to_string();
    let top = if hi > lo { hi } else { lo + 1.0 };
    let mut bar = ChartBuilder::on(area)
        .margin_top(48)
        .margin_bottom(58)
        .margin_left(8)
        .set_label_area_size(LabelAreaPosition::Right, 62)
        .build_cartesian_2d(0.0..1.0, lo..top)
        .map_err(e)?;
    bar.configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .y_labels(6)
        .y_label_formatter(&|v| format(*v))
        .label_style(("sans-serif", 13))
        .draw()
        .map_err(e)?;
    let steps = 100;
    bar.draw_series((0..steps).map(|k| {
        let (a, b) = (k as f64 / steps as f64, (k + 1) as f64 / steps as f64);
        let (ya, yb) = (lo + a * (top - lo), lo + b * (top - lo));
        Rectangle::new([(0.0, ya), (1.0, yb)], shade(0.5 * (ya + yb)).filled())
    }))
    .map_err(e)?;
    Ok(())
}
