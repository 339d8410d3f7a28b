//! Line plots of a per-split quantity against a swept key (e.g. the number of labeled
//! examples): one curve per method and group (mean over splits, shaded ± std band clipped to
//! the value's admissible range), as in the QLDS paper's Figs. 2, 6, 7. A colour and a marker
//! per method, a line style per group (the other swept values, e.g. the dataset), or one
//! panel per group; the legend sits beside the plot; a key spanning a decade or more gets a
//! log axis ticked at its values.

use std::ops::Range;
use std::path::Path;

use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::Area;
use super::style::{self, Entry};
use super::surface::SurfaceError;
use crate::error::{Error, Result};
use crate::protocol::ResultRow;
use crate::report::swept;
use crate::report::tables::{no_prefix, records};

/// One curve: `(x, mean, std)` points sorted by x, of one method (`label`) in one group (the
/// row's other swept values, `key=value, …`; empty when all rows share them).
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    pub label: String,
    pub group: String,
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
    // The entry and other swept values of a row (its label minus this key's part) tell
    // curves apart when they differ between rows.
    let others = |r: &ResultRow| swept::group(&r.dataset, key).to_string();
    let several = seen.iter().any(|(r, _)| others(r) != others(&seen[0].0));
    let mut points: Vec<(ResultRow, f64)> = Vec::new();
    for (mut r, v) in seen {
        let x: f64 = v.parse().map_err(|_| {
            Error::Report(format!("`{key}` = `{v}` is not a number: it cannot be an x axis"))
        })?;
        let group = if several { others(&r) } else { String::new() };
        // Method and group travel in the method column through the aggregation.
        r.method = format!("{}\u{1f}{group}", r.method);
        r.dataset = format!("{key}={v}");
        points.push((r, x));
    }
    let (rows, xs): (Vec<ResultRow>, Vec<f64>) = points.into_iter().unzip();
    let mut curves: Vec<Curve> = Vec::new();
    for rec in records(&rows, value)? {
        let x =
            rows.iter().zip(&xs).find(|(r, _)| r.dataset == rec.dataset).map_or(0.0, |(_, x)| *x);
        let (label, group) = rec.method.split_once('\u{1f}').unwrap_or((&rec.method, ""));
        match curves.iter_mut().find(|c| c.label == label && c.group == group) {
            Some(c) => c.points.push((x, rec.mean, rec.std)),
            None => curves.push(Curve {
                label: label.to_string(),
                group: group.to_string(),
                points: vec![(x, rec.mean, rec.std)],
            }),
        }
    }
    for c in &mut curves {
        c.points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    Ok(curves)
}

/// What to draw.
#[derive(Debug, Clone)]
pub struct CurvePlot<'a> {
    pub curves: &'a [Curve],
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub stamp: String,
    /// The value's admissible range (errors in [0, 100], α_l ≥ 0, α_u ≤ 1): std bands are
    /// clipped to it.
    pub bounds: (Option<f64>, Option<f64>),
    /// One panel per group instead of a line style per group.
    pub facet: bool,
}

/// Draws the curves into a PNG or SVG at `path`.
pub fn draw(p: &CurvePlot, path: &Path) -> Result<()> {
    let fail = |e: &dyn std::fmt::Display| Error::Report(format!("{}: {e}", path.display()));
    let all: Vec<&(f64, f64, f64)> = p.curves.iter().flat_map(|c| &c.points).collect();
    if all.is_empty() {
        return Err(Error::Report("curve plot needs at least one point".into()));
    }
    let methods: Vec<&str> = unique(p.curves.iter().map(|c| c.label.as_str()));
    let groups: Vec<&str> = unique(p.curves.iter().map(|c| c.group.as_str()));
    let panels: Vec<Option<&str>> = if p.facet && groups.len() > 1 {
        groups.iter().map(|g| Some(*g)).collect()
    } else {
        vec![None]
    };
    let cols = panels.len().min(2);
    let rows = panels.len().div_ceil(cols);
    let hiding = hidden(p.curves);
    let mut entries: Vec<Entry> = methods
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let (c, mk) = style::look(i);
            let dash = if hiding.contains(&(*m, "")) { Some(OVER) } else { None };
            Entry { label: m.to_string(), colour: Some(c), marker: Some(mk), dash: Some(dash) }
        })
        .collect();
    if groups.len() > 1 && !p.facet {
        entries.push(Entry { label: "line style:".into(), colour: None, marker: None, dash: None });
        entries.extend(groups.iter().enumerate().map(|(i, g)| Entry {
            label: g.replace("dataset=", ""),
            colour: Some(RGBColor(60, 60, 60)),
            marker: None,
            dash: Some(style::dash(i)),
        }));
    }
    // The legend panel is as wide as its longest line.
    let side_width = style::legend_width(&entries);
    let size = (760 * cols as u32 + side_width, 460 * rows as u32 + 70);
    let (root, plot) = super::canvas(path, size, &p.stamp)?;
    let plot = plot.titled(&p.title, ("sans-serif", 22)).map_err(|e| fail(&e))?;
    let body = style::beside(&plot, side_width, 40, &entries)?;
    let mut xs: Vec<f64> = all.iter().map(|q| q.0).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let ys = y_range(p, &all);
    let log = xs[0] > 0.0 && xs[xs.len() - 1] / xs[0] >= 10.0;
    for (area, panel) in body.split_evenly((rows, cols)).iter().zip(&panels) {
        let mine: Vec<(&Curve, usize, usize)> = p
            .curves
            .iter()
            .filter(|c| panel.is_none_or(|g| c.group == g))
            .map(|c| (c, index(&methods, &c.label), index(&groups, &c.group)))
            .collect();
        let caption = panel.map(|g| g.replace("dataset=", ""));
        if log {
            let r = (xs[0] / 1.15..xs[xs.len() - 1] * 1.15)
                .log_scale()
                .with_key_points(style::thin(&xs));
            panel_draw(area, r, ys.clone(), &mine, p, caption, panel.is_some())
                .map_err(|e| fail(&e))?;
        } else {
            let pad = ((xs[xs.len() - 1] - xs[0]) * 0.05).max(1e-9);
            let r: RangedCoordf64 = (xs[0] - pad..xs[xs.len() - 1] + pad).into();
            panel_draw(area, r, ys.clone(), &mine, p, caption, panel.is_some())
                .map_err(|e| fail(&e))?;
        }
    }
    root.present().map_err(|e| fail(&e))
}

/// The dash of a curve drawn over an earlier one it coincides with, which shows through.
const OVER: (u32, u32) = (9, 7);

/// The (method, group) of curves whose means all coincide (within 1 % of the value range, a few pixels)
/// with an earlier curve's of the same group, so that they would hide it; with the group
/// also listed as (method, "") when every curve of the method does.
fn hidden(curves: &[Curve]) -> Vec<(&str, &str)> {
    let ys = curves.iter().flat_map(|c| c.points.iter().map(|q| q.1));
    let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| (a.min(y), b.max(y)));
    let tol = 0.01 * (hi - lo).max(f64::MIN_POSITIVE);
    let same = |a: &Curve, b: &Curve| {
        a.group == b.group
            && a.points.len() == b.points.len()
            && a.points.iter().zip(&b.points).all(|(p, q)| p.0 == q.0 && (p.1 - q.1).abs() <= tol)
    };
    let mut out: Vec<(&str, &str)> = Vec::new();
    for (i, c) in curves.iter().enumerate() {
        if curves[..i].iter().any(|e| same(e, c)) {
            out.push((&c.label, &c.group));
        }
    }
    for c in curves {
        if curves.iter().filter(|d| d.label == c.label).all(|d| out.contains(&(&d.label, &d.group)))
            && !out.contains(&(&c.label, ""))
        {
            out.push((&c.label, ""));
        }
    }
    out
}

/// The distinct items in first-appearance order.
fn unique<'a>(items: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for i in items {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

fn index(items: &[&str], item: &str) -> usize {
    items.iter().position(|x| *x == item).unwrap_or(0)
}

/// The y range: every mean and clipped band, padded by 5 %.
fn y_range(p: &CurvePlot, all: &[&(f64, f64, f64)]) -> Range<f64> {
    let (y0, y1) = all.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), q| {
        let (lo, hi) = band(p, q);
        (a.min(lo).min(q.1), b.max(hi).max(q.1))
    });
    let m = ((y1 - y0) * 0.05).max(1e-9);
    (y0 - m)..(y1 + m)
}

/// The band of a point: mean ± std clipped to the admissible range.
fn band(p: &CurvePlot, q: &(f64, f64, f64)) -> (f64, f64) {
    let s = if q.2.is_finite() { q.2.max(0.0) } else { 0.0 };
    let lo = p.bounds.0.map_or(q.1 - s, |b| (q.1 - s).max(b));
    let hi = p.bounds.1.map_or(q.1 + s, |b| (q.1 + s).min(b));
    (lo, hi)
}

/// One panel: mesh, bands, lines (dashed by group) and markers (by method).
fn panel_draw<X>(
    area: &Area,
    x: X,
    y: Range<f64>,
    curves: &[(&Curve, usize, usize)],
    p: &CurvePlot,
    caption: Option<String>,
    faceted: bool,
) -> std::result::Result<(), String>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let e = |e: DrawingAreaErrorKind<SurfaceError>| e.to_string();
    let mut b = ChartBuilder::on(area);
    b.margin(10).x_label_area_size(44).y_label_area_size(64);
    if let Some(c) = &caption {
        b.caption(c, ("sans-serif", 18));
    }
    let mut chart = b.build_cartesian_2d(x, y).map_err(e)?;
    chart
        .configure_mesh()
        .x_desc(p.x_label.as_str())
        .y_desc(p.y_label.as_str())
        .x_label_formatter(&|v| style::tick(*v))
        .y_label_formatter(&|v| style::tick(*v))
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .light_line_style(RGBColor(248, 248, 248))
        .draw()
        .map_err(e)?;
    let methods_count = curves.iter().map(|c| c.1 + 1).max().unwrap_or(1);
    let all: Vec<Curve> = curves.iter().map(|c| c.0.clone()).collect();
    let hiding = hidden(&all);
    for &(c, m, g) in curves {
        let (colour, mk) = style::look(m);
        let band: Vec<(f64, f64)> = c
            .points
            .iter()
            .map(|q| (q.0, band(p, q).1))
            .chain(c.points.iter().rev().map(|q| (q.0, band(p, q).0)))
            .collect();
        chart.draw_series(std::iter::once(Polygon::new(band, colour.mix(0.10)))).map_err(e)?;
        let line = c.points.iter().map(|q| (q.0, q.1));
        let over = hiding.contains(&(c.label.as_str(), c.group.as_str()));
        match if over {
            Some(OVER)
        } else if faceted {
            None
        } else {
            style::dash(g)
        } {
            None => {
                chart.draw_series(LineSeries::new(line, colour.stroke_width(2))).map_err(e)?;
            }
            Some((on, off)) => {
                chart
                    .draw_series(DashedLineSeries::new(line, on, off, colour.stroke_width(2)))
                    .map_err(e)?;
            }
        }
        // Dense curves carry a marker every `step` points, staggered between methods.
        let step = if c.points.len() > 25 { c.points.len().div_ceil(10) } else { 1 };
        let first = (m * step / methods_count.max(1)) % step;
        let marked = c.points.iter().skip(first).step_by(step).map(|q| (q.0, q.1));
        crate::with_marker!(mk, colour, marked, |els| chart.draw_series(els).map(|_| ()))
            .map_err(e)?;
    }
    Ok(())
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
        assert!(curves.iter().all(|c| c.group.is_empty()));
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
        // Without the prefix the other dataset is a second group.
        let all = along(&rows, "m", "", &error_percent).unwrap();
        assert_eq!(
            all.iter().map(|c| (c.label.as_str(), c.group.as_str())).collect::<Vec<_>>(),
            [("A", "dataset=b"), ("B", "dataset=b"), ("A", "dataset=o")]
        );
        let e = along(&rows, "m", "ohter", &error_percent).unwrap_err().to_string();
        assert!(
            e.contains("(did you mean `other`?); datasets in the results: b-40, b-10, other"),
            "{e}"
        );
        // Two entries sweeping the same key: a curve per (entry, method), never pooled.
        let two =
            [row("g-m5", "A", 5, 0, 0.1), row("k-m5", "A", 5, 0, 0.3), row("k-m9", "A", 9, 0, 0.2)];
        let two: Vec<ResultRow> =
            two.into_iter().map(|r| ResultRow { swept: r.swept[1..].to_vec(), ..r }).collect();
        let split = along(&two, "m", "", &error_percent).unwrap();
        assert_eq!(
            split.iter().map(|c| (c.group.as_str(), c.points.len())).collect::<Vec<_>>(),
            [("g-m5", 1), ("k-m{m}", 2)]
        );
        let alphas = along(&rows, "m", "b-", &|r| r.alpha_l).unwrap();
        assert_eq!(alphas[0].points[0].1, 0.5);
        let path = std::env::temp_dir().join(format!("sslab-curves-{}.png", std::process::id()));
        let mut plot = CurvePlot {
            curves: &all,
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            stamp: "s".into(),
            bounds: (Some(0.0), Some(100.0)),
            facet: false,
        };
        draw(&plot, &path).unwrap();
        assert_eq!(&std::fs::read(&path).unwrap()[1..4], b"PNG");
        plot.facet = true;
        let svg = path.with_extension("svg");
        draw(&plot, &svg).unwrap();
        assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
        // A curve equal to an earlier one is drawn dashed over it.
        let twin = |label: &str| Curve {
            label: label.into(),
            group: String::new(),
            points: vec![(1.0, 2.0, 0.0), (2.0, 3.0, 0.0)],
        };
        assert_eq!(hidden(&[twin("a"), twin("b")]), [("b", "")]);
        // Bands stop at the admissible range: 40 ± 42.4 is drawn from 0.
        assert_eq!(band(&plot, &(10.0, 40.0, 42.4)), (0.0, 82.4));
        std::fs::remove_file(&path).unwrap();
        std::fs::remove_file(&svg).unwrap();
    }
}
