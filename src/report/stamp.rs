//! The provenance stamp printed on every generated table and figure.

use std::process::Command;

/// `git describe --always --dirty` of the working tree, or "unknown" outside git.
pub fn commit() -> String {
    Command::new("git")
        .args(["describe", "--always", "--dirty", "--abbrev=10"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

/// "sslab · config <hash> · commit <commit>".
pub fn stamp(config_hash: &str) -> String {
    format!("sslab · config {config_hash} · commit {}", commit())
}
