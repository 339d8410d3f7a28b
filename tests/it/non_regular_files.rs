//! Files that are not regular files are refused with the file named, never waited on or read
//! forever: a FIFO given as the `path` of every reader (csv, npy folder and `.npz`,
//! svmlight) and written by a `command` program as its `scores.npy`, `/dev/zero` as a csv;
//! and an `.npz` member that would inflate past the memory limit is refused before it is.

use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

use sslab::config::parse;
use sslab::protocol::{RunOptions, run};

use crate::common::{TempDir, python};

fn fifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo reads a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo {path:?}");
}

fn config(dir: &Path, kind: &str, path: &str) -> String {
    let label = if kind == "csv" { "label = \"y\"\n" } else { "" };
    format!(
        "[experiment]\nname = \"n\"\nseed = 1\nsplits = 1\n\n[[datasets]]\nname = \"d\"\nkind = \"{kind}\"\npath = \"{}\"\n{label}labeled_per_class = 2\nunlabeled = \"rest\"\n\n[[methods]]\nkind = \"ls_svm\"\n",
        dir.join(path).display()
    )
}

/// The error of reading the data of `src`, within 20 s (a hang fails the test).
fn read_error(src: String) -> String {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let exp = parse(&src, Path::new("n.toml")).unwrap();
        let _ = tx.send(exp.read_data().map_err(|e| e.to_string()));
    });
    match rx.recv_timeout(Duration::from_secs(20)) {
        Ok(result) => result.expect_err("a non-regular file was read"),
        Err(_) => panic!("reading hung"),
    }
}

#[test]
fn every_reader_refuses_a_fifo_and_a_device_naming_the_file() {
    let dir = TempDir::new("fifo");
    for name in ["d.csv", "d.npz", "d.svm"] {
        fifo(&dir.0.join(name));
    }
    std::fs::create_dir(dir.0.join("arrays")).unwrap();
    fifo(&dir.0.join("arrays/X.npy"));
    let cases = [("csv", "d.csv"), ("npy", "d.npz"), ("npy", "arrays"), ("svmlight", "d.svm")];
    for (kind, path) in cases {
        let e = read_error(config(&dir.0, kind, path));
        let named = if path == "arrays" { "arrays/X.npy" } else { path };
        let expected = format!("{}: not a regular file", dir.0.join(named).display());
        assert!(e.contains(&expected), "{kind} {path}: {e}");
    }
    let e = read_error(config(Path::new("/dev"), "csv", "zero"));
    assert!(e.contains("/dev/zero: not a regular file"), "{e}");
}

#[test]
fn an_npz_member_inflating_past_the_memory_limit_is_refused_before_inflating() {
    let dir = TempDir::new("npz-bomb");
    let npz = dir.0.join("big.npz");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&npz).unwrap());
    let deflate = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    // X: 4096 × 64 zeros (2 MiB inflated, a few KiB stored).
    let header = "{'descr': '<f8', 'fortran_order': False, 'shape': (4096, 64), }";
    let header = format!("{header:<117}\n");
    zip.start_file("X.npy", deflate).unwrap();
    zip.write_all(b"\x93NUMPY\x01\x00").unwrap();
    zip.write_all(&(header.len() as u16).to_le_bytes()).unwrap();
    zip.write_all(header.as_bytes()).unwrap();
    zip.write_all(&vec![0u8; 4096 * 64 * 8]).unwrap();
    zip.finish().unwrap();
    assert!(std::fs::metadata(&npz).unwrap().len() < 64 << 10);
    std::fs::write(dir.0.join("c.toml"), config(&dir.0, "npy", "big.npz")).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_sslab"))
        .args(["run", "c.toml", "-o", "out", "-q"])
        .current_dir(&dir.0)
        .env("SSLAB_MEMORY_LIMIT", "1M")
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{e}");
    assert!(
        e.contains(
            "big.npz: array `X` inflates to 2.0 MiB or more, over the memory limit of 1.0 MiB"
        ),
        "{e}"
    );
}

#[test]
fn a_program_writing_a_fifo_as_its_scores_gets_a_failed_row_not_a_hang() {
    let Some(py) = python(false) else {
        return eprintln!("SKIPPED: no Python with numpy (set SSLAB_PYTHON)");
    };
    let dir = TempDir::new("fifo-scores");
    let script = dir.0.join("fifo.py");
    std::fs::write(
        &script,
        "import os, sys\nos.mkfifo(os.path.join(sys.argv[-1], 'scores.npy'))\n",
    )
    .unwrap();
    let src = format!(
        "[experiment]\nname = \"f\"\nseed = 1\nsplits = 1\n\n[[datasets]]\nname = \"g\"\nkind = \"synthetic\"\ndim = 2\nmean_norm = 2.0\nlabeled_per_class = 2\nunlabeled = 20\n\n[[methods]]\nkind = \"command\"\nname = \"fifo\"\nargv = [\"{py}\", \"{}\"]\ntimeout = 60\n",
        script.display()
    );
    let exp = parse(&src, Path::new("f.toml")).unwrap();
    let start = std::time::Instant::now();
    let rows = run(&exp, &RunOptions::default(), &dir.0).unwrap();
    assert!(start.elapsed() < Duration::from_secs(30), "waited on the FIFO");
    assert_eq!(rows[0].status, "failed", "{:?}", rows[0]);
    assert!(
        rows[0].message.contains("scores.npy: ") && rows[0].message.contains("not a regular file"),
        "{}",
        rows[0].message
    );
}
