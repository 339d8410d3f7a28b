//! Training time against the number of unlabeled examples, log–log, one series per method
//! with its fitted line and slope in the legend; and time and peak memory against the
//! problem size side by side ([`scale_figure`], `make bench-scale`).

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
        .build_cartesian_2d(
            span(all.iter().map(|q| q.0)).log_scale(),
            span(all.iter().map(|q| q.1)).log_scale(),
        )
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

/// One method of [`scale_figure`]: (N, seconds) and (N, MiB) points.
#[derive(Debug, Clone)]
pub struct ScaleSeries {
    pub name: String,
    pub time: Vec<(f64, f64)>,
    pub memory: Vec<(f64, f64)>,
}

/// What [`scale_figure`] draws.
#[derive(Debug, Clone)]
pub struct ScaleFigure {
    pub series: Vec<ScaleSeries>,
    pub title: String,
    pub stamp: String,
}

/// Two log–log panels, CPU time and peak memory against N, a colour and marker per method
/// (lines join a method's sizes), the legend in a panel to the right.
pub fn scale_figure(p: &ScaleFigure, path: &Path) -> Result<()> {
    let fail = |e: &dyn std::fmt::Display| Error::Report(format!("{}: {e}", path.display()));
    let points = |f: fn(&ScaleSeries) -> &Vec<(f64, f64)>| -> Vec<(f64, f64)> {
        p.series.iter().flat_map(|s| f(s).iter().copied()).collect()
    };
    let (time, memory) = (points(|s| &s.time), points(|s| &s.memory));
    if time.is_empty() || time.iter().chain(&memory).any(|&(n, v)| !(n > 0.0 && v > 0.0)) {
        return Err(Error::Report("scale figure needs positive sizes, times and memory".into()));
    }
    let entries: Vec<Entry> = (p.series.iter().enumerate())
        .map(|(k, s)| {
            let (colour, marker) = style::look(k);
            Entry {
                label: s.name.clone(),
                colour: Some(colour),
                marker: Some(marker),
                dash: Some(None),
            }
        })
        .collect();
    let side = style::legend_width(&entries);
    let (root, plot) = super::canvas(path, (1400 + side, 600), &p.stamp)?;
    let plot = plot.titled(&p.title, ("sans-serif", 22)).map_err(|e| fail(&e))?;
    let body = style::beside(&plot, side, 40, &entries)?;
    let (left, right) = body.split_horizontally(700);
    let xs = |v: &[(f64, f64)]| span(v.iter().map(|q| q.0));
    let panels = [
        (&left, &time, "CPU time of the process (s)", 0),
        (&right, &memory, "peak resident memory (MiB)", 1),
    ];
    for (area, all, y_desc, which) in panels {
        let ys = span(all.iter().map(|q| q.1));
        let mut chart = ChartBuilder::on(area)
            .margin(14)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(xs(all).log_scale(), ys.log_scale())
            .map_err(|e| fail(&e))?;
        chart
            .configure_mesh()
            .x_desc("N (documents or points)")
            .y_desc(y_desc)
            .x_label_formatter(&|v| super::style::tick(*v))
            .y_label_formatter(&|v| super::style::tick(*v))
            .label_style(("sans-serif", 14))
            .draw()
            .map_err(|e| fail(&e))?;
        for (k, s) in p.series.iter().enumerate() {
            let (colour, marker) = super::style::look(k);
            let pts = if which == 0 { &s.time } else { &s.memory };
            chart
                .draw_series(LineSeries::new(pts.iter().copied(), colour.stroke_width(2)))
                .map_err(|e| fail(&e))?;
            crate::with_marker!(marker, colour, pts.iter().copied(), |els| chart
                .draw_series(els)
                .map(|_| ()))
            .map_err(|e| fail(&e))?;
        }
    }
    root.present().map_err(|e| fail(&e))
}

/// The range of positive values, widened by 1.5 each way for the log axis.
fn span(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = values.fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
    (lo / 1.5)..(hi * 1.5)
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

    #[test]
    fn scale_figure_writes_a_png_and_rejects_non_positive_memory() {
        let path = std::env::temp_dir().join(format!("sslab-scale-{}.png", std::process::id()));
        let s = ScaleSeries {
            name: "m".into(),
            time: vec![(1e3, 0.1), (1e4, 1.2)],
            memory: vec![(1e3, 5.0), (1e4, 40.0)],
        };
        let mut p = ScaleFigure { series: vec![s], title: "t".into(), stamp: "s".into() };
        scale_figure(&p, &path).unwrap();
        assert_eq!(&std::fs::read(&path).unwrap()[1..4], b"PNG");
        std::fs::remove_file(&path).unwrap();
        p.series[0].memory[1].1 = 0.0;
        assert!(scale_figure(&p, &path).is_err());
    }
}
