//! NumPy `.npy` files: a small reader (little-endian `f8`, `f4`, `i8`, `i4`, `u1`, `b1`;
//! C or Fortran order; format versions 1–3) and a writer of `f8` and `i8` arrays in C
//! order, the format the `command` methods exchange with their programs and the `npy`
//! dataset kind reads.

use std::path::Path;

use ndarray::{Array1, Array2};

use crate::error::{Error, Result};

const MAGIC: &[u8] = b"\x93NUMPY";

/// An array read from a `.npy` file: its shape and its values in C (row-major) order,
/// converted to f64.
#[derive(Debug, Clone, PartialEq)]
pub struct Npy {
    pub shape: Vec<usize>,
    pub data: Vec<f64>,
}

impl Npy {
    /// The array as a vector: shape `(n,)`, or `(n, 1)`.
    pub fn vector(self, what: &str) -> Result<Array1<f64>> {
        match self.shape[..] {
            [_] | [_, 1] => Ok(Array1::from(self.data)),
            _ => Err(Error::Data(format!("{what}: expected shape (n,), got {}", self.shape()))),
        }
    }

    /// The array as a matrix: shape `(n, d)`.
    pub fn matrix(self, what: &str) -> Result<Array2<f64>> {
        match self.shape[..] {
            [n, d] => Array2::from_shape_vec((n, d), self.data)
                .map_err(|e| Error::Data(format!("{what}: {e}"))),
            _ => Err(Error::Data(format!("{what}: expected shape (n, d), got {}", self.shape()))),
        }
    }

    /// The shape as NumPy prints it: `(3,)`, `(3, 4)`.
    pub fn shape(&self) -> String {
        match &self.shape[..] {
            [n] => format!("({n},)"),
            s => format!("({})", s.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")),
        }
    }
}

/// Reads the `.npy` file at `path`.
pub fn read(path: &Path) -> Result<Npy> {
    let bytes = super::text::read_regular(path)?;
    parse(&bytes).map_err(|m| Error::Data(format!("{}: {m}", path.display())))
}

/// Parses the bytes of a `.npy` file; the message says what is wrong.
pub fn parse(bytes: &[u8]) -> std::result::Result<Npy, String> {
    if bytes.len() < 10 || &bytes[..6] != MAGIC {
        return Err("not a .npy file (no \\x93NUMPY magic)".into());
    }
    let (len, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => {
            (u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize, 12)
        }
        v => return Err(format!("unsupported .npy format version {v}")),
    };
    let header = bytes
        .get(start..start + len)
        .and_then(|h| std::str::from_utf8(h).ok())
        .ok_or("truncated or non-text header")?;
    let descr = field(header, "descr").ok_or("header without 'descr'")?;
    let descr = descr.trim().trim_matches(|c| c == '\'' || c == '"');
    let fortran = field(header, "fortran_order").ok_or("header without 'fortran_order'")?;
    let fortran = fortran.trim().starts_with("True");
    let shape = field(header, "shape").ok_or("header without 'shape'")?;
    let shape = shape.trim().trim_start_matches('(');
    let shape = shape[..shape.find(')').ok_or("malformed 'shape'")?]
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<usize>().map_err(|_| format!("malformed 'shape' entry `{s}`")))
        .collect::<std::result::Result<Vec<usize>, String>>()?;
    let count = shape.iter().product::<usize>();
    let body = &bytes[start + len..];
    let (width, convert): (usize, fn(&[u8]) -> f64) = match descr {
        "<f8" => (8, |b| f64::from_le_bytes(b.try_into().expect("8 bytes"))),
        "<f4" => (4, |b| f32::from_le_bytes(b.try_into().expect("4 bytes")) as f64),
        "<i8" => (8, |b| i64::from_le_bytes(b.try_into().expect("8 bytes")) as f64),
        "<i4" => (4, |b| i32::from_le_bytes(b.try_into().expect("4 bytes")) as f64),
        "|u1" | "|b1" => (1, |b| b[0] as f64),
        other => {
            return Err(format!(
                "unsupported dtype `{other}` (read: <f8, <f4, <i8, <i4, |u1, |b1; save with .astype(float))"
            ));
        }
    };
    if body.len() < count * width {
        return Err(format!(
            "shape {shape:?} needs {} bytes of data, the file has {}",
            count * width,
            body.len()
        ));
    }
    let values: Vec<f64> = body[..count * width].chunks_exact(width).map(convert).collect();
    let data = match (fortran, &shape[..]) {
        (true, [n, d]) => (0..n * d).map(|k| values[(k % d) * n + k / d]).collect(),
        (true, s) if s.len() > 2 => return Err("Fortran order above two dimensions".into()),
        _ => values,
    };
    Ok(Npy { shape, data })
}

/// The text after `'key':` in a header dict, up to the next key.
fn field<'h>(header: &'h str, key: &str) -> Option<&'h str> {
    let at = header.find(&format!("'{key}'"))? + key.len() + 2;
    let rest = header[at..].trim_start().strip_prefix(':')?;
    Some(&rest[..rest.find(", '").unwrap_or(rest.len())])
}

/// Writes f64 values (C order) of the given shape.
pub fn write_f64(path: &Path, shape: &[usize], data: &[f64]) -> Result<()> {
    std::fs::write(path, f64_bytes(shape, data)?).map_err(|e| Error::io(path, e))
}

/// Writes i64 values (C order) of the given shape.
pub fn write_i64(path: &Path, shape: &[usize], data: &[i64]) -> Result<()> {
    let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
    write(path, "<i8", shape, &bytes)
}

fn write(path: &Path, descr: &str, shape: &[usize], body: &[u8]) -> Result<()> {
    std::fs::write(path, encode(descr, shape, body)?).map_err(|e| Error::io(path, e))
}

/// The bytes of an f64 array's `.npy` file (C order), e.g. for a member of an `.npz`.
pub fn f64_bytes(shape: &[usize], data: &[f64]) -> Result<Vec<u8>> {
    let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
    encode("<f8", shape, &bytes)
}

/// A version-1 file: the header dict padded with spaces so that the data start at a
/// multiple of 64 bytes.
fn encode(descr: &str, shape: &[usize], body: &[u8]) -> Result<Vec<u8>> {
    let shape = match shape {
        [n] => format!("({n},)"),
        s => format!("({})", s.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")),
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    let pad = 64 - (MAGIC.len() + 4 + header.len() + 1) % 64;
    header.push_str(&" ".repeat(pad % 64));
    header.push('\n');
    let len = u16::try_from(header.len()).map_err(|_| Error::Data("npy header too long".into()))?;
    let mut out = Vec::with_capacity(MAGIC.len() + 4 + header.len() + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[1, 0]);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(body);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(descr: &str, fortran: bool, shape: &str, body: &[u8]) -> Vec<u8> {
        let f = if fortran { "True" } else { "False" };
        let h = format!("{{'descr': '{descr}', 'fortran_order': {f}, 'shape': {shape}, }}\n");
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&[1, 0]);
        out.extend_from_slice(&(h.len() as u16).to_le_bytes());
        out.extend_from_slice(h.as_bytes());
        out.extend_from_slice(body);
        out
    }

    #[test]
    fn written_arrays_read_back_with_an_aligned_header() {
        let dir = std::env::temp_dir().join(format!("sslab-npy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("a.npy");
        write_f64(&p, &[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, -6.5]).unwrap();
        let bytes = std::fs::read(&p).unwrap();
        assert_eq!((bytes.len() - 6 * 8) % 64, 0);
        let a = read(&p).unwrap();
        assert_eq!((a.shape(), a.data.clone()), ("(2, 3)".into(), vec![1., 2., 3., 4., 5., -6.5]));
        write_i64(&p, &[3], &[7, -1, 0]).unwrap();
        assert_eq!(read(&p).unwrap().vector("y").unwrap().to_vec(), [7.0, -1.0, 0.0]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn f4_i4_and_fortran_order_are_read_in_c_order() {
        let body: Vec<u8> = [1.5f32, 2.0, 3.0, 4.0].iter().flat_map(|v| v.to_le_bytes()).collect();
        let a = parse(&file("<f4", true, "(2, 2)", &body)).unwrap();
        assert_eq!(a.data, [1.5, 3.0, 2.0, 4.0], "column-major [[1.5, 3], [2, 4]]");
        let body: Vec<u8> = [5i32, -2].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(parse(&file("<i4", false, "(2,)", &body)).unwrap().data, [5.0, -2.0]);
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        assert!(parse(b"hello world").unwrap_err().contains("magic"));
        let e = parse(&file(">f8", false, "(1,)", &[0; 8])).unwrap_err();
        assert!(e.contains("unsupported dtype `>f8`"), "{e}");
        let e = parse(&file("<f8", false, "(2,)", &[0; 8])).unwrap_err();
        assert!(e.contains("needs 16 bytes"), "{e}");
        let e = parse(&file("<f8", false, "(2, 2)", &[0; 32])).unwrap().vector("s").unwrap_err();
        assert!(e.to_string().contains("s: expected shape (n,), got (2, 2)"), "{e}");
    }
}
