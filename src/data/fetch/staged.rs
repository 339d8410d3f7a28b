//! Writing a file through a temporary `.part` file of this process (created exclusively, so
//! concurrent fetches never share one and a planted symlink is never written through):
//! hashed while written, renamed into place only when the checksum is accepted, removed on
//! any failure (or panic).

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::hex;
use crate::error::{Error, Result};
use crate::support::atomic::create_temporary;

/// Fills `target` with what `fill` writes, read from `from` (named in messages); keeps it
/// only when `accepts` its sha256 (`expected` is the one reported on a mismatch).
pub fn place(
    target: &Path,
    from: &str,
    expected: &str,
    accepts: impl Fn(&str) -> bool,
    fill: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    if let Some(dir) = target.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let (path, file) = create_temporary(target, "part")?;
    let mut part = Part { path, keep: false };
    let mut out = Hashing {
        inner: BufWriter::with_capacity(1 << 16, file),
        hasher: Sha256::new(),
        write_error: None,
    };
    if let Err(e) = fill(&mut out) {
        // A failed write (a full disk) is about the temporary file, not the source.
        return Err(match out.write_error.take() {
            Some(w) => Error::io(&part.path, w),
            None => e,
        });
    }
    let file = out.inner.into_inner().map_err(|e| Error::io(&part.path, e.into_error()))?;
    file.sync_all().map_err(|e| Error::io(&part.path, e))?;
    let got = hex(&out.hasher.finalize());
    if !accepts(&got) {
        return Err(Error::Data(format!(
            "checksum mismatch for `{}` from {from}: expected sha256 {expected}, got {got} (nothing was kept)",
            target.display()
        )));
    }
    std::fs::rename(&part.path, target).map_err(|e| Error::io(target, e))?;
    part.keep = true;
    Ok(())
}

/// A temporary file, removed when dropped unless it was renamed into place (`keep`).
struct Part {
    path: PathBuf,
    keep: bool,
}

impl Drop for Part {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// A writer that hashes what it writes and remembers its last write error.
struct Hashing<W> {
    inner: W,
    hasher: Sha256,
    write_error: Option<std::io::Error>,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf).inspect_err(|e| {
            self.write_error = Some(std::io::Error::new(e.kind(), e.to_string()));
        })?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush().inspect_err(|e| {
            self.write_error = Some(std::io::Error::new(e.kind(), e.to_string()));
        })
    }
}
