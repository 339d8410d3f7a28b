//! The provenance stamp printed on every generated table and figure.

use std::process::Command;

/// Output of `git args…`, trimmed, when git succeeds.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok().filter(|o| o.status.success())?;
    String::from_utf8(out.stdout).ok().map(|s| s.trim().to_string())
}

/// The commit of the working tree, with `-dirty` when tracked files outside the generated
/// `results/` and `figures/` differ from it (regenerating outputs keeps the stamp clean);
/// "unknown" outside git.
pub fn commit() -> String {
    let Some(head) = git(&["rev-parse", "--short=10", "HEAD"]) else {
        return "unknown".into();
    };
    let changes = git(&[
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        ".",
        ":(exclude)results",
        ":(exclude)figures",
    ]);
    match changes {
        Some(c) if c.is_empty() => head,
        _ => format!("{head}-dirty"),
    }
}

/// "sslab · config <hash> · commit <commit>".
pub fn stamp(config_hash: &str) -> String {
    format!("sslab · config {config_hash} · commit {}", commit())
}
