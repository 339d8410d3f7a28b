//! The objectives of deterministic annealing along its temperature path (T on a log scale),
//! with the best S3VM objective marked.

use std::path::Path;

use plotters::prelude::*;

use super::style::{self, Entry, Marker};
use crate::error::{Error, Result};

/// One temperature of the path: T, the annealed objective and the S3VM objective.
pub type PathPoint = (f64, f64, f64);

/// What to draw: the path, the best S3VM objective, a title and a footer stamp.
#[derive(Debug, Clone)]
pub struct AnnealingPlot {
    pub path: Vec<PathPoint>,
    pub best: f64,
    pub title: String,
    pub stamp: String,
}

/// Draws the two objectives against T into a PNG (or SVG, by the extension) at `out`, the
/// legend beside the plot.
pub fn annealing_plot(p: &AnnealingPlot, out: &Path) -> Result<()> {
    let fail = |e: &dyn std::fmt::Display| Error::Report(format!("{}: {e}", out.display()));
    if p.path.is_empty()
        || p.path.iter().any(|pt| !(pt.0 > 0.0 && pt.1.is_finite() && pt.2.is_finite()))
    {
        return Err(Error::Report(
            "annealing plot needs positive temperatures and finite objectives".into(),
        ));
    }
    let t_lo = p.path.iter().map(|pt| pt.0).fold(f64::INFINITY, f64::min);
    let t_hi = p.path.iter().map(|pt| pt.0).fold(0.0, f64::max);
    let values = p.path.iter().flat_map(|pt| [pt.1, pt.2]).chain([p.best]);
    let (lo, hi) =
        values.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    let pad = 0.05 * (hi - lo).max(1e-12);
    let series = [
        ("annealed objective (with −T·entropy)", RGBColor(31, 119, 180), 1),
        ("S3VM objective of w", RGBColor(214, 39, 40), 2),
    ];
    let grey = RGBColor(128, 128, 128);
    // The legend outside the plot: the two objectives, then the best S3VM objective.
    let mut entries: Vec<Entry> = (series.iter())
        .map(|(name, colour, _)| Entry {
            label: name.to_string(),
            colour: Some(*colour),
            marker: Some(Marker::Circle),
            dash: Some(None),
        })
        .collect();
    entries.push(Entry {
        label: format!("best S3VM objective {:.5}", p.best),
        colour: Some(grey),
        marker: None,
        dash: Some(None),
    });
    let width = style::legend_width(&entries);
    let (root, plot) = super::canvas(out, (900 + width, 600), &p.stamp)?;
    let plot = plot.titled(&p.title, ("sans-serif", 22)).map_err(|e| fail(&e))?;
    let body = style::beside(&plot, width, 30, &entries)?;
    let mut chart = ChartBuilder::on(&body)
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d((t_lo / 1.2..t_hi * 1.2).log_scale(), lo - pad..hi + pad)
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .x_desc("temperature T (log scale; annealing runs right to left)")
        .y_desc("objective")
        .x_label_formatter(&|v| super::style::tick(*v))
        .y_label_formatter(&|v| super::style::tick(*v))
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(|e| fail(&e))?;
    for (_, colour, field) in series {
        let pts: Vec<(f64, f64)> =
            p.path.iter().map(|pt| (pt.0, if field == 1 { pt.1 } else { pt.2 })).collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
            .map_err(|e| fail(&e))?;
        chart
            .draw_series(pts.into_iter().map(|pt| Circle::new(pt, 3, colour.filled())))
            .map_err(|e| fail(&e))?;
    }
    chart
        .draw_series(LineSeries::new([(t_lo / 1.2, p.best), (t_hi * 1.2, p.best)], grey))
        .map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_a_png_and_rejects_an_empty_path() {
        let out = std::env::temp_dir().join(format!("sslab-annealing-{}.png", std::process::id()));
        let mut p = AnnealingPlot {
            path: vec![(10.0, 0.2, 0.5), (1.0, 0.3, 0.4), (0.1, 0.35, 0.38)],
            best: 0.38,
            title: "t".into(),
            stamp: "s".into(),
        };
        annealing_plot(&p, &out).unwrap();
        assert_eq!(&std::fs::read(&out).unwrap()[1..4], b"PNG");
        std::fs::remove_file(&out).unwrap();
        p.path.clear();
        assert!(annealing_plot(&p, &out).is_err());
    }
}
