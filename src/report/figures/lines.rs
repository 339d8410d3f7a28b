//! Line charts: a few named series of (x, y) points with markers.

use std::path::Path;

use plotters::prelude::*;

use crate::error::{Error, Result};

/// Named series sharing one pair of axes.
#[derive(Debug, Clone)]
pub struct Lines<'a> {
    pub series: &'a [(String, Vec<(f64, f64)>)],
    pub x_desc: &'a str,
    pub y_desc: &'a str,
    pub title: String,
    pub stamp: String,
}

const COLOURS: [RGBColor; 4] = [RGBColor(31, 119, 180), RGBColor(214, 39, 40), RGBColor(44, 160, 44), RGBColor(148, 103, 189)];

/// Draws the series into a PNG at `path` (y axis from 0).
pub fn lines(l: &Lines, path: &Path) -> Result<()> {
    super::register_font();
    let fail = |e: &dyn std::fmt::Display| Error::Report(format!("{}: {e}", path.display()));
    let points = || l.series.iter().flat_map(|s| s.1.iter());
    if points().next().is_none() {
        return Err(Error::Report("line chart needs at least one point".into()));
    }
    let x_lo = points().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let x_hi = points().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max).max(x_lo + f64::EPSILON);
    let y_hi = points().map(|p| p.1).fold(0.0, f64::max) * 1.1;
    let root = BitMapBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let (plot, footer) = root.split_vertically(530);
    let mut chart = ChartBuilder::on(&plot)
        .caption(&l.title, ("sans-serif", 20))
        .margin(14)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(x_lo..x_hi, 0.0..y_hi.max(f64::EPSILON))
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .x_desc(l.x_desc)
        .y_desc(l.y_desc)
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(|e| fail(&e))?;
    for ((name, pts), colour) in l.series.iter().zip(COLOURS.iter().cycle()) {
        let colour = *colour;
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), colour.stroke_width(2)))
            .map_err(|e| fail(&e))?
            .label(name.as_str())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], colour.stroke_width(2)));
        chart.draw_series(pts.iter().map(|p| Circle::new(*p, 4, colour.filled()))).map_err(|e| fail(&e))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(|e| fail(&e))?;
    footer
        .draw(&Text::new(l.stamp.clone(), (12, 8), ("sans-serif", 13).into_font().color(&RGBColor(90, 90, 90))))
        .map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))
}
