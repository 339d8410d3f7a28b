//! Members of zip archives (a Python wheel is a zip), with the archive's CRC-32 checks.

use std::fs::File;
use std::io::{BufReader, Write};
use std::path::Path;

use zip::ZipArchive;

use crate::error::{Error, Result};

/// Writes member `member` of the zip archive `path` into `out`.
pub fn extract(path: &Path, member: &str, out: &mut dyn Write) -> Result<()> {
    let bad = |m: String| Error::Data(format!("{}: {m}", path.display()));
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let mut zip = ZipArchive::new(BufReader::new(file))
        .map_err(|e| bad(format!("not a readable zip archive: {e}")))?;
    let mut entry = zip.by_name(member).map_err(|e| bad(format!("no member `{member}`: {e}")))?;
    std::io::copy(&mut entry, out).map_err(|e| bad(format!("member `{member}`: {e}")))?;
    Ok(())
}
