//! Files that appear whole or not at all: written to a temporary name in the same folder,
//! created exclusively (`O_EXCL`: never an existing file or a planted symlink) and unique per
//! process, then renamed over the target (a rename replaces a symlink, it never writes
//! through it). Temporaries left by killed processes are removed by the next writer.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let (tmp, mut file) = create_temporary(path, "tmp")?;
    // A failed write (e.g. a full disk) or rename leaves neither a partial file nor the
    // temporary one.
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_data())
        .map_err(|e| Error::io(&tmp, e))
        .and_then(|()| std::fs::rename(&tmp, path).map_err(|e| Error::io(path, e)));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// A new file `.NAME.PID.K.SUFFIX` beside `path` (the first K free), created exclusively; the
/// temporaries of `path` left by processes that no longer run are removed first.
pub fn create_temporary(path: &Path, suffix: &str) -> Result<(PathBuf, File)> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    remove_stale(path, name, suffix);
    let pid = std::process::id();
    let mut k = 0;
    loop {
        let tmp = path.with_file_name(format!(".{name}.{pid}.{k}.{suffix}"));
        match OpenOptions::new().write(true).create_new(true).mode(0o644).open(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && k < 1000 => k += 1,
            Err(e) => return Err(Error::io(tmp, e)),
        }
    }
}

/// Opens `path` for appending, refusing a symlink (`O_NOFOLLOW`).
pub fn open_append(path: &Path) -> Result<File> {
    OpenOptions::new()
        .append(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| Error::io(path, e))
}

/// Removes `.NAME.PID.K.SUFFIX` beside `path` whose process PID is gone (best effort).
fn remove_stale(path: &Path, name: &str, suffix: &str) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let (head, tail) = (format!(".{name}."), format!(".{suffix}"));
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(middle) =
            file.to_str().and_then(|f| f.strip_prefix(&head)).and_then(|f| f.strip_suffix(&tail))
        else {
            continue;
        };
        let Some(pid) = middle.split_once('.').and_then(|(p, _)| p.parse::<i32>().ok()) else {
            continue;
        };
        // SAFETY: kill with signal 0 only checks whether the process exists.
        let gone = unsafe { libc::kill(pid, 0) } != 0
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if gone {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_keeps_the_old_file_and_no_temporary() {
        let dir = std::env::temp_dir().join(format!("sslab-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f.csv");
        write_atomic(&path, b"old").unwrap();
        // A directory where the file should go: the rename fails, as a full disk fails the write.
        let blocked = dir.join("d");
        std::fs::create_dir_all(blocked.join("x")).unwrap();
        assert!(write_atomic(&blocked, b"new").is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        let names: Vec<_> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 2, "{names:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn symlinks_are_replaced_not_written_through_and_stale_temporaries_go() {
        let dir = std::env::temp_dir().join(format!("sslab-atomic-link-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let victim = dir.join("victim");
        std::fs::write(&victim, b"keep").unwrap();
        let path = dir.join("out.csv");
        std::os::unix::fs::symlink(&victim, &path).unwrap();
        assert!(open_append(&path).is_err());
        // A planted temporary of this process and one of a process that is gone (pid
        // beyond pid_max).
        let own = dir.join(format!(".out.csv.{}.0.tmp", std::process::id()));
        std::os::unix::fs::symlink(&victim, &own).unwrap();
        let stale = dir.join(".out.csv.99999999.0.tmp");
        std::fs::write(&stale, b"x").unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert!(!path.is_symlink() && !stale.exists() && own.is_symlink());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
