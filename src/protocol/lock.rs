//! The lock on a run folder, an OS file lock (flock) held for the run's lifetime and released
//! by the kernel on any exit, so a killed run leaves no stale lock. A whole run holds
//! `.run.lock` exclusively; the shards of one config share it (and each holds its own
//! `.shard-I-of-N.lock`), so exactly the shards of the same config can run side by side.
//! Shards never hold `.run.lock` exclusively for long: only the first, to write the config
//! copy, while `.config.lock` keeps the other shards waiting. The config copy binds the
//! folder to its config for good: shards of another config are refused.

use std::fs::{File, OpenOptions, TryLockError};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use super::Shard;
use crate::config::Experiment;
use crate::error::{Error, Result};
use crate::support::atomic::write_atomic;

/// Held locks; dropping it releases them.
#[derive(Debug)]
pub struct RunLock {
    _files: Vec<File>,
}

impl RunLock {
    /// Locks `dir` for a whole run or for one shard; a whole run (of a config read from a
    /// file), and the first shard in the folder, also leave the config there (`config.toml`,
    /// for `sslab merge` and `status`). Shards start one at a
    /// time (`.config.lock`), so each sees whether others of its config are running.
    pub fn acquire(exp: &Experiment, dir: &Path, shard: Option<Shard>) -> Result<Self> {
        let run_path = dir.join(".run.lock");
        let run = open(&run_path)?;
        let busy = |what: String| {
            Error::Data(format!(
                "{}: {what}; wait for it to finish or use another --out",
                dir.display()
            ))
        };
        let Some(s) = shard else {
            return match run.try_lock() {
                Ok(()) => {
                    if let Some(theirs) = foreign_shards(exp, dir)? {
                        return Err(Error::Data(format!(
                            "{}: holds shards of another config (hash {theirs} ≠ {}; `sslab status {}`); use another --out or remove their row logs",
                            dir.display(),
                            exp.hash,
                            dir.display()
                        )));
                    }
                    // A config parsed from text (no file) leaves no copy.
                    if exp.path.is_file() {
                        copy_config(exp, dir)?;
                    }
                    Ok(RunLock { _files: vec![run] })
                }
                Err(TryLockError::WouldBlock) => {
                    Err(busy("another sslab run is writing into this folder".into()))
                }
                Err(TryLockError::Error(e)) => Err(Error::io(run_path, e)),
            };
        };
        let start_path = dir.join(".config.lock");
        let start = open(&start_path)?;
        start.lock().map_err(|e| Error::io(&start_path, e))?;
        let whole = || busy("a whole (unsharded) sslab run is writing into this folder".into());
        match run.try_lock() {
            Ok(()) => {
                // Nobody else runs here: the first shard's config becomes the folder's for
                // good; a shard of another config is refused even when the folder is idle.
                let copy = dir.join("config.toml");
                match std::fs::read_to_string(&copy) {
                    Ok(theirs) => {
                        let theirs = crate::config::hash(&theirs).unwrap_or_default();
                        if theirs != exp.hash {
                            return Err(Error::Data(format!(
                                "{}: holds shards of another config (hash {theirs} ≠ {}); use another --out",
                                dir.display(),
                                exp.hash
                            )));
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => copy_config(exp, dir)?,
                    Err(e) => return Err(Error::io(copy, e)),
                }
                run.try_lock_shared().map_err(|_| whole())?;
            }
            Err(TryLockError::WouldBlock) => {
                run.try_lock_shared().map_err(|_| whole())?;
                let theirs = crate::config::load(&dir.join("config.toml"))
                    .map(|c| c.hash)
                    .unwrap_or_default();
                if theirs != exp.hash {
                    return Err(busy(format!(
                        "shards of another config (hash {theirs}) are writing into this folder"
                    )));
                }
            }
            Err(TryLockError::Error(e)) => return Err(Error::io(run_path, e)),
        }
        drop(start);
        let path = dir.join(format!(".shard-{}-of-{}.lock", s.index, s.count));
        let own = open(&path)?;
        match own.try_lock() {
            Ok(()) => Ok(RunLock { _files: vec![run, own] }),
            Err(TryLockError::WouldBlock) => {
                Err(busy(format!("shard {}/{} is already running", s.index, s.count)))
            }
            Err(TryLockError::Error(e)) => Err(Error::io(path, e)),
        }
    }
}

/// Leaves the run's config in its folder (`config.toml`, for `sslab merge`, `status` and
/// the SLURM array) with the folders its relative paths lead to (`config.base`).
pub fn copy_config(exp: &Experiment, dir: &Path) -> Result<()> {
    let text = std::fs::read(&exp.path).map_err(|e| Error::io(&exp.path, e))?;
    exp.base.record(dir)?;
    write_atomic(&dir.join("config.toml"), &text)
}

/// The hash of the config copy in `dir` when it is another config's and shard row logs
/// (`rows.shard-I-of-N.log`) lie beside it: a whole run must not take that folder over.
fn foreign_shards(exp: &Experiment, dir: &Path) -> Result<Option<String>> {
    let copy = dir.join("config.toml");
    let Ok(text) = std::fs::read_to_string(&copy) else { return Ok(None) };
    let theirs = crate::config::hash(&text).unwrap_or_default();
    if theirs == exp.hash {
        return Ok(None);
    }
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let shard_log = |n: &str| n.starts_with("rows.shard-") && n.ends_with(".log");
    let any = entries.flatten().any(|e| e.file_name().to_str().is_some_and(shard_log));
    Ok(any.then_some(theirs))
}

/// Opens (creating) the lock file `path`, not through a symbolic link (a dangling one would
/// create its target).
fn open(path: &Path) -> Result<File> {
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => Error::Data(format!(
                "{}: a symbolic link where sslab keeps its lock; remove it",
                path.display()
            )),
            _ => Error::io(path, e),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = "[experiment]\nname = \"l\"\nseed = 1\nsplits = 2\n\n[[datasets]]\nname = \"g\"\nkind = \"synthetic\"\ndim = 3\nmean_norm = 1\nlabeled = 4\nunlabeled = 10\n\n[[methods]]\nkind = \"ls_svm\"\n";

    #[test]
    fn one_whole_run_or_the_shards_of_one_config() {
        let dir = std::env::temp_dir().join(format!("sslab-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let load = |seed: u32, name: &str| {
            let path = dir.join(name);
            std::fs::write(&path, CONFIG.replace("seed = 1", &format!("seed = {seed}"))).unwrap();
            crate::config::load(&path).unwrap()
        };
        let (exp, other) = (load(1, "a.toml"), load(2, "b.toml"));
        let shard = |i| Some(Shard { index: i, count: 2 });
        let err = |r: Result<RunLock>| r.unwrap_err().to_string();
        let whole = RunLock::acquire(&exp, &dir, None).unwrap();
        assert!(err(RunLock::acquire(&exp, &dir, None)).contains("another sslab run"));
        assert!(err(RunLock::acquire(&exp, &dir, shard(1))).contains("whole (unsharded)"));
        drop(whole);
        let first = RunLock::acquire(&exp, &dir, shard(1)).unwrap();
        assert_eq!(crate::config::load(&dir.join("config.toml")).unwrap().hash, exp.hash);
        let second = RunLock::acquire(&exp, &dir, shard(2)).unwrap();
        assert!(
            err(RunLock::acquire(&exp, &dir, shard(2))).contains("shard 2/2 is already running")
        );
        assert!(err(RunLock::acquire(&exp, &dir, None)).contains("another sslab run"));
        assert!(err(RunLock::acquire(&other, &dir, shard(1))).contains("another config"));
        drop((first, second));
        // Idle, the folder still belongs to the first config's shards, once they wrote rows.
        assert!(err(RunLock::acquire(&other, &dir, shard(1))).contains("another config"));
        std::fs::write(dir.join("rows.shard-1-of-2.log"), "").unwrap();
        assert!(
            err(RunLock::acquire(&other, &dir, None)).contains("holds shards of another config")
        );
        assert!(RunLock::acquire(&exp, &dir, None).is_ok(), "its own config may run whole");
        std::fs::remove_file(dir.join("rows.shard-1-of-2.log")).unwrap();
        assert!(RunLock::acquire(&other, &dir, None).is_ok());
        // A dangling link as the lock: refused, its target not created.
        std::fs::remove_file(dir.join(".run.lock")).unwrap();
        std::os::unix::fs::symlink(dir.join("target"), dir.join(".run.lock")).unwrap();
        assert!(err(RunLock::acquire(&exp, &dir, None)).contains("a symbolic link"));
        assert!(!dir.join("target").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
