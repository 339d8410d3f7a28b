//! `sslab data fetch`: puts each registered file, as its original bytes, under the data
//! directory. Sources are tried in order: every mirror directory (`--mirror`,
//! `$SSLAB_DATA_MIRROR`, `../shared/data`), then the public original (a pinned URL, or a
//! member of a pinned archive); a `.gz` source is gunzipped unless the registered file is
//! itself `.gz`. Every copy and download goes through a temporary file that is renamed into
//! place only when its sha256 is the registered one, so an interrupted or corrupted
//! transfer leaves nothing behind. Files already present and intact are left alone.

mod archive;
mod http;
mod proxy;
mod staged;
mod trust;

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;
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

/// The mirror directories to try, in order: `explicit`, `$SSLAB_DATA_MIRROR`, and
/// `../shared/data` when that directory exists.
pub fn mirrors(explicit: Option<PathBuf>) -> Vec<PathBuf> {
    let env = std::env::var_os("SSLAB_DATA_MIRROR").map(PathBuf::from);
    let shared = Some(PathBuf::from("../shared/data")).filter(|p| p.is_dir());
    let mut out: Vec<PathBuf> = Vec::new();
    for dir in [explicit, env, shared].into_iter().flatten() {
        if !out.contains(&dir) {
            out.push(dir);
        }
    }
    out
}

/// Fetches every file of the datasets `names` (all registered when empty) into `dest`.
/// Returns each file's relative path and outcome, in registry order.
pub fn fetch(
    reg: &Registry,
    names: &[String],
    dest: &Path,
    mirrors: &[PathBuf],
) -> Result<Vec<(String, Outcome)>> {
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
    let mut verified = Vec::new();
    files
        .into_iter()
        .map(|rel| {
            let entry = reg
                .files
                .get(rel)
                .ok_or_else(|| Error::Data(format!("no [files] entry for `{rel}`")))?;
            Ok((rel.to_string(), fetch_file(reg, rel, entry, dest, mirrors, &mut verified)?))
        })
        .collect()
}

/// True when `dest/rel` exists with an accepted checksum.
pub fn is_present(rel: &str, entry: &FileEntry, dest: &Path) -> Result<bool> {
    let path = dest.join(rel);
    Ok(path.is_file() && entry.accepts(&sha256_file(&path)?))
}

/// Fetches one file; `verified` lists the archives already checked during this fetch.
fn fetch_file(
    reg: &Registry,
    rel: &str,
    entry: &FileEntry,
    dest: &Path,
    mirrors: &[PathBuf],
    verified: &mut Vec<PathBuf>,
) -> Result<Outcome> {
    if is_present(rel, entry, dest)? {
        return Ok(Outcome::Present);
    }
    let target = dest.join(rel);
    let accepts = |sha: &str| entry.accepts(sha);
    let mut tried = Vec::new();
    for mirror in mirrors {
        let names =
            if entry.mirror.is_empty() { vec![rel.to_string()] } else { entry.mirror.clone() };
        let parts: Vec<PathBuf> = names.iter().map(|n| mirror.join(n)).collect();
        if let Some(missing) = parts.iter().find(|p| !p.is_file()) {
            let what = if missing.exists() { "is not a regular file" } else { "is not there" };
            tried.push(format!("mirror: {} {what}", missing.display()));
            continue;
        }
        let from = format!("mirror {}", mirror.display());
        match staged::place(&target, &from, &entry.sha256, accepts, |out| concat(&parts, rel, out))
        {
            Ok(()) => return Ok(Outcome::Copied),
            Err(e) => tried.push(reason(e)),
        }
    }
    let fail = |tried: &[String], advice: String| {
        Error::Data(format!("cannot fetch `{rel}`:\n  - {}\n{advice}", tried.join("\n  - ")))
    };
    let Ok((url, hint)) = public_source(reg, rel, entry, dest) else {
        tried.push("no public source is registered".into());
        return Err(fail(
            &tried,
            "Pass --mirror DIR (or set SSLAB_DATA_MIRROR) to a folder that holds it".into(),
        ));
    };
    let downloaded = match &entry.member {
        None => staged::place(&target, url, &entry.sha256, accepts, |out| download(url, rel, out)),
        Some(member) => archive_path(reg, entry, dest).and_then(|(path, archive)| {
            if !verified.contains(&path) {
                if !path.is_file() || sha256_file(&path)? != archive.sha256 {
                    staged::place(
                        &path,
                        url,
                        &archive.sha256,
                        |s| s == archive.sha256,
                        |out| http::download(url, out, &http::LIMITS),
                    )?;
                }
                verified.push(path.clone());
            }
            let from = format!("{} (member {member})", path.display());
            staged::place(&target, &from, &entry.sha256, accepts, |out| {
                archive::extract(&path, member, out)
            })
        }),
    };
    downloaded.map(|()| Outcome::Downloaded).map_err(|e| {
        tried.push(reason(e));
        let advice = format!(
            "Offline? Download {url} by hand {hint}, or pass --mirror DIR (or set SSLAB_DATA_MIRROR) to a folder \
             that holds `{rel}`"
        );
        fail(&tried, advice)
    })
}

/// The URL to download for `entry`, and where a user who fetches it by hand should put it.
fn public_source<'a>(
    reg: &'a Registry,
    rel: &str,
    entry: &'a FileEntry,
    dest: &Path,
) -> Result<(&'a str, String)> {
    match (&entry.url, &entry.member) {
        (Some(url), _) => {
            let how = if gunzips(url, rel) { "and gunzip it " } else { "" };
            Ok((url, format!("{how}to {} (sha256 {})", dest.join(rel).display(), entry.sha256)))
        }
        (None, Some(_)) => {
            let (path, archive) = archive_path(reg, entry, dest)?;
            Ok((&archive.url, format!("to {} (sha256 {})", path.display(), archive.sha256)))
        }
        (None, None) => Err(Error::Data(format!(
            "registry file with sha256 {} has no public source",
            entry.sha256
        ))),
    }
}

/// Where the archive of `entry` is kept: `dest/archives/<file name of its URL>`.
fn archive_path<'a>(
    reg: &'a Registry,
    entry: &FileEntry,
    dest: &Path,
) -> Result<(PathBuf, &'a super::registry::Archive)> {
    let name = entry.archive.as_deref().unwrap_or_default();
    let archive =
        reg.archives.get(name).ok_or_else(|| Error::Data(format!("unknown archive `{name}`")))?;
    let file = archive.url.rsplit('/').next().unwrap_or(name);
    Ok((dest.join("archives").join(file), archive))
}

/// True when the source `from` of registered file `rel` is gunzipped on the way: it ends in
/// `.gz` and `rel` does not (the registered bytes are then the decompressed ones).
fn gunzips(from: &str, rel: &str) -> bool {
    from.ends_with(".gz") && !rel.ends_with(".gz")
}

/// Downloads `url` into `out`, gunzipped when [`gunzips`] says so.
fn download(url: &str, rel: &str, out: &mut dyn Write) -> Result<()> {
    if !gunzips(url, rel) {
        return http::download(url, out, &http::LIMITS);
    }
    let mut gunzip = flate2::write::MultiGzDecoder::new(out);
    http::download(url, &mut gunzip, &http::LIMITS)?;
    gunzip.try_finish().map_err(|e| {
        Error::Data(format!("download of {url} failed: not a complete gzip stream: {e}"))
    })
}

/// Writes the mirror files `parts` one after the other, gunzipping `.gz` ones unless the
/// registered file is itself `.gz`.
fn concat(parts: &[PathBuf], rel: &str, out: &mut dyn Write) -> Result<()> {
    for part in parts {
        let file = File::open(part).map_err(|e| Error::io(part, e))?;
        let gunzip = gunzips(&part.to_string_lossy(), rel);
        let mut reader: Box<dyn Read> =
            if gunzip { Box::new(MultiGzDecoder::new(file)) } else { Box::new(file) };
        std::io::copy(&mut reader, out).map_err(|e| Error::io(part, e))?;
    }
    Ok(())
}

/// Hex sha256 of a file's bytes.
pub fn sha256_file(path: &Path) -> Result<String> {
    let mut file = super::text::open_regular(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf).map_err(|e| Error::io(path, e))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

/// An error's message without the `data: ` prefix, for the list of sources tried.
fn reason(e: Error) -> String {
    match e {
        Error::Data(m) => m,
        e => e.to_string(),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests;
