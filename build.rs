//! Build-time facts of the `sslab` crate:
//! - the commit it is built from, as `SSLAB_COMMIT` (`src/report/stamp.rs`): the short hash
//!   of the repository whose top folder is this crate's, with `-dirty` when the build's
//!   inputs (`src/`, `build.rs`, `build/`, `Cargo.toml`, `Cargo.lock`, `assets/`,
//!   `configs/datasets.toml`) differ from it; "unknown" outside such a repository (a crate
//!   tarball, or the crate unpacked inside some other repository), or without git
//!   (`build/commit.rs`).
//! - the `sslab` binary linked position-dependent (`-no-pie`) on Linux. A position-independent
//!   binary of this size carries ~66,000 pointer relocations that the loader applies at every
//!   start, making ~3.8 MiB of the binary resident in every `sslab` process (measured on
//!   `sslab run` of the SVMlin bench: 80.3 → 78.1 MB peak); a fixed load address needs none.
//!   Only the `sslab` binary is affected, not the library, tests, examples or Python module.

#[path = "build/commit.rs"]
mod commit;

use std::path::PathBuf;

fn main() {
    // Read when the script runs, not when it is compiled: one compiled script serves every
    // checkout that shares the target folder (a CI clone and a working copy), and each must
    // stamp its own commit.
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dir = dir.as_path();
    println!("cargo:rustc-env=SSLAB_COMMIT={}", commit::commit(dir));
    for input in commit::INPUTS {
        println!("cargo:rerun-if-changed={input}");
    }
    for file in commit::git_files(dir) {
        println!("cargo:rerun-if-changed={file}");
    }
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
