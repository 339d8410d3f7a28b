//! The look shared by figures: a colour and a marker per series (10 colours × 7 markers
//! cycle with coprime periods, so 70 series stay distinct), a line style per group, a
//! legend in a panel of its own beside the plot, and tick labels.

use plotters::prelude::*;

use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::Area;
use crate::error::{Error, Result};

/// Twelve colours distinguishable in colour and, mostly, in grey (Tableau 10, then near-black
/// and dark teal for figures with more series).
pub const COLOURS: [RGBColor; 12] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(40, 40, 40),
    RGBColor(0, 100, 90),
];

/// The marker drawn at a series' points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
    Down,
    Cross,
    Plus,
    /// An open circle (a chosen point), not in the cycle of [`look`].
    Ring,
}

const MARKERS: [Marker; 7] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Diamond,
    Marker::Down,
    Marker::Cross,
    Marker::Plus,
];

/// The colour and marker of series `i`.
pub fn look(i: usize) -> (RGBColor, Marker) {
    (COLOURS[i % COLOURS.len()], MARKERS[i % MARKERS.len()])
}

/// Dash and gap lengths in pixels of group `i`'s lines (solid first).
pub fn dash(i: usize) -> Option<(u32, u32)> {
    [None, Some((10, 5)), Some((3, 4)), Some((18, 6)), Some((6, 3))][i % 5]
}

/// The outline of a marker around (0, 0) in pixels.
pub enum Shape {
    Disc,
    Ring,
    Fill(Vec<(i32, i32)>),
    Strokes([[(i32, i32); 2]; 2]),
}

/// The shape of a marker, about 4 px in radius.
pub fn shape(m: Marker) -> Shape {
    match m {
        Marker::Circle => Shape::Disc,
        Marker::Ring => Shape::Ring,
        Marker::Square => Shape::Fill(vec![(-4, -4), (4, -4), (4, 4), (-4, 4)]),
        Marker::Triangle => Shape::Fill(vec![(0, -5), (5, 4), (-5, 4)]),
        Marker::Diamond => Shape::Fill(vec![(0, -5), (5, 0), (0, 5), (-5, 0)]),
        Marker::Down => Shape::Fill(vec![(0, 5), (5, -4), (-5, -4)]),
        Marker::Cross => Shape::Strokes([[(-4, -4), (4, 4)], [(-4, 4), (4, -4)]]),
        Marker::Plus => Shape::Strokes([[(-5, 0), (5, 0)], [(0, -5), (0, 5)]]),
    }
}

/// Runs `$draw` on the element drawing marker `$m` of colour `$c` at each `$at` of `$pts`
/// (an iterator of coordinates); the element's type depends on the shape.
#[macro_export]
#[doc(hidden)]
macro_rules! with_marker {
    ($m:expr, $c:expr, $pts:expr, |$els:ident| $body:expr) => {{
        use plotters::prelude::*;
        let fill = ShapeStyle::from($c).filled();
        let line = ShapeStyle::from($c).stroke_width(2);
        match $crate::report::figures::style::shape($m) {
            $crate::report::figures::style::Shape::Disc => {
                let $els = $pts.map(|at| EmptyElement::at(at) + Circle::new((0, 0), 4, fill));
                $body
            }
            $crate::report::figures::style::Shape::Ring => {
                let $els = $pts.map(|at| EmptyElement::at(at) + Circle::new((0, 0), 5, line));
                $body
            }
            $crate::report::figures::style::Shape::Fill(v) => {
                let $els = $pts.map(|at| EmptyElement::at(at) + Polygon::new(v.clone(), fill));
                $body
            }
            $crate::report::figures::style::Shape::Strokes([a, b]) => {
                let $els = $pts.map(|at| {
                    EmptyElement::at(at)
                        + PathElement::new(a.to_vec(), line)
                        + PathElement::new(b.to_vec(), line)
                });
                $body
            }
        }
    }};
}

/// A legend line: a heading (no colour) or a series' look.
pub struct Entry {
    pub label: String,
    pub colour: Option<RGBColor>,
    pub marker: Option<Marker>,
    pub dash: Option<Option<(u32, u32)>>,
}

/// The width of a legend panel for `entries`: its longest line and the key before it.
pub fn legend_width(entries: &[Entry]) -> u32 {
    let widest = entries.iter().map(|e| super::surface::extent(&e.label, 14.0).0).max();
    (widest.unwrap_or(0) as u32 + 80).clamp(160, 520)
}

/// The legend outside the plot: splits `area` into the plot (returned) and a panel of
/// `width` px on its right, where the entries are drawn from `top` px down.
pub fn beside<'a>(area: &Area<'a>, width: u32, top: u32, entries: &[Entry]) -> Result<Area<'a>> {
    let (w, _) = area.dim_in_pixel();
    let (body, side) = area.split_horizontally(w.saturating_sub(width));
    legend(&side.margin(top, 0, 4, 0), entries)?;
    Ok(body)
}

/// Draws the entries top-down into `area` (a panel beside the plots).
pub fn legend(area: &Area, entries: &[Entry]) -> Result<()> {
    let fail = |e: &dyn std::fmt::Display| Error::Report(format!("legend: {e}"));
    let font = ("sans-serif", 14).into_font();
    for (k, e) in entries.iter().enumerate() {
        let y = 14 + 22 * k as i32;
        let colour = e.colour.unwrap_or(RGBColor(60, 60, 60));
        if let Some(d) = e.dash {
            for (a, b) in segments(6, 46, d) {
                area.draw(&PathElement::new(vec![(a, y), (b, y)], colour.stroke_width(2)))
                    .map_err(|e| fail(&e))?;
            }
        }
        if let Some(m) = e.marker {
            crate::with_marker!(m, colour, std::iter::once((26, y)), |els| {
                els.into_iter().try_for_each(|el| area.draw(&el))
            })
            .map_err(|e| fail(&e))?;
        }
        let x = if e.colour.is_none() && e.dash.is_none() { 6 } else { 54 };
        let style = font.clone().color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center));
        area.draw(&Text::new(e.label.clone(), (x, y), style)).map_err(|e| fail(&e))?;
    }
    Ok(())
}

/// The drawn pieces of a line from x = `a` to `b` with a dash pattern (whole when solid).
fn segments(a: i32, b: i32, d: Option<(u32, u32)>) -> Vec<(i32, i32)> {
    let Some((on, off)) = d else { return vec![(a, b)] };
    let mut out = Vec::new();
    let mut x = a;
    while x < b {
        out.push((x, (x + on as i32).min(b)));
        x += (on + off) as i32;
    }
    out
}

/// At most 12 of the sorted x values as ticks, always the first and the last.
pub fn thin(xs: &[f64]) -> Vec<f64> {
    let step = xs.len().div_ceil(12);
    let mut t: Vec<f64> = xs.iter().step_by(step).copied().collect();
    if t.last() != xs.last() {
        t.extend(xs.last());
    }
    t
}

/// A tick label: whole numbers without decimals (counts tick as 5, 10, 10000), others with
/// up to four significant digits; never `-0`.
pub fn tick(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return if v.is_finite() { "0".into() } else { v.to_string() };
    }
    if (v - v.round()).abs() < 1e-9 * v.abs().max(1.0) && v.abs() < 1e9 {
        return format!("{}", v.round() as i64);
    }
    let digits = (3 - v.abs().log10().floor() as i32).clamp(0, 12) as usize;
    let s = format!("{v:.digits$}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_whole_where_they_can_be_and_never_minus_zero() {
        assert_eq!(tick(5.0), "5");
        assert_eq!(tick(10000.0), "10000");
        assert_eq!(tick(-0.0), "0");
        assert_eq!(tick(-1e-17), "0");
        assert_eq!(tick(0.25), "0.25");
        assert_eq!(tick(12.5), "12.5");
        assert_eq!(tick(0.001234), "0.001234");
    }

    #[test]
    fn sixteen_series_get_sixteen_distinct_looks() {
        let looks: Vec<_> = (0..16).map(look).collect();
        for i in 0..16 {
            for j in 0..i {
                assert_ne!(looks[i], looks[j], "{i} {j}");
            }
        }
        assert_eq!(segments(0, 20, Some((5, 5))), [(0, 5), (10, 15)]);
    }
}
