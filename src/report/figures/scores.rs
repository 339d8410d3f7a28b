//! Histogram of the scores f(x) of unlabeled points, one colour per true class, as
//! densities (so theoretical Gaussians can be laid over them).

use std::path::Path;

use plotters::prelude::*;

use super::style::{Entry, Marker, beside};
use crate::error::{Error, Result};

/// What to draw: scores with their true labels (±1), a title and a footer stamp.
#[derive(Debug, Clone)]
pub struct ScoreHistogram<'a> {
    pub scores: &'a [f64],
    pub labels: &'a [f64],
    pub title: String,
    pub stamp: String,
    pub bins: usize,
    /// Optional theoretical N(m, σ²) of class +1 and class −1, drawn as curves.
    pub gaussians: Option<[(f64, f64); 2]>,
}

/// Draws the per-class density histogram into a PNG at `path`.
pub fn score_histogram(h: &ScoreHistogram, path: &Path) -> Result<()> {
    let fail = |e: &dyn std::fmt::Display| Error::Report(format!("{}: {e}", path.display()));
    if h.scores.is_empty() || h.scores.len() != h.labels.len() || h.bins == 0 {
        return Err(Error::Report(
            "score histogram needs scores, matching labels and bins ≥ 1".into(),
        ));
    }
    // The view: the central 99 % of the scores and the theory curves' ±4σ; points outside
    // are left out of the bars (densities stay normalised by all points of the class).
    let mut sorted = h.scores.to_vec();
    sorted.sort_by(f64::total_cmp);
    let quantile = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    let (lo, hi) =
        h.gaussians.iter().flatten().fold((quantile(0.005), quantile(0.995)), |(a, b), (m, sd)| {
            (a.min(m - 4.0 * sd), b.max(m + 4.0 * sd))
        });
    let width = ((hi - lo) / h.bins as f64).max(f64::EPSILON);
    let outside = h.scores.iter().filter(|s| **s < lo || **s > hi).count();
    let density = |class: f64| -> Vec<f64> {
        let mut counts = vec![0.0; h.bins];
        let members = h.labels.iter().filter(|l| **l == class).count().max(1) as f64;
        for (s, l) in h.scores.iter().zip(h.labels) {
            if *l == class && (lo..=hi).contains(s) {
                let b = (((s - lo) / width) as usize).min(h.bins - 1);
                counts[b] += 1.0 / (members * width);
            }
        }
        counts
    };
    let x_desc = match outside {
        0 => "score f(x) on unlabeled points".to_string(),
        k => format!(
            "score f(x) on unlabeled points ({k} of {} outside the range shown)",
            h.scores.len()
        ),
    };
    let classes =
        [(1.0, "class +1", RGBColor(31, 119, 180)), (-1.0, "class −1", RGBColor(214, 39, 40))];
    let densities: Vec<Vec<f64>> = classes.iter().map(|c| density(c.0)).collect();
    let peak = |(_, sd): &(f64, f64)| 1.0 / (sd * (2.0 * std::f64::consts::PI).sqrt());
    let curve_top = h.gaussians.iter().flatten().map(peak).fold(0.0, f64::max);
    let top = densities.iter().flatten().copied().fold(curve_top, f64::max) * 1.1;

    // The legend beside the plot: the classes' bars, then the theory curves drawn.
    let bar = |(_, name, c): &(f64, &str, RGBColor)| Entry {
        label: name.to_string(),
        // The bars' colour at 45 % over white.
        colour: Some({
            let on_white = |v: u8| (255.0 - 0.45 * (255.0 - f64::from(v))).round() as u8;
            RGBColor(on_white(c.0), on_white(c.1), on_white(c.2))
        }),
        marker: Some(Marker::Square),
        dash: None,
    };
    let theory = |(_, name, c): &(f64, &str, RGBColor)| Entry {
        label: format!("theory, {name}"),
        colour: Some(*c),
        marker: None,
        dash: Some(None),
    };
    let mut entries: Vec<Entry> = classes.iter().map(bar).collect();
    if h.gaussians.is_some() {
        entries.extend(classes.iter().map(theory));
    }
    let (root, whole) = super::canvas(path, (1080, 560), &h.stamp)?;
    let plot = beside(&whole, 200, 50, &entries)?;
    let mut chart = ChartBuilder::on(&plot)
        .caption(&h.title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(lo..hi, 0.0..top.max(f64::EPSILON))
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc("density")
        .x_label_formatter(&|v| super::style::tick(*v))
        .y_label_formatter(&|v| super::style::tick(*v))
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(|e| fail(&e))?;
    for ((_, _, colour), dens) in classes.iter().zip(&densities) {
        let colour = *colour;
        chart
            .draw_series(dens.iter().enumerate().map(|(b, v)| {
                let x0 = lo + b as f64 * width;
                Rectangle::new([(x0, 0.0), (x0 + width, *v)], colour.mix(0.45).filled())
            }))
            .map_err(|e| fail(&e))?;
    }
    for (&(mean, sd), (_, _, colour)) in h.gaussians.iter().flatten().zip(&classes) {
        let colour = *colour;
        let pdf = |x: f64| {
            (-0.5 * ((x - mean) / sd).powi(2)).exp() / (sd * (2.0 * std::f64::consts::PI).sqrt())
        };
        let xs = (0..=400).map(|i| lo + (hi - lo) * i as f64 / 400.0);
        chart
            .draw_series(LineSeries::new(xs.map(|x| (x, pdf(x))), colour.stroke_width(3)))
            .map_err(|e| fail(&e))?;
    }
    root.present().map_err(|e| fail(&e))
}

/// Score densities of several runs laid over one another (Fig. 3: one panel for all
/// sizes): per run (`name`, scores, ±1 labels) and class, the histogram density over common
/// bins spanning the central 99 % of all scores, as curves (one colour and marker per run, a
/// line style per class) for [`curves::draw`](super::curves::draw).
pub fn density_curves(
    runs: &[(String, Vec<f64>, Vec<f64>)],
    bins: usize,
) -> Result<Vec<super::curves::Curve>> {
    let mut all: Vec<f64> = runs.iter().flat_map(|r| r.1.iter().copied()).collect();
    if all.is_empty() || bins == 0 {
        return Err(Error::Report("score densities need scores and bins ≥ 1".into()));
    }
    all.sort_by(f64::total_cmp);
    let quantile = |q: f64| all[((all.len() - 1) as f64 * q).round() as usize];
    let (lo, hi) = (quantile(0.005), quantile(0.995));
    let width = ((hi - lo) / bins as f64).max(f64::EPSILON);
    let mut out = Vec::new();
    for (name, scores, labels) in runs {
        for (class, group) in [(1.0, "class +1"), (-1.0, "class −1")] {
            let members = labels.iter().filter(|l| **l == class).count().max(1) as f64;
            let mut counts = vec![0.0; bins];
            for (s, _) in
                scores.iter().zip(labels).filter(|(s, l)| **l == class && (lo..=hi).contains(*s))
            {
                counts[(((s - lo) / width) as usize).min(bins - 1)] += 1.0 / (members * width);
            }
            let points = counts
                .iter()
                .enumerate()
                .map(|(b, v)| (lo + (b as f64 + 0.5) * width, *v, 0.0))
                .collect();
            out.push(super::curves::Curve { label: name.clone(), group: group.into(), points });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_a_png() {
        let path = std::env::temp_dir().join(format!("sslab-hist-{}.png", std::process::id()));
        let scores = [-1.0, -0.5, -0.2, 0.3, 0.8, 1.1];
        let labels = [-1.0, -1.0, 1.0, -1.0, 1.0, 1.0];
        let h = ScoreHistogram {
            scores: &scores,
            labels: &labels,
            title: "t".into(),
            stamp: "s".into(),
            bins: 4,
            gaussians: Some([(0.5, 0.4), (-0.5, 0.4)]),
        };
        score_histogram(&h, &path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        std::fs::remove_file(&path).unwrap();
        let empty = ScoreHistogram { scores: &[], labels: &[], ..h };
        assert!(score_histogram(&empty, &path).is_err());
        // Overlaid densities integrate to 1 per run and class (all points inside the range).
        let runs = [("a".to_string(), scores.to_vec(), labels.to_vec())];
        let c = density_curves(&runs, 4).unwrap();
        assert_eq!(c.len(), 2);
        let w = c[0].points[1].0 - c[0].points[0].0;
        let mass: f64 = c[0].points.iter().map(|p| p.1 * w).sum();
        assert!((mass - 1.0).abs() < 1e-9 && c[1].group == "class −1", "{mass}");
    }
}
