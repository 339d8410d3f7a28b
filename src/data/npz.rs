//! Arrays of a numpy `.npz` archive (a zip of `.npy` members), each bounded by the memory
//! limit before it inflates: first the size the archive declares, then the bytes read (a
//! declared size can lie).

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::{npy, text};
use crate::error::{Error, Result};
use crate::support::memory;

/// An open `.npz` file.
pub struct Npz {
    zip: zip::ZipArchive<File>,
    path: PathBuf,
    limit: f64,
}

impl Npz {
    /// Opens the regular file `path` as a zip archive.
    pub fn open(path: &Path) -> Result<Self> {
        let file = text::open_regular(path)?;
        let zip = zip::ZipArchive::new(file).map_err(|e| bad(path, format!("not an .npz: {e}")))?;
        Ok(Npz { zip, path: path.to_path_buf(), limit: memory::limit()? })
    }

    /// Whether the archive has the array `name`.
    pub fn has(&self, name: &str) -> bool {
        self.zip.index_for_name(&format!("{name}.npy")).is_some()
    }

    /// The array `name` (member `name.npy`); `hint` says how such a file is written.
    pub fn array(&mut self, name: &str, hint: &str) -> Result<npy::Npy> {
        let (path, limit) = (self.path.as_path(), self.limit);
        let entry = self
            .zip
            .by_name(&format!("{name}.npy"))
            .map_err(|_| bad(path, format!("no array `{name}` ({hint})")))?;
        let over = |size: f64| {
            bad(
                path,
                format!(
                    "array `{name}` inflates to {} or more, over the memory limit of {} (SSLAB_MEMORY_LIMIT)",
                    memory::human(size),
                    memory::human(limit)
                ),
            )
        };
        if entry.size() as f64 > limit {
            return Err(over(entry.size() as f64));
        }
        let mut bytes = Vec::new();
        entry.take(limit as u64 + 1).read_to_end(&mut bytes).map_err(|e| Error::io(path, e))?;
        if bytes.len() as f64 > limit {
            return Err(over(bytes.len() as f64));
        }
        npy::parse(&bytes).map_err(|m| bad(path, format!("{name}: {m}")))
    }
}

/// Writes f64 arrays `(name, shape, values in C order)` as an uncompressed `.npz`, the
/// archive `numpy.load` reads.
pub fn write(path: &Path, arrays: &[(&str, Vec<usize>, Vec<f64>)]) -> Result<()> {
    let io = |e: std::io::Error| Error::io(path, e);
    let zipped = |e: zip::result::ZipError| bad(path, format!("cannot write the archive: {e}"));
    let mut zip = zip::ZipWriter::new(File::create(path).map_err(io)?);
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, shape, values) in arrays {
        zip.start_file(format!("{name}.npy"), stored).map_err(zipped)?;
        zip.write_all(&npy::f64_bytes(shape, values)?).map_err(io)?;
    }
    zip.finish().map_err(zipped)?;
    Ok(())
}

fn bad(path: &Path, message: String) -> Error {
    Error::Data(format!("{}: {message}", path.display()))
}
