//! Training time against the number of unlabeled examples, log–log, one series per method
//! with its fitted line and slope in the legend.

use std::path::Path;

use plotters::prelude::*;

use super::style::{self, Entry, Marker};
use crate::error::{Error, Result};

/// One method's measurements and its log–log fit log t = slope·log n + intercept.
#[derive(Debug, Clone)]
pub struct TimingSeries {
    pub name: String,
    /// (number of unlabeled examples, seconds).
    pub points: Vec<(f64, f64)>,
    pub slope: f64,
    pub intercept: f64,
}

/// What to draw: series, a title and a footer stamp.
#[derive(Debug, Clone)]
pub struct ScalingPlot {
    pub series: Vec<TimingSeries>,
    pub title: String,
    pub stamp: String,
}

/// Draws the log–log timing plot into a PNG (or SVG, by the extension) at `path`, the
/// legend beside the plot.
pub fn scaling_plot(p: &ScalingPlot, path: &Path) -> Result<()> {
    let fail = |e: &dyn std::fmt::Display| Error::Report(format!("{}: {e}", path.display()));
    let all: Vec<(f64, f64)> = p.series.iter().flat_map(|s| s.points.iter().copied()).collect();
    if all.is_empty() || all.iter().any(|&(n, t)| !(n > 0.0 && t > 0.0)) {
        return Err(Error::Report("scaling plot needs positive sizes and times".into()));
    }
    let range = |f: fn(&(f64, f64)) -> f64| {
        let lo = all.iter().map(f).fold(f64::INFINITY, f64::min);
        let hi = all.iter().map(f).fold(f64::NEG_INFINITY, f64::max);
        (lo / 1.5)..(hi * 1.5)
    };
    // The legend outside the plot: per method its colour, dots and fitted line, and slope.
    let entries: Vec<Entry> = (p.series.iter().enumerate())
        .map(|(k, s)| Entry {
            label: format!("{} (slope {:.2})", s.name, s.slope),
            colour: Some(style::look(k).0),
            marker: Some(Marker::Circle),
            dash: Some(None),
        })
        .collect();
    let width = style::legend_width(&entries);
    let (root, plot) = super::canvas(path, (900 + width, 600), &p.stamp)?;
    let plot = plot.titled(&p.title, ("sans-serif", 22)).map_err(|e| fail(&e))?;
    let body = style::beside(&plot, width, 30, &entries)?;
    let mut chart = ChartBuilder::on(&body)
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(range(|p| p.0).log_scale(), range(|p| p.1).log_scale())
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .x_desc("unlabeled examples")
        .y_desc("training time (s, CPU)")
        .x_label_formatter(&|v| super::style::tick(*v))
        .y_label_formatter(&|v| super::style::tick(*v))
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(|e| fail(&e))?;
    for (k, s) in p.series.iter().enumerate() {
        let colour = style::look(k).0;
        chart
            .draw_series(s.points.iter().map(|&pt| Circle::new(pt, 5, colour.filled())))
            .map_err(|e| fail(&e))?;
        let (lo, hi) =
            s.points.iter().fold((f64::INFINITY, 0.0f64), |(a, b), pt| (a.min(pt.0), b.max(pt.0)));
        let line = [lo, hi].map(|n| (n, (s.slope * n.ln() + s.intercept).exp()));
        chart.draw_series(LineSeries::new(line, colour.stroke_width(2))).map_err(|e| fail(&e))?;
    }
    root.present().map_err(|e| fail(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_a_png_and_rejects_non_positive_times() {
        let path = std::env::temp_dir().join(format!("sslab-scaling-{}.png", std::process::id()));
        let series = TimingSeries {
            name: "m".into(),
            points: vec![(1e4, 0.1), (1e5, 1.1), (1e6, 9.0)],
            slope: 0.98,
            intercept: -11.4,
        };
        let mut p = ScalingPlot { series: vec![series], title: "t".into(), stamp: "s".into() };
        scaling_plot(&p, &path).unwrap();
        assert_eq!(&std::fs::read(&path).unwrap()[1..4], b"PNG");
        std::fs::remove_file(&path).unwrap();
        p.series[0].points[0].1 = 0.0;
        assert!(scaling_plot(&p, &path).is_err());
    }
}
