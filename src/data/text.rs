//! Line-by-line reading of text data files, gzip-transparent (detected by the gzip magic
//! bytes, not the file name), with 1-based line numbers for error messages.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;

use crate::error::{Error, Result};

/// The longest line read (64 MiB): a longer one, or a file without line ends such as
/// `/dev/zero`, is an error instead of unbounded memory.
pub const MAX_LINE: usize = 64 << 20;

/// Opens `path` for buffered reading, decompressing it when it starts with the gzip magic;
/// only regular files (not devices or pipes).
pub fn open(path: &Path) -> Result<Box<dyn BufRead>> {
    let mut file = open_regular(path)?;
    let mut magic = [0u8; 2];
    let mut got = 0;
    while got < 2 {
        match file.read(&mut magic[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    let head = std::io::Cursor::new(magic[..got].to_vec()).chain(file);
    Ok(if magic[..got] == [0x1f, 0x8b] {
        Box::new(BufReader::with_capacity(1 << 16, MultiGzDecoder::new(head)))
    } else {
        Box::new(BufReader::with_capacity(1 << 16, head))
    })
}

/// The lines of a text source, without their `\n` / `\r\n` ending.
pub struct Lines<R> {
    reader: R,
    path: PathBuf,
    buf: Vec<u8>,
    line: usize,
}

impl<R: BufRead> Lines<R> {
    /// Reads `reader`; `path` is only used in messages.
    pub fn new(reader: R, path: &Path) -> Self {
        Lines { reader, path: path.to_path_buf(), buf: Vec::new(), line: 0 }
    }

    /// The next line and its 1-based number, or None at the end.
    pub fn next_line(&mut self) -> Result<Option<(usize, &[u8])>> {
        self.buf.clear();
        let n = (&mut self.reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| Error::io(&self.path, e))?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        if n > MAX_LINE {
            return Err(error_at(
                &self.path,
                self.line,
                format!("line longer than {} MiB", MAX_LINE >> 20),
            ));
        }
        let mut end = self.buf.len();
        while end > 0 && matches!(self.buf[end - 1], b'\n' | b'\r') {
            end -= 1;
        }
        Ok(Some((self.line, &self.buf[..end])))
    }

    /// A parse error for the whole file (reported at the line after the last one read).
    pub fn file_error(&self, message: impl Into<String>) -> Error {
        error_at(&self.path, self.line + 1, message)
    }
}

/// `path` opened for reading when it is a regular file, else an error naming it: a FIFO is
/// opened without waiting for a writer (`O_NONBLOCK`) and refused, as are devices such as
/// `/dev/zero` (never ending) and folders.
pub fn open_regular(path: &Path) -> Result<File> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    match file.metadata().map_err(|e| Error::io(path, e))?.is_file() {
        true => Ok(file),
        false => Err(not_regular(path)),
    }
}

/// The bytes of the regular file `path` (see [`open_regular`]).
pub fn read_regular(path: &Path) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open_regular(path)?.read_to_end(&mut bytes).map_err(|e| Error::io(path, e))?;
    Ok(bytes)
}

fn not_regular(path: &Path) -> Error {
    Error::Data(format!("{}: not a regular file (a pipe, device or folder)", path.display()))
}

/// Errors unless `path` is a regular file (a device such as `/dev/zero` never ends).
pub fn regular_file(path: &Path) -> Result<u64> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if !meta.is_file() {
        return Err(not_regular(path));
    }
    Ok(meta.len())
}

/// A parse error at `line` (1-based) of `path`.
pub fn error_at(path: &Path, line: usize, message: impl Into<String>) -> Error {
    Error::Parse { path: path.to_path_buf(), line, message: message.into() }
}

/// Whitespace-separated tokens of a line (spaces and tabs).
pub fn tokens(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|b| *b == b' ' || *b == b'\t').filter(|t| !t.is_empty())
}

/// A finite number, or a message saying why `token` is not one.
pub fn number(token: &[u8]) -> std::result::Result<f64, String> {
    // Fast path for short integers (`1`, `-1`, `+1`, counts): exact in f64.
    let (negative, digits) = match token.first() {
        Some(b'-') => (true, &token[1..]),
        Some(b'+') => (false, &token[1..]),
        _ => (false, token),
    };
    if !digits.is_empty() && digits.len() <= 15 && digits.iter().all(u8::is_ascii_digit) {
        let v = digits.iter().fold(0u64, |v, d| v * 10 + u64::from(d - b'0')) as f64;
        return Ok(if negative { -v } else { v });
    }
    let text = std::str::from_utf8(token).map_err(|_| "a value is not valid UTF-8".to_string())?;
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(_) => Err(format!("non-finite value `{text}`")),
        Err(_) => Err(format!("`{text}` is not a number")),
    }
}

/// True for lines that hold no data: empty, blank, or a `#` comment.
pub fn is_blank(line: &[u8]) -> bool {
    line.iter().find(|b| !b.is_ascii_whitespace()).is_none_or(|b| *b == b'#')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gzip_is_detected_by_content() {
        use flate2::{Compression, write::GzEncoder};
        use std::io::Write;
        let dir = std::env::temp_dir().join(format!("sslab-text-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (plain, gz) = (dir.join("a.txt"), dir.join("a.bin"));
        std::fs::write(&plain, "x\r\ny\n").unwrap();
        let mut enc = GzEncoder::new(Vec::new(), Compression::fast());
        enc.write_all(b"x\r\ny\n").unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        for p in [&plain, &gz] {
            let mut lines = Lines::new(open(p).unwrap(), p);
            assert_eq!(lines.next_line().unwrap(), Some((1, &b"x"[..])));
            assert_eq!(lines.next_line().unwrap(), Some((2, &b"y"[..])));
            assert_eq!(lines.next_line().unwrap(), None);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn numbers_must_be_finite() {
        assert_eq!(number(b"+1"), Ok(1.0));
        assert_eq!(number(b"-12"), Ok(-12.0));
        assert_eq!(number(b"007"), Ok(7.0));
        assert_eq!(number(b"1234567890123456789"), Ok(1234567890123456789.0));
        assert_eq!(number(b"2.5e-3"), Ok(0.0025));
        assert!(number(b"-").is_err() && number(b"").is_err());
        assert!(number(b"nan").is_err());
        assert!(number(b"-inf").is_err());
        assert!(number(b"1x").is_err());
    }
}
