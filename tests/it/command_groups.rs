//! No process a `command` program starts in its group outlives its fit: a daemon left behind
//! by a program that exits normally is killed, and so are the children of a program still
//! running when sslab gets SIGTERM. Skipped (saying why) without a Python with numpy.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{TempDir, python};

/// Starts `sleep 300` in the program's group, writes its pid to the `pid_file` parameter,
/// then scores 0 everywhere, or sleeps first when `linger`.
const PROGRAM: &str = r#"import json, subprocess, sys, time
import numpy as np
d = sys.argv[-1]
info = json.load(open(f"{d}/split.json"))
child = subprocess.Popen(["sleep", "300"])
open(info["params"]["pid_file"], "w").write(str(child.pid))
if info["params"]["linger"]:
    time.sleep(300)
np.save(f"{d}/scores.npy", np.zeros(info["n_unlabeled"]))
"#;

fn config(py: &str, dir: &Path, linger: bool) -> String {
    format!(
        "[experiment]\nname = \"g\"\nseed = 1\nsplits = 1\n\n[[datasets]]\nname = \"g\"\nkind = \"synthetic\"\ndim = 2\nmean_norm = 2.0\nlabeled_per_class = 2\nunlabeled = 20\n\n[[methods]]\nkind = \"command\"\nargv = [\"{py}\", \"{}\"]\npid_file = \"{}\"\nlinger = {linger}\n",
        dir.join("p.py").display(),
        dir.join("pid").display()
    )
}

/// Whether process `pid` is gone within 10 s (a zombie is reaped by init soon).
fn gone(pid: i32) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        // SAFETY: kill(2) with signal 0 only checks whether the process exists.
        if unsafe { libc::kill(pid, 0) } != 0 {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// The pid the program wrote, waiting up to 30 s for it.
fn child_pid(dir: &Path) -> i32 {
    let start = Instant::now();
    loop {
        if let Some(pid) =
            std::fs::read_to_string(dir.join("pid")).ok().and_then(|t| t.parse().ok())
        {
            return pid;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "the program wrote no pid");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn sslab(dir: &Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_sslab"))
        .args(["run", "g.toml", "-o", "out", "-q", "-j", "1"])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// A folder holding the program and `g.toml` (the program lingering or not), or None
/// without a Python with numpy.
fn setup(tag: &str, linger: bool) -> Option<TempDir> {
    let Some(py) = python(false) else {
        eprintln!("SKIPPED: no Python with numpy (set SSLAB_PYTHON)");
        return None;
    };
    let dir = TempDir::new(tag);
    std::fs::write(dir.0.join("p.py"), PROGRAM).unwrap();
    std::fs::write(dir.0.join("g.toml"), config(&py, &dir.0, linger)).unwrap();
    Some(dir)
}

#[test]
fn a_daemon_left_by_a_program_that_ended_is_killed() {
    let Some(dir) = setup("groups-daemon", false) else { return };
    let status = sslab(&dir.0).wait().unwrap();
    assert!(status.success());
    assert!(gone(child_pid(&dir.0)), "the daemon outlived the fit");
}

#[test]
fn sigterm_to_sslab_kills_the_programs_children() {
    let Some(dir) = setup("groups-term", true) else { return };
    let mut run = sslab(&dir.0);
    let pid = child_pid(&dir.0);
    // SAFETY: kill(2) sends SIGTERM to the sslab process this test started.
    unsafe { libc::kill(run.id() as i32, libc::SIGTERM) };
    let status = run.wait().unwrap();
    assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(libc::SIGTERM));
    assert!(gone(pid), "the program's child outlived sslab");
}
