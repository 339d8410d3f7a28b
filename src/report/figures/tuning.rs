//! A tuning grid's error: the mean tuning error (± std) against the values of one tuned key,
//! one line per combination of the other keys, the chosen point ringed in black.

use std::path::Path;

use plotters::prelude::*;

use super::style::{self, COLOURS as PALETTE, Entry, Marker};
use crate::error::{Error, Result};

/// One line of the plot: its label and (x position, mean error, std) points.
pub type GridLine = (String, Vec<(usize, f64, f64)>);

/// What [`tuning_plot`] draws.
pub struct TuningPlot {
    pub title: String,
    /// The key on the x axis and its values, in axis order.
    pub key: String,
    pub values: Vec<String>,
    pub lines: Vec<GridLine>,
    /// The chosen point: x position and mean error.
    pub chosen: Option<(usize, f64)>,
    pub stamp: String,
}

/// Draws the grid's errors into a PNG (or SVG, by the extension) at `path`, the legend
/// beside the plot.
pub fn tuning_plot(p: &TuningPlot, path: &Path) -> Result<()> {
    let fail = |e: &dyn std::fmt::Display| Error::Report(format!("{}: {e}", path.display()));
    let all: Vec<&(usize, f64, f64)> = p.lines.iter().flat_map(|l| &l.1).collect();
    if all.is_empty() {
        return Err(Error::Report(
            "tuning plot needs at least one grid point with an error".into(),
        ));
    }
    let (y0, y1) = all.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), q| {
        (a.min(q.1 - q.2.max(0.0)), b.max(q.1 + q.2.max(0.0)))
    });
    let m = ((y1 - y0) * 0.08).max(0.5);
    // The legend outside the plot: a line with dots per combination, the chosen ring.
    let mut entries: Vec<Entry> = (p.lines.iter().zip(PALETTE.iter().cycle()))
        .map(|((label, _), c)| Entry {
            label: label.clone(),
            colour: Some(*c),
            marker: Some(Marker::Circle),
            dash: Some(None),
        })
        .collect();
    if p.chosen.is_some() {
        entries.push(Entry {
            label: "chosen".into(),
            colour: Some(BLACK),
            marker: Some(Marker::Ring),
            dash: None,
        });
    }
    let width = style::legend_width(&entries);
    let (root, plot) = super::canvas(path, (900 + width, 560), &p.stamp)?;
    let plot = plot.titled(&p.title, ("sans-serif", 22)).map_err(|e| fail(&e))?;
    let body = style::beside(&plot, width, 30, &entries)?;
    let mut chart = ChartBuilder::on(&body)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5..(p.values.len() as f64 - 0.5), (y0 - m)..(y1 + m))
        .map_err(|e| fail(&e))?;
    let names = &p.values;
    chart
        .configure_mesh()
        .x_desc(p.key.as_str())
        .y_desc("mean tuning error (%), ± std over the tuning splits")
        .x_labels(names.len())
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|v| super::style::tick(*v))
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(|e| fail(&e))?;
    for ((_, points), colour) in p.lines.iter().zip(PALETTE.iter().cycle()) {
        let colour = *colour;
        let xy = |q: &(usize, f64, f64)| (q.0 as f64, q.1);
        chart
            .draw_series(points.iter().map(|q| {
                let s = q.2.max(0.0);
                PathElement::new(
                    vec![(q.0 as f64, q.1 - s), (q.0 as f64, q.1 + s)],
                    colour.mix(0.5),
                )
            }))
            .map_err(|e| fail(&e))?;
        chart
            .draw_series(LineSeries::new(points.iter().map(xy), colour.stroke_width(2)))
            .map_err(|e| fail(&e))?;
        chart
            .draw_series(points.iter().map(|q| Circle::new(xy(q), 3, colour.filled())))
            .map_err(|e| fail(&e))?;
    }
    if let Some((x, y)) = p.chosen {
        chart
            .draw_series(std::iter::once(Circle::new((x as f64, y), 9, BLACK.stroke_width(3))))
            .map_err(|e| fail(&e))?;
    }
    root.present().map_err(|e| fail(&e))
}
