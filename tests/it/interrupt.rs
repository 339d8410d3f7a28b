//! Ctrl-C (SIGINT) during `sslab run` says how many fits the row log keeps and the command
//! that runs the rest, then ends the run as the signal does.

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::TempDir;

/// Many tiny fits: the run is still going when the first rows are in the log.
const CONFIG: &str = "[experiment]\nname = \"int\"\nseed = 2\nsplits = 40400\n\n[[datasets]]\nname = \"g\"\nkind = \"synthetic\"\ndim = 2\nmean_norm = 2\nlabeled = 4\nunlabeled = 8\n\n[[methods]]\nkind = \"ls_svm\"\n";

#[test]
fn ctrl_c_prints_the_fits_kept_and_the_resume_command() {
    let dir = TempDir::new("interrupt");
    let cfg = dir.0.join("c.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    let out = dir.0.join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sslab"))
        .args(["run", cfg.to_str().unwrap(), "-o", out.to_str().unwrap(), "-q", "-j", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let log = out.join("int/rows.log");
    while !std::fs::read_to_string(&log).is_ok_and(|t| t.lines().count() >= 3) {
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: kill(2) of our own child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGINT), "{err}");
    let rows = std::fs::read_to_string(&log).unwrap().matches('\n').count();
    let note = err.lines().find(|l| l.starts_with("interrupted: ")).expect(&err);
    let kept: usize = note["interrupted: ".len()..].split(' ').next().unwrap().parse().unwrap();
    // A fit is counted right after its row is written: the signal may fall in between.
    assert!(kept >= 3 && (kept == rows || kept + 1 == rows), "{kept} counted, {rows} rows");
    let resume = format!(
        "`sslab run {} --out {} --resume` runs the rest",
        out.join("int/config.toml").display(),
        out.display()
    );
    assert_eq!(note, format!("interrupted: {kept} fits kept in {}; {resume}", log.display()));
}
