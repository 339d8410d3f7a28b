//! Inline SVG curves of a swept table: one chart per dataset entry and setting of the other
//! swept keys (the label before `key=value`), the key's values on x (log-spaced where they
//! span a decade or more, each value a tick), one line per method (colour, and a dash
//! pattern past the tenth), mean ± std as error bars (clipped to the axis, which stays
//! within 0–100 %), the legend right of the plot area.

use super::page::esc;
use crate::report::swept;
use crate::report::tables::Table;

/// Colour-blind-safe line colours (Tableau 10).
const COLOURS: [&str; 10] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];
/// The chart's size and its plot area's edges, in pixels.
const W: f64 = 780.0;
const H: f64 = 330.0;
const LEFT: f64 = 58.0;
const RIGHT: f64 = 540.0;
const TOP: f64 = 28.0;
const BOTTOM: f64 = 286.0;

/// A row of a chart: the table's row index, x, and x as written.
type Point = (usize, f64, String);

/// The charts of `t`, whose row labels end with `key=value` (`sslab table --rows KEY`);
/// empty when a value is not a number or no setting has two values.
pub fn curves(t: &Table, key: &str) -> String {
    let tag = format!("{key}=");
    let mut groups: Vec<(String, Vec<Point>)> = Vec::new();
    for (d, label) in t.datasets.iter().enumerate() {
        let Some(i) = label.rfind(&tag) else { return String::new() };
        let value = &label[i + tag.len()..];
        let Ok(x) = value.parse::<f64>() else { return String::new() };
        let group = swept::group(label, key).to_string();
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, xs)) => xs.push((d, x, value.to_string())),
            None => groups.push((group, vec![(d, x, value.to_string())])),
        }
    }
    groups
        .iter()
        .filter(|(_, xs)| xs.len() >= 2)
        .map(|(group, xs)| chart(t, key, group, xs))
        .collect()
}

/// One chart: the rows `xs` (row index, x, x as written) of `t`.
fn chart(t: &Table, key: &str, group: &str, xs: &[Point]) -> String {
    let (xmin, xmax) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (_, x, _)| (a.min(*x), b.max(*x)));
    let log = xmin > 0.0 && xmax / xmin >= 10.0;
    let fx = |x: f64| if log { x.ln() } else { x };
    let span = (fx(xmax) - fx(xmin)).max(f64::MIN_POSITIVE);
    let px = |x: f64| LEFT + 12.0 + (fx(x) - fx(xmin)) / span * (RIGHT - LEFT - 24.0);
    let cells = || xs.iter().flat_map(|(d, _, _)| t.cells[*d].iter().flatten());
    let spread = |c: &crate::report::tables::Cell| if c.std.is_finite() { c.std } else { 0.0 };
    let lo = cells().map(|c| c.mean - spread(c)).fold(f64::INFINITY, f64::min);
    let hi = cells().map(|c| c.mean + spread(c)).fold(f64::NEG_INFINITY, f64::max);
    // Errors live in [0, 100] %: the axis and the bars stay there.
    let (lo, step) = ticks(lo.max(0.0), hi.min(100.0));
    let top = lo + 5.0 * step;
    let py = |y: f64| BOTTOM - (y - lo) / (top - lo) * (BOTTOM - TOP);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" \
         font-family=\"sans-serif\" font-size=\"11\" role=\"img\">\n<text x=\"{}\" y=\"16\" text-anchor=\"middle\" \
         font-size=\"13\">{}</text>\n<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#888\"/>\n",
        (LEFT + RIGHT) / 2.0,
        esc(&format!("{}{}{}", t.measure.label, if group.is_empty() { "" } else { " · " }, group)),
        RIGHT - LEFT,
        BOTTOM - TOP
    );
    for k in 0..=5 {
        let y = lo + k as f64 * step;
        s.push_str(&format!(
            "<line x1=\"{LEFT}\" x2=\"{RIGHT}\" y1=\"{0:.1}\" y2=\"{0:.1}\" stroke=\"#e3e3e3\"/><text x=\"{1}\" y=\"{2:.1}\" text-anchor=\"end\">{3}</text>\n",
            py(y),
            LEFT - 5.0,
            py(y) + 4.0,
            trim(y)
        ));
    }
    for (_, x, written) in xs {
        s.push_str(&format!(
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{BOTTOM}\" y2=\"{1}\" stroke=\"#888\"/><text x=\"{0:.1}\" y=\"{2}\" text-anchor=\"middle\">{3}</text>\n",
            px(*x),
            BOTTOM + 4.0,
            BOTTOM + 16.0,
            esc(written)
        ));
    }
    s.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}{}</text>\n",
        (LEFT + RIGHT) / 2.0,
        BOTTOM + 32.0,
        esc(key),
        if log { " (log scale)" } else { "" }
    ));
    for (m, method) in t.methods.iter().enumerate() {
        let points: Vec<(f64, &crate::report::tables::Cell)> =
            xs.iter().filter_map(|(d, x, _)| t.cells[*d][m].as_ref().map(|c| (*x, c))).collect();
        if points.is_empty() {
            continue;
        }
        let colour = COLOURS[m % COLOURS.len()];
        let dash = if m >= COLOURS.len() { " stroke-dasharray=\"5 3\"" } else { "" };
        let line: Vec<String> =
            points.iter().map(|(x, c)| format!("{:.1},{:.1}", px(*x), py(c.mean))).collect();
        s.push_str(&format!("<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"{dash} points=\"{}\"/>\n", line.join(" ")));
        for (x, c) in &points {
            let (x, sd) = (px(*x), spread(c));
            s.push_str(&format!(
                "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\" opacity=\"0.6\"/><circle cx=\"{x:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{colour}\"/>\n",
                py((c.mean - sd).max(lo)),
                py((c.mean + sd).min(top)),
                py(c.mean)
            ));
        }
        let y = TOP + 6.0 + 16.0 * m as f64;
        s.push_str(&format!(
            "<line x1=\"{0}\" x2=\"{1}\" y1=\"{y}\" y2=\"{y}\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/><text x=\"{2}\" y=\"{3}\">{4}</text>\n",
            RIGHT + 14.0,
            RIGHT + 36.0,
            RIGHT + 42.0,
            y + 4.0,
            esc(method)
        ));
    }
    s.push_str("</svg>\n");
    format!(
        "<figure>{s}<figcaption>mean ± std over splits; the table above gives the numbers</figcaption></figure>\n"
    )
}

/// A round lower end and step so that five steps cover [lo, hi].
fn ticks(lo: f64, hi: f64) -> (f64, f64) {
    let raw = ((hi - lo) / 5.0).max(1e-9);
    let magnitude = 10f64.powf(raw.log10().floor());
    let mut step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    loop {
        let start = (lo / step).floor() * step;
        if start + 5.0 * step >= hi {
            return (start, step);
        }
        step *= 2.0;
    }
}

/// A tick value without trailing zeros.
fn trim(y: f64) -> String {
    let s = format!("{y:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::test_row;
    use crate::report::tables::{ERROR, build};

    #[test]
    fn one_chart_per_setting_with_a_line_per_method_and_escaped_names() {
        assert_eq!(ticks(3.2, 41.0), (0.0, 10.0));
        assert_eq!(ticks(18.0, 19.1), (18.0, 0.25));
        // Two splits per (setting, method); N has no value at (a, 50).
        let cells = [
            ("d=a, m=5", "<M>", 0.10),
            ("d=a, m=5", "N", 0.12),
            ("d=a, m=50", "<M>", 0.05),
            ("d=b, m=5", "<M>", 0.01),
            ("d=b, m=5", "N", 0.02),
            ("d=b, m=50", "<M>", 0.03),
            ("d=b, m=50", "N", 0.04),
        ];
        let rows: Vec<_> = cells
            .iter()
            .flat_map(|(d, m, e)| (0..2).map(move |s| test_row(d, m, s, e + 0.01 * s as f64)))
            .collect();
        let svg = curves(&build(&rows, ERROR, "").unwrap(), "m");
        assert_eq!(svg.matches("<svg").count(), 2);
        assert_eq!(svg.matches("<polyline").count(), 4);
        assert!(svg.contains("&lt;M&gt;") && !svg.contains("<M>"));
        assert!(svg.contains("m (log scale)") && svg.contains("· d=a"));
        let text = [test_row("m=x", "A", 0, 0.1), test_row("m=y", "A", 0, 0.1)];
        assert_eq!(curves(&build(&text, ERROR, "").unwrap(), "m"), "");
    }
}
