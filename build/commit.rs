//! The commit a build of sslab comes from (used by `build.rs`; `tests/it/provenance.rs` checks
//! it on repositories of its own): the short hash of the repository whose top folder is the
//! crate's, `-dirty` when the build's inputs differ from it, else "unknown".

use std::path::{Path, PathBuf};
use std::process::Command;

/// The build's inputs (relative to the crate's folder): a change makes the tree dirty (and
/// reruns the build script).
pub const INPUTS: [&str; 7] =
    ["src", "build.rs", "build", "Cargo.toml", "Cargo.lock", "assets", "configs/datasets.toml"];

/// Output of `git -C dir args…`, trimmed, when git succeeds.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .arg("--no-optional-locks") // `status` leaves the index (a rerun trigger) untouched
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    String::from_utf8(out.stdout).ok().map(|s| s.trim().to_string())
}

/// The commit of the repository whose top folder is `dir` (`-dirty` when [`INPUTS`]
/// differ from it), or "unknown".
pub fn commit(dir: &Path) -> String {
    let top = git(dir, &["rev-parse", "--show-toplevel"]).map(PathBuf::from);
    let same = |t: &Path| t.canonicalize().ok() == dir.canonicalize().ok();
    if !top.is_some_and(|t| same(&t)) {
        return "unknown".into();
    }
    let Some(head) = git(dir, &["rev-parse", "--short=10", "HEAD"]) else {
        return "unknown".into();
    };
    let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    status.extend(INPUTS);
    match git(dir, &status) {
        Some(c) if c.is_empty() => head,
        _ => format!("{head}-dirty"),
    }
}

/// The git files whose change moves HEAD or the index (rerun triggers), when in a repository.
pub fn git_files(dir: &Path) -> Vec<String> {
    let mut paths = vec!["HEAD", "index", "packed-refs"].into_iter().map(String::from).collect();
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        paths = [paths, vec![branch]].concat();
    }
    paths
        .iter()
        .filter_map(|p| git(dir, &["rev-parse", "--path-format=absolute", "--git-path", p]))
        .collect()
}
