//! The repository stays readable: no Rust source over 400 lines in `src/`, `tests/` and
//! `benches/`, and `src/main.rs` under 100 (the subcommands live in `src/cli/`).

use std::path::{Path, PathBuf};

use crate::common::rust_sources;

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).unwrap().lines().count()
}

#[test]
fn no_source_file_is_over_400_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files: Vec<PathBuf> =
        ["src", "tests", "benches"].iter().flat_map(|d| rust_sources(&root.join(d))).collect();
    assert!(files.len() > 100, "found only {} sources", files.len());
    let long: Vec<(usize, &PathBuf)> =
        files.iter().map(|f| (lines(f), f)).filter(|(n, _)| *n > 400).collect();
    assert!(long.is_empty(), "files over 400 lines (split them along their seams): {long:?}");
}

#[test]
fn main_rs_is_under_100_lines() {
    let n = lines(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/main.rs"));
    assert!(n < 100, "src/main.rs has {n} lines");
}
