//! The sha256 check of a registered data file when a run reads it, so a file changed or
//! damaged after `sslab data fetch` is refused instead of read. Checked files are remembered
//! in `DATA_DIR/.sslab-verified` by size and modification time, so an unchanged file is
//! hashed once.

use std::path::Path;
use std::time::UNIX_EPOCH;

use super::fetch::sha256_file;
use super::registry::FileEntry;
use crate::error::{Error, Result};
use crate::support::write_atomic;

/// The cache file, in the data directory.
const CACHE: &str = ".sslab-verified";

/// Ok when `root/rel` holds a checksum `entry` accepts (`name` is the dataset, for the
/// advice); the verdict is cached by size and modification time.
pub fn check(root: &Path, rel: &str, entry: &FileEntry, name: &str) -> Result<()> {
    let path = root.join(rel);
    let meta = std::fs::metadata(&path).map_err(|e| Error::io(&path, e))?;
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    let key = format!("{rel}\t{}\t{mtime}\t", meta.len());
    let cache = root.join(CACHE);
    let known = std::fs::read_to_string(&cache).unwrap_or_default();
    let cached = known.lines().filter_map(|l| l.strip_prefix(&key)).any(|sha| entry.accepts(sha));
    if cached {
        return Ok(());
    }
    let sha = sha256_file(&path)?;
    if !entry.accepts(&sha) {
        return Err(Error::Data(format!(
            "{}: sha256 {sha} is not the registered {}: the file changed since it was fetched; remove it and run `sslab data fetch {name}`",
            path.display(),
            entry.sha256
        )));
    }
    let mut lines: Vec<&str> =
        known.lines().filter(|l| !l.starts_with(&format!("{rel}\t"))).collect();
    let line = format!("{key}{sha}");
    lines.push(&line);
    // The cache is only a shortcut: a folder that cannot be written is hashed every time.
    let _ = write_atomic(&cache, format!("{}\n", lines.join("\n")).as_bytes());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_file_is_refused_and_a_checked_one_cached() {
        let dir = std::env::temp_dir().join(format!("sslab-verify-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.txt"), b"abc").unwrap();
        let sha = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        let entry = FileEntry {
            sha256: sha.into(),
            url: None,
            archive: None,
            member: None,
            mirror: Vec::new(),
            mirror_sha256: None,
        };
        check(&dir, "a.txt", &entry, "a").unwrap();
        let cache = std::fs::read_to_string(dir.join(CACHE)).unwrap();
        assert!(cache.starts_with("a.txt\t3\t") && cache.trim_end().ends_with(sha), "{cache}");
        check(&dir, "a.txt", &entry, "a").unwrap();
        std::fs::write(dir.join("a.txt"), b"abd").unwrap();
        let e = check(&dir, "a.txt", &entry, "a").unwrap_err().to_string();
        assert!(e.contains("changed since it was fetched"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
