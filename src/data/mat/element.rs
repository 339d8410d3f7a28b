//! The element layer of a v5 `.mat` file: tagged data elements (full and small formats,
//! 8-byte padding) and numeric payloads.

/// Data type codes of element tags.
pub const MI_MATRIX: u32 = 14;
pub const MI_COMPRESSED: u32 = 15;

/// One tagged element: its type code and payload.
pub struct Element<'a> {
    pub kind: u32,
    pub data: &'a [u8],
}

/// Iterator over consecutive elements of a byte slice, with each one's offset (`base` +
/// position) for messages.
pub struct Elements<'a> {
    bytes: &'a [u8],
    pos: usize,
    base: usize,
}

impl<'a> Elements<'a> {
    /// Elements of `bytes`, which start at byte `base` of the file.
    pub fn new(bytes: &'a [u8], base: usize) -> Self {
        Elements { bytes, pos: 0, base }
    }
}

impl<'a> Iterator for Elements<'a> {
    type Item = std::result::Result<(Element<'a>, usize), String>;

    fn next(&mut self) -> Option<Self::Item> {
        let rest = &self.bytes[self.pos..];
        if rest.is_empty() {
            return None;
        }
        let offset = self.base + self.pos;
        let word =
            |i: usize| rest.get(i..i + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let Some(first) = word(0) else {
            return Some(Err(format!("truncated element tag at byte {offset}")));
        };
        let (kind, len, start, step) = if first >> 16 != 0 {
            (first & 0xffff, (first >> 16) as usize, 4, 8)
        } else {
            let Some(len) = word(4) else {
                return Some(Err(format!("truncated element tag at byte {offset}")));
            };
            let len = len as usize;
            // Compressed elements are not padded; every other element ends on 8 bytes.
            (first, len, 8, 8 + if first == MI_COMPRESSED { len } else { len.div_ceil(8) * 8 })
        };
        let Some(data) = rest.get(start..start + len) else {
            return Some(Err(format!(
                "element at byte {offset} claims {len} bytes, past the end of the file"
            )));
        };
        self.pos += step.min(rest.len());
        Some(Ok((Element { kind, data }, offset)))
    }
}

/// The numbers of a numeric element, as f64 (exact for every integer class up to 2^53).
pub fn numbers(el: &Element) -> std::result::Result<Vec<f64>, String> {
    fn conv<const N: usize>(d: &[u8], f: impl Fn([u8; N]) -> f64) -> Vec<f64> {
        d.chunks_exact(N).map(|c| f(c.try_into().unwrap_or([0; N]))).collect()
    }
    let width = match el.kind {
        1 | 2 => 1,
        3 | 4 => 2,
        5..=7 => 4,
        9 | 12 | 13 => 8,
        k => return Err(format!("element type {k} is not numeric")),
    };
    if !el.data.len().is_multiple_of(width) {
        return Err(format!(
            "{} bytes is not a whole number of {width}-byte values",
            el.data.len()
        ));
    }
    let d = el.data;
    Ok(match el.kind {
        1 => conv(d, |b: [u8; 1]| f64::from(b[0] as i8)),
        2 => conv(d, |b: [u8; 1]| f64::from(b[0])),
        3 => conv(d, |b| f64::from(i16::from_le_bytes(b))),
        4 => conv(d, |b| f64::from(u16::from_le_bytes(b))),
        5 => conv(d, |b| f64::from(i32::from_le_bytes(b))),
        6 => conv(d, |b| f64::from(u32::from_le_bytes(b))),
        7 => conv(d, |b| f64::from(f32::from_le_bytes(b))),
        9 => conv(d, f64::from_le_bytes),
        12 => conv(d, |b| i64::from_le_bytes(b) as f64),
        _ => conv(d, |b| u64::from_le_bytes(b) as f64),
    })
}
