//! The provenance stamp printed on every generated table and figure.

/// The commit this sslab was built from, with `-dirty` when its sources differed from it;
/// "unknown" when built outside its repository (see `build.rs`). Fixed at build time, so it
/// names sslab's own commit wherever sslab runs.
pub fn commit() -> &'static str {
    env!("SSLAB_COMMIT")
}

/// "sslab · config <hash> · commit <commit>".
pub fn stamp(config_hash: &str) -> String {
    format!("sslab · config {config_hash} · commit {}", commit())
}
