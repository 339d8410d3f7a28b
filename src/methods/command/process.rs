//! Running a `command` method's program: a private temporary folder per run (removed when
//! done; folders left by a killed sslab are removed by the next run), the program in its own
//! process group with stdin and stdout closed and stderr kept in a file, killed when sslab
//! dies, a timeout that kills the whole group, the group killed when the program ends (see
//! [`groups`](super::groups)), and failure messages that end with the last lines of stderr.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::DirBuilderExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::groups::Group;
use crate::error::{Error, Result};

/// Lines of stderr a failure message ends with.
const TAIL_LINES: usize = 10;

/// The folder of one run: `split/` is given to the program, `stderr.txt` is beside it.
pub(super) struct Folder {
    root: PathBuf,
    io: PathBuf,
}

impl Folder {
    /// A new folder readable by this user only, under the system's temporary directory.
    pub fn create() -> Result<Folder> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        static SWEPT: std::sync::Once = std::sync::Once::new();
        let base = std::env::temp_dir();
        SWEPT.call_once(|| sweep(&base));
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let root = base.join(format!("sslab-command-{}-{n}", std::process::id()));
            match std::fs::DirBuilder::new().mode(0o700).create(&root) {
                Ok(()) => {
                    let folder = Folder { io: root.join("split"), root };
                    std::fs::create_dir(&folder.io).map_err(|e| Error::io(&folder.io, e))?;
                    return Ok(folder);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(Error::io(root, e)),
            }
        }
    }

    /// The folder the program reads and writes (its last argument).
    pub fn io(&self) -> &Path {
        &self.io
    }

    fn stderr(&self) -> PathBuf {
        self.root.join("stderr.txt")
    }

    /// `argv: why; stderr: …last lines…`.
    pub fn failure(&self, argv: &[String], why: &str) -> String {
        format!("`{}`: {why}; {}", argv.join(" "), tail(&self.stderr()))
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// Removes the `sslab-command-PID-N` folders of processes that no longer exist (an sslab
/// killed while a program ran), among those this user may remove.
fn sweep(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else { return };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix("sslab-command-")) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<i32>().ok()) else {
            continue;
        };
        // SAFETY: kill(2) with signal 0 only checks whether the process exists.
        let gone = unsafe { libc::kill(pid, 0) } != 0
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if gone {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// Thread-pool sizes of the numeric libraries programs commonly use (OpenMP, OpenBLAS, MKL,
/// Accelerate, numexpr): each is set to 1 unless sslab's own environment sets it, since the
/// run already gives every core one task and pools spinning beside each other cost far more
/// than they give (docs/open-harness.md).
pub(super) const THREAD_VARS: [&str; 5] = [
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
];

/// Runs `argv` with the folder's `split/` appended; returns its wall time in seconds, or an
/// error saying why it failed (start, exit status, signal, timeout) with stderr's tail.
pub(super) fn run(argv: &[String], folder: &Folder, timeout: Duration) -> Result<f64> {
    let stderr = folder.stderr();
    let err_file = File::create(&stderr).map_err(|e| Error::io(&stderr, e))?;
    let fail = |why: String| Error::Data(folder.failure(argv, &why));
    let start = Instant::now();
    let mut command = std::process::Command::new(&argv[0]);
    command.args(&argv[1..]).arg(folder.io()).stdin(Stdio::null()).stdout(Stdio::null());
    command.stderr(err_file).process_group(0);
    for var in THREAD_VARS {
        if std::env::var_os(var).is_none() {
            command.env(var, "1");
        }
    }
    #[cfg(target_os = "linux")]
    // SAFETY: prctl is async-signal-safe; the program gets SIGKILL when the thread that
    // started it (a worker of the run, alive until the run ends) dies, e.g. sslab is killed.
    unsafe {
        command.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    let mut child = command.spawn().map_err(|e| fail(format!("cannot start: {e}")))?;
    // Killed whole when this function returns, however the program ended.
    let group = Group::new(child.id());
    let mut pause = Duration::from_millis(1);
    let status = loop {
        match child.try_wait().map_err(|e| fail(format!("cannot wait: {e}")))? {
            Some(status) => break status,
            None if start.elapsed() >= timeout => {
                // The whole group: a wrapper's children go too.
                drop(group);
                let _ = child.wait();
                return Err(fail(format!("timed out after {} s (timeout)", timeout.as_secs_f64())));
            }
            None => {
                std::thread::sleep(pause.min(timeout.saturating_sub(start.elapsed())));
                pause = (pause * 2).min(Duration::from_millis(50));
            }
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    drop(group);
    match (status.code(), status.signal()) {
        (Some(0), _) => Ok(seconds),
        (Some(code), _) => Err(fail(format!("exited with status {code}"))),
        (None, Some(signal)) => Err(fail(format!("killed by signal {signal}"))),
        (None, None) => Err(fail("ended without a status".into())),
    }
}

/// `stderr: line | line | …` (the last lines, at most 64 KiB read), or `stderr empty`.
fn tail(path: &Path) -> String {
    let mut text = Vec::new();
    if let Ok(mut f) = File::open(path) {
        let len = f.metadata().map(|m| m.len()).unwrap_or(0);
        let _ = f.seek(SeekFrom::Start(len.saturating_sub(64 * 1024)));
        let _ = f.read_to_end(&mut text);
    }
    let text = String::from_utf8_lossy(&text);
    let lines: Vec<&str> = text.lines().map(str::trim_end).filter(|l| !l.is_empty()).collect();
    if lines.is_empty() {
        return "stderr empty".into();
    }
    let last: Vec<String> = lines[lines.len().saturating_sub(TAIL_LINES)..]
        .iter()
        .map(|l| l.chars().take(300).collect())
        .collect();
    format!("stderr: {}", last.join(" | "))
}
