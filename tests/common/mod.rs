//! Shared by the data tests: the mirror (those tests are ignored, and counted as such, where
//! it is absent) and temporary data directories filled from it, removed when dropped; and
//! the Rust sources of a folder, for the layout tests.
#![allow(dead_code)] // each test file uses part of these helpers

use std::path::{Path, PathBuf};

use sslab::data::fetch;
use sslab::data::registry::Registry;

/// The data mirror (`$SSLAB_DATA_MIRROR`, else ../shared/data); a test that asks for it
/// without one fails instead of passing silently.
pub fn mirror() -> PathBuf {
    let dir = std::env::var_os("SSLAB_DATA_MIRROR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    assert!(
        dir.is_dir(),
        "needs the data mirror, none at {} (set SSLAB_DATA_MIRROR)",
        dir.display()
    );
    dir
}

/// A temporary directory, removed (with its contents) when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A fresh, empty `sslab-TAG-PID` directory under the system temporary folder.
    pub fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("sslab-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A temporary data directory holding the registered files of `names` (all when empty),
/// fetched from `mirror` only.
pub fn fetched(mirror: &Path, names: &[&str], tag: &str) -> TempDir {
    let dir = TempDir::new(tag);
    let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    let reg = Registry::builtin().unwrap();
    fetch::fetch(&reg, &names, &dir.0, &[mirror.to_path_buf()]).unwrap();
    dir
}

/// A Python interpreter that imports numpy (and scikit-learn when `sklearn`), if any.
pub fn python(sklearn: bool) -> Option<String> {
    let venv = std::env::var("HOME").map(|h| format!("{h}/.cache/sslab-py-venv/bin/python"));
    let candidates = [std::env::var("SSLAB_PYTHON").ok(), venv.ok(), Some("python3".into())];
    let import = if sklearn { "import numpy, sklearn" } else { "import numpy" };
    candidates.into_iter().flatten().find(|p| {
        std::process::Command::new(p)
            .args(["-c", import])
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// The `.rs` files under `dir`, recursively.
pub fn rust_sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out
}
