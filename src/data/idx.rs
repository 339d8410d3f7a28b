//! MNIST's IDX files (Fashion-MNIST): images (magic 0x00000803, then count, rows, cols,
//! then row-major unsigned bytes) and labels (magic 0x00000801, then count, then one byte
//! each), headers big-endian. Read gunzipped: `sslab data fetch` stores them so.

use std::path::Path;

use ndarray::Array2;

use crate::error::{Error, Result};

const IMAGES: u32 = 0x0000_0803;
const LABELS: u32 = 0x0000_0801;

/// The images of an IDX file: `count` images of `rows × cols` pixels (0–255), row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct Images {
    pub count: usize,
    pub rows: usize,
    pub cols: usize,
    pub pixels: Vec<u8>,
}

impl Images {
    /// One row per image, each pixel divided by 255 (values in [0, 1]).
    pub fn features(&self) -> Result<Array2<f64>> {
        let values = self.pixels.iter().map(|&p| f64::from(p) / 255.0).collect();
        Array2::from_shape_vec((self.count, self.rows * self.cols), values)
            .map_err(|e| Error::Data(format!("IDX images: {e}")))
    }
}

/// Features (pixel / 255, one row per image) and label values of an images file and its
/// labels file.
pub fn read(images: &Path, labels: &Path) -> Result<(Array2<f64>, Vec<f64>)> {
    let x = parse_images(&bytes(images)?, images)?;
    let y = parse_labels(&bytes(labels)?, labels)?;
    pair(x, y, images, labels)
}

/// [`read`] from parsed files, which must hold as many images as labels; the paths are
/// only used in messages.
pub fn pair(
    x: Images,
    y: Vec<u8>,
    images: &Path,
    labels: &Path,
) -> Result<(Array2<f64>, Vec<f64>)> {
    if x.count != y.len() {
        return Err(Error::Data(format!(
            "{} has {} labels but {} has {} images",
            labels.display(),
            y.len(),
            images.display(),
            x.count
        )));
    }
    Ok((x.features()?, y.into_iter().map(f64::from).collect()))
}

/// Parses an IDX images file; `path` is only used in messages.
pub fn parse_images(bytes: &[u8], path: &Path) -> Result<Images> {
    let header = header(bytes, path, IMAGES, 4)?;
    let [count, rows, cols] = [header[1], header[2], header[3]];
    let pixels = body(bytes, path, 16, [count, rows, cols])?.to_vec();
    Ok(Images { count, rows, cols, pixels })
}

/// Parses an IDX labels file (one byte per label); `path` is only used in messages.
pub fn parse_labels(bytes: &[u8], path: &Path) -> Result<Vec<u8>> {
    let count = header(bytes, path, LABELS, 2)?[1];
    Ok(body(bytes, path, 8, [count, 1, 1])?.to_vec())
}

fn bytes(path: &Path) -> Result<Vec<u8>> {
    super::text::read_regular(path)
}

/// The `words` big-endian u32 of the header, the first being the magic `magic` (checked
/// first, so that a file of the other kind is named as such even when shorter).
fn header(bytes: &[u8], path: &Path, magic: u32, words: usize) -> Result<Vec<usize>> {
    let what = if magic == IMAGES { "images" } else { "labels" };
    let short = || {
        let m =
            format!("truncated: {} bytes, shorter than the {}-byte header", bytes.len(), 4 * words);
        bad(path, m)
    };
    let word = |i: usize| {
        bytes.get(4 * i..4 * i + 4).map(|w| u32::from_be_bytes([w[0], w[1], w[2], w[3]]))
    };
    let found = word(0).ok_or_else(short)?;
    if found != magic {
        let gzip = if bytes.starts_with(&[0x1f, 0x8b]) {
            " (the file is gzip-compressed: gunzip it first)"
        } else {
            ""
        };
        return Err(bad(
            path,
            format!("bad magic 0x{found:08x}, expected 0x{magic:08x} (IDX {what}){gzip}"),
        ));
    }
    (0..words).map(|i| word(i).map(|w| w as usize).ok_or_else(short)).collect()
}

/// The data after a header of `start` bytes: exactly the product of `dims` bytes.
fn body<'a>(bytes: &'a [u8], path: &Path, start: usize, dims: [usize; 3]) -> Result<&'a [u8]> {
    let body = &bytes[start..];
    let need = dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
    match need {
        Some(n) if body.len() == n => Ok(body),
        Some(n) if body.len() < n => Err(bad(
            path,
            format!("truncated: the header announces {n} data bytes, the file has {}", body.len()),
        )),
        Some(n) => Err(bad(
            path,
            format!("{} bytes after the {n} data bytes the header announces", body.len() - n),
        )),
        None => Err(bad(path, format!("header sizes {dims:?} overflow"))),
    }
}

fn bad(path: &Path, message: impl std::fmt::Display) -> Error {
    Error::Data(format!("{}: {message}", path.display()))
}

#[cfg(test)]
mod tests;
