//! `sslab data fetch`: copies registered files from a mirror directory, or downloads them
//! (with `curl`) when there is no mirror, verifies their sha256 and places them under the
//! data directory. Files already present with the right checksum are left alone.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use super::registry::{FileEntry, Registry};
use crate::error::{Error, Result};

/// How a file came to be in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Already there with the right checksum.
    Present,
    Copied,
    Downloaded,
}

/// The mirror to copy from: `explicit`, else `$SSLAB_DATA_MIRROR`, else `../shared/data`
/// when that directory exists.
pub fn mirror(explicit: Option<PathBuf>) -> Option<PathBuf> {
    explicit
        .or_else(|| std::env::var_os("SSLAB_DATA_MIRROR").map(PathBuf::from))
        .or_else(|| Some(PathBuf::from("../shared/data")).filter(|p| p.is_dir()))
}

/// Fetches every file of the datasets `names` (all registered when empty) into `dest`.
/// Returns each file's relative path and outcome, in registry order.
pub fn fetch(reg: &Registry, names: &[String], dest: &Path, mirror: Option<&Path>) -> Result<Vec<(String, Outcome)>> {
    let names: Vec<&str> = if names.is_empty() {
        reg.datasets.keys().map(String::as_str).collect()
    } else {
        names.iter().map(String::as_str).collect()
    };
    let mut files: Vec<&str> = Vec::new();
    for name in names {
        for f in reg.get(name)?.files() {
            if !files.contains(&f) {
                files.push(f);
            }
        }
    }
    files
        .into_iter()
        .map(|rel| {
            let entry = reg.files.get(rel).ok_or_else(|| Error::Data(format!("no [files] entry for `{rel}`")))?;
            Ok((rel.to_string(), fetch_file(rel, entry, dest, mirror)?))
        })
        .collect()
}

/// True when `dest/rel` exists with the registered checksum.
pub fn is_present(rel: &str, entry: &FileEntry, dest: &Path) -> Result<bool> {
    let path = dest.join(rel);
    Ok(path.is_file() && sha256_file(&path)? == entry.sha256)
}

fn fetch_file(rel: &str, entry: &FileEntry, dest: &Path, mirror: Option<&Path>) -> Result<Outcome> {
    if is_present(rel, entry, dest)? {
        return Ok(Outcome::Present);
    }
    let target = dest.join(rel);
    if let Some(dir) = target.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let part = PathBuf::from(format!("{}.part", target.display()));
    let source = mirror.map(|m| m.join(rel)).filter(|p| p.is_file());
    let (outcome, from) = match (source, &entry.url) {
        (Some(src), _) => {
            std::fs::copy(&src, &part).map_err(|e| Error::io(&src, e))?;
            (Outcome::Copied, src.display().to_string())
        }
        (None, Some(url)) => {
            download(url, &part)?;
            (Outcome::Downloaded, url.clone())
        }
        (None, None) => {
            let tried = mirror.map_or("no mirror given".to_string(), |m| format!("not in mirror {}", m.display()));
            return Err(Error::Data(format!(
                "cannot fetch `{rel}`: {tried}, and it has no download URL (it was converted for the mirror); \
                 pass --mirror DIR or set SSLAB_DATA_MIRROR"
            )));
        }
    };
    let got = sha256_file(&part)?;
    if got != entry.sha256 {
        std::fs::remove_file(&part).map_err(|e| Error::io(&part, e))?;
        return Err(Error::Data(format!(
            "checksum mismatch for `{rel}` from {from}: expected sha256 {}, got {got} (the file was removed)",
            entry.sha256
        )));
    }
    std::fs::rename(&part, &target).map_err(|e| Error::io(&target, e))?;
    Ok(outcome)
}

fn download(url: &str, out: &Path) -> Result<()> {
    let status = Command::new("curl")
        .args(["--fail", "--silent", "--show-error", "--location", "--retry", "2", "--output"])
        .arg(out)
        .arg(url)
        .status()
        .map_err(|e| Error::Data(format!("cannot run curl to download {url}: {e}")))?;
    if status.success() {
        return Ok(());
    }
    if out.exists() {
        std::fs::remove_file(out).map_err(|e| Error::io(out, e))?;
    }
    Err(Error::Data(format!("download of {url} failed (curl {status}); no mirror has the file either")))
}

/// Hex sha256 of a file's bytes.
pub fn sha256_file(path: &Path) -> Result<String> {
    let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf).map_err(|e| Error::io(path, e))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests;
