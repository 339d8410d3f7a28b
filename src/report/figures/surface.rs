//! The surface every figure draws on: a PNG or an SVG file, chosen by the output's extension.
//! PNG text is laid out and rasterised here with ab_glyph: plotters' own ab_glyph text path
//! drops each glyph's left side bearing and rounds the pen position per glyph, so letters
//! collide ("class" drawn as "dass", "theory" as "th eory"). SVG text stays `<text>`.

use std::error::Error;
use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use plotters::prelude::{BitMapBackend, SVGBackend};
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

/// A figure's file: PNG (text drawn by [`Surface::draw_text`]) or SVG.
pub enum Surface<'a> {
    Png(BitMapBackend<'a>),
    Svg(SVGBackend<'a>),
}

impl<'a> Surface<'a> {
    /// An SVG when `path` ends in `.svg`, else a PNG, of `size` pixels.
    pub fn new(path: &'a Path, size: (u32, u32)) -> Self {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("svg") => Surface::Svg(SVGBackend::new(path, size)),
            _ => Surface::Png(BitMapBackend::new(path, size)),
        }
    }
}

/// A backend error as text.
#[derive(Debug)]
pub struct SurfaceError(String);

impl fmt::Display for SurfaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Error for SurfaceError {}

fn convert<E: Error + Send + Sync>(e: DrawingErrorKind<E>) -> DrawingErrorKind<SurfaceError> {
    match e {
        DrawingErrorKind::DrawingError(e) => {
            DrawingErrorKind::DrawingError(SurfaceError(e.to_string()))
        }
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    }
}

type Drawn = Result<(), DrawingErrorKind<SurfaceError>>;

/// Calls `$call` on the inner backend, whichever it is.
macro_rules! both {
    ($self:ident, $b:ident => $call:expr) => {
        match $self {
            Surface::Png($b) => $call.map_err(convert),
            Surface::Svg($b) => $call.map_err(convert),
        }
    };
}

impl DrawingBackend for Surface<'_> {
    type ErrorType = SurfaceError;

    fn get_size(&self) -> (u32, u32) {
        match self {
            Surface::Png(b) => b.get_size(),
            Surface::Svg(b) => b.get_size(),
        }
    }
    fn ensure_prepared(&mut self) -> Drawn {
        both!(self, b => b.ensure_prepared())
    }
    fn present(&mut self) -> Drawn {
        both!(self, b => b.present())
    }
    fn draw_pixel(&mut self, p: BackendCoord, c: BackendColor) -> Drawn {
        both!(self, b => b.draw_pixel(p, c))
    }
    fn draw_line<S: BackendStyle>(&mut self, f: BackendCoord, t: BackendCoord, s: &S) -> Drawn {
        both!(self, b => b.draw_line(f, t, s))
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        z: BackendCoord,
        s: &S,
        fill: bool,
    ) -> Drawn {
        both!(self, b => b.draw_rect(a, z, s, fill))
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        s: &S,
    ) -> Drawn {
        both!(self, b => b.draw_path(path, s))
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        c: BackendCoord,
        r: u32,
        s: &S,
        fill: bool,
    ) -> Drawn {
        both!(self, b => b.draw_circle(c, r, s, fill))
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        s: &S,
    ) -> Drawn {
        both!(self, b => b.fill_polygon(vert, s))
    }
    fn blit_bitmap(&mut self, p: BackendCoord, size: (u32, u32), src: &[u8]) -> Drawn {
        both!(self, b => b.blit_bitmap(p, size, src))
    }
    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, s: &S, pos: BackendCoord) -> Drawn {
        let png = match self {
            Surface::Svg(b) => return b.draw_text(text, s, pos).map_err(convert),
            Surface::Png(b) => b,
        };
        let colour = s.color();
        if colour.alpha == 0.0 {
            return Ok(());
        }
        let (w, h) = extent(text, s.size());
        let dx = match s.anchor().h_pos {
            HPos::Left => 0,
            HPos::Right => -w,
            HPos::Center => -w / 2,
        };
        let dy = match s.anchor().v_pos {
            VPos::Top => 0,
            VPos::Center => -h / 2,
            VPos::Bottom => -h,
        };
        let turn = s.transform();
        let mut out = Ok(());
        glyphs(text, s.size(), |x, y, coverage| {
            let (x, y) = turn.transform(x + dx, y + dy);
            let c = BackendColor { alpha: colour.alpha * f64::from(coverage), rgb: colour.rgb };
            if out.is_ok() && coverage > 0.0 {
                out = png.draw_pixel((pos.0 + x, pos.1 + y), c).map_err(convert);
            }
        });
        out
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        s: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<SurfaceError>> {
        match self {
            Surface::Svg(b) => b.estimate_text_size(text, s).map_err(convert),
            Surface::Png(_) => {
                let (w, h) = extent(text, s.size());
                Ok((w.max(0) as u32, h.max(0) as u32))
            }
        }
    }
}

/// The bundled font, parsed once.
fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    // The font file is part of the crate; failing to parse it is a build defect.
    FONT.get_or_init(|| FontRef::try_from_slice(super::FONT).expect("bundled font parses"))
}

/// Width (pen advance with kerning) and height (ascent − descent) of `text` at `size` px.
pub fn extent(text: &str, size: f64) -> (i32, i32) {
    let f = font().as_scaled(PxScale::from(size as f32));
    let (mut x, mut prev) = (0.0f32, None);
    for c in text.chars() {
        let g = f.glyph_id(c);
        x += prev.map_or(0.0, |p| f.kern(p, g)) + f.h_advance(g);
        prev = Some(g);
    }
    (x.ceil() as i32, (f.ascent() - f.descent()).ceil() as i32)
}

/// Calls `pixel(x, y, coverage)` for every pixel of `text` at `size` px, the top of the line
/// at y = 0 and the pen starting at x = 0; each glyph is placed at its unrounded pen position
/// with its side bearing.
pub fn glyphs(text: &str, size: f64, mut pixel: impl FnMut(i32, i32, f32)) {
    let scale = PxScale::from(size as f32);
    let f = font().as_scaled(scale);
    let (mut x, mut prev) = (0.0f32, None);
    for c in text.chars() {
        let g = f.glyph_id(c);
        x += prev.map_or(0.0, |p| f.kern(p, g));
        if let Some(o) = f.outline_glyph(g.with_scale_and_position(scale, point(x, f.ascent()))) {
            let b = o.px_bounds();
            o.draw(|gx, gy, cov| {
                pixel(b.min.x as i32 + gx as i32, b.min.y as i32 + gy as i32, cov)
            });
        }
        x += f.h_advance(g);
        prev = Some(g);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The columns of a rendered text with any ink.
    fn inked(text: &str, size: f64) -> Vec<bool> {
        let (w, _) = extent(text, size);
        let mut cols = vec![false; w as usize + 4];
        glyphs(text, size, |x, _, c| {
            if c > 0.25 {
                cols[x.clamp(0, w + 3) as usize] = true;
            }
        });
        cols
    }

    #[test]
    fn letters_keep_their_gaps_at_every_size() {
        // "cl" drawn without side bearings touches ("class" read as "dass"): here c and l are
        // separated by at least one blank column, and "l" alone is one stroke.
        for size in [11.0, 13.0, 14.0, 16.0, 18.0, 22.0] {
            let cols = inked("cl", size);
            let runs = cols.windows(2).filter(|w| w[0] && !w[1]).count();
            assert_eq!(runs, 2, "size {size}: {cols:?}");
        }
        // The width of a word is the sum of its letters' advances (with kerning), so it grows
        // with the text.
        assert!(extent("theory", 14.0).0 > extent("theor", 14.0).0);
    }

    #[test]
    fn greek_and_subscripts_have_glyphs() {
        for c in ['α', 'λ', 'γ', 'μ', 'ₗ', 'ᵤ', '−', '₁', '²'] {
            assert_ne!(font().glyph_id(c).0, 0, "{c}");
        }
    }
}
