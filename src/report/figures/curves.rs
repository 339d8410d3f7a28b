//! Line plots of a per-split quantity against a swept key (e.g. the number of labeled
//! examples): one curve per method (mean over splits, shaded ± std band), as in the QLDS paper's Figs. 2, 6, 7.

use std::path::Path;

use plotters::prelude::*;

use crate::config::suggest::did_you_mean;
use crate::error::{Error, Result};
use crate::protocol::ResultRow;
use crate::report::swept;
use crate::report::tables::{distinct, records};

/// One curve: `(x, mean, std)` points sorted by x.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    pub label: String,
    pub points: Vec<(f64, f64, f64)>,
}

/// Curves of `value` against the swept key `key` (its values must be numbers): one curve
/// per method and per setting of the other swept keys (see [`swept::along`]), over the rows
/// whose dataset name starts with `prefix`.
pub fn along(
    all: &[ResultRow],
    key: &str,
    prefix: &str,
    value: &dyn Fn(&ResultRow) -> Option<f64>,
) -> Result<Vec<Curve>> {
    let rows: Vec<ResultRow> =
        all.iter().filter(|r| r.dataset.starts_with(prefix)).cloned().collect();
    if rows.is_empty() {
        return Err(no_prefix(all, prefix));
    }
    let seen = swept::along(&rows, key)?;
    // The other swept values of a row (its label minus this key's part) tell curves apart
    // when they differ between rows.
    let others = |r: &ResultRow| r.dataset.rsplit_once(", ").map_or("", |(o, _)| o).to_string();
    let several = seen.iter().any(|(r, _)| others(r) != others(&seen[0].0));
    let mut points: Vec<(ResultRow, f64)> = Vec::new();
    for (mut r, v) in seen {
        let x: f64 = v.parse().map_err(|_| {
            Error::Report(format!("`{key}` = `{v}` is not a number: it cannot be an x axis"))
        })?;
        if several {
            r.method = format!("{} ({})", r.method, others(&r));
        }
        r.dataset = format!("{key}={v}");
        points.push((r, x));
    }
    let (rows, xs): (Vec<ResultRow>, Vec<f64>) = points.into_iter().unzip();
    let mut curves: Vec<Curve> = Vec::new();
    for rec in records(&rows, value)? {
        let x =
            rows.iter().zip(&xs).find(|(r, _)| r.dataset == rec.dataset).map_or(0.0, |(_, x)| *x);
        match curves.iter_mut().find(|c| c.label == rec.method) {
            Some(c) => c.points.push((x, rec.mean, rec.std)),
            None => curves.push(Curve { label: rec.method, points: vec![(x, rec.mean, rec.std)] }),
        }
    }
    for c in &mut curves {
        c.points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    Ok(curves)
}

/// The error for a prefix no dataset name starts with: the closest beginning of a name (by
/// edit distance) and the names that exist, as far as they differ.
fn no_prefix(rows: &[ResultRow], prefix: &str) -> Error {
    let names = distinct(rows, |r| &r.dataset);
    let n = prefix.chars().count();
    let starts: Vec<String> = names.iter().map(|d| d.chars().take(n).collect()).collect();
    let hint = did_you_mean(prefix, starts.iter().map(String::as_str));
    let shown: Vec<&str> = names.iter().take(12).copied().collect();
    let more =
        if names.len() > 12 { format!(", … ({} in all)", names.len()) } else { String::new() };
    Error::Report(format!(
        "no result rows for datasets starting with `{prefix}`{hint}; datasets in the results: {}{more}",
        shown.join(", ")
    ))
}

/// What to draw.
#[derive(Debug, Clone)]
pub struct CurvePlot<'a> {
    pub curves: &'a [Curve],
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub stamp: String,
}

pub(super) const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

/// Draws the curves into a PNG at `path`.
pub fn draw(p: &CurvePlot, path: &Path) -> Result<()> {
    let fail = |e: &dyn std::fmt::Display| Error::Report(format!("{}: {e}", path.display()));
    let all: Vec<&(f64, f64, f64)> = p.curves.iter().flat_map(|c| &c.points).collect();
    if all.is_empty() {
        return Err(Error::Report("curve plot needs at least one point".into()));
    }
    let (x0, x1) =
        all.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), q| (a.min(q.0), b.max(q.0)));
    let (y0, y1) = all.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), q| {
        let s = if q.2.is_finite() { q.2 } else { 0.0 };
        (a.min(q.1 - s), b.max(q.1 + s))
    });
    let pad = |lo: f64, hi: f64| {
        let m = ((hi - lo) * 0.05).max(1e-9);
        (lo - m)..(hi + m)
    };
    let (root, plot) = super::canvas(path, (900, 560), &p.stamp)?;
    let mut chart = ChartBuilder::on(&plot)
        .caption(&p.title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(pad(x0, x1), pad(y0, y1))
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .x_desc(p.x_label.as_str())
        .y_desc(p.y_label.as_str())
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(|e| fail(&e))?;
    for (c, colour) in p.curves.iter().zip(PALETTE.iter().cycle()) {
        let colour = *colour;
        let band: Vec<(f64, f64)> = c
            .points
            .iter()
            .map(|q| (q.0, q.1 + q.2.max(0.0)))
            .chain(c.points.iter().rev().map(|q| (q.0, q.1 - q.2.max(0.0))))
            .collect();
        chart
            .draw_series(std::iter::once(Polygon::new(band, colour.mix(0.12))))
            .map_err(|e| fail(&e))?;
        chart
            .draw_series(LineSeries::new(
                c.points.iter().map(|q| (q.0, q.1)),
                colour.stroke_width(2),
            ))
            .map_err(|e| fail(&e))?
            .label(c.label.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(c.points.iter().map(|q| Circle::new((q.0, q.1), 3, colour.filled())))
            .map_err(|e| fail(&e))?;
    }
    super::finish(&mut chart, &root, None, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tables::error_percent;

    fn row(dataset: &str, method: &str, m: usize, split: usize, error: f64) -> ResultRow {
        let swept = vec![
            ("dataset".to_string(), dataset[..1].to_string()),
            ("m".to_string(), m.to_string()),
        ];
        ResultRow {
            alpha_l: Some(0.5),
            swept,
            ..crate::protocol::test_row(dataset, method, split, error)
        }
    }

    #[test]
    fn curves_follow_a_swept_key_and_draw() {
        let rows = vec![
            row("b-40", "A", 40, 0, 0.1),
            row("b-40", "A", 40, 1, 0.3),
            row("b-10", "A", 10, 0, 0.4),
            row("b-10", "B", 10, 0, 0.5),
            row("other", "A", 10, 0, 0.9),
        ];
        let curves = along(&rows, "m", "b-", &error_percent).unwrap();
        assert_eq!(curves.len(), 2);
        assert_eq!(curves[0].label, "A");
        assert_eq!(
            curves[0].points.iter().map(|p| (p.0, p.1)).collect::<Vec<_>>(),
            vec![(10.0, 40.0), (40.0, 20.0)]
        );
        assert!(along(&rows, "m", "zzz", &error_percent).is_err());
        assert!(
            along(&rows, "x", "b-", &error_percent)
                .unwrap_err()
                .to_string()
                .contains("no result row sweeps `x`")
        );
        // Without the prefix the other dataset is a second group: curves name it.
        let all = along(&rows, "m", "", &error_percent).unwrap();
        assert_eq!(
            all.iter().map(|c| c.label.as_str()).collect::<Vec<_>>(),
            ["A (dataset=b)", "B (dataset=b)", "A (dataset=o)"]
        );
        let alphas = along(&rows, "m", "b-", &|r| r.alpha_l).unwrap();
        assert_eq!(alphas[0].points[0].1, 0.5);
        let path = std::env::temp_dir().join(format!("sslab-curves-{}.png", std::process::id()));
        let plot = CurvePlot {
            curves: &curves,
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            stamp: "s".into(),
        };
        draw(&plot, &path).unwrap();
        assert_eq!(&std::fs::read(&path).unwrap()[1..4], b"PNG");
        std::fs::remove_file(&path).unwrap();
    }
}
