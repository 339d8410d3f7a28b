//! The commit sslab stamps on its outputs is the one it was built from, wherever it runs:
//! `sslab --version` and a table's stamp name it from a folder outside any repository and
//! from inside another repository; `build/commit.rs` (what `build.rs` embeds) gives
//! "unknown" for a crate outside its own repository, even inside another one, and `-dirty`
//! only when a build input changed.

use std::path::Path;
use std::process::Command;

#[path = "../../build/commit.rs"]
#[allow(dead_code)] // `git_files` serves build.rs only
mod commit;

use crate::common::TempDir;

fn git(dir: &Path, args: &[&str]) -> String {
    let o = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"])
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

/// A repository in `dir` with one commit of `files`.
fn repository(dir: &Path, files: &[&str]) -> String {
    git(dir, &["init", "-q"]);
    for f in files {
        let path = dir.join(f);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "x\n").unwrap();
    }
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "one"]);
    git(dir, &["rev-parse", "--short=10", "HEAD"])
}

fn sslab(cwd: &Path, args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_sslab")).current_dir(cwd).args(args).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn version_and_stamps_name_the_commit_sslab_was_built_from_wherever_it_runs() {
    let built = sslab::report::commit();
    let own = git(Path::new(env!("CARGO_MANIFEST_DIR")), &["rev-parse", "--short=10", "HEAD"]);
    assert!(built.starts_with(&own), "built from {own}, embedded {built}");
    let outside = TempDir::new("provenance-outside");
    let other = TempDir::new("provenance-other");
    let theirs = repository(&other.0, &["README"]);
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/quickstart/results.csv");
    for cwd in [&outside.0, &other.0] {
        let version = sslab(cwd, &["--version"]);
        assert_eq!(version.trim(), format!("sslab 0.1.0 (commit {built})"), "in {cwd:?}");
        std::fs::copy(&results, cwd.join("results.csv")).unwrap();
        sslab(cwd, &["table", "results.csv", "--name", "t", "--out", "."]);
        let table = std::fs::read_to_string(cwd.join("t.md")).unwrap();
        assert!(table.contains(&format!("· commit {built}")), "in {cwd:?}: {table}");
        assert!(!table.contains(&theirs), "another repository's commit: {table}");
    }
}

#[test]
fn the_embedded_commit_is_the_crates_own_repository_or_unknown() {
    let outside = TempDir::new("provenance-crate");
    std::fs::write(outside.0.join("Cargo.toml"), "x\n").unwrap();
    assert_eq!(commit::commit(&outside.0), "unknown", "a crate tarball, no repository");
    let other = TempDir::new("provenance-nested");
    repository(&other.0, &["README"]);
    let unpacked = other.0.join("vendor/sslab");
    std::fs::create_dir_all(&unpacked).unwrap();
    assert_eq!(commit::commit(&unpacked), "unknown", "inside another project's repository");
    let own = TempDir::new("provenance-own");
    let head = repository(&own.0, &["src/lib.rs", "docs/a.md"]);
    assert_eq!(commit::commit(&own.0), head);
    std::fs::write(own.0.join("docs/a.md"), "changed\n").unwrap();
    assert_eq!(commit::commit(&own.0), head, "docs are not a build input");
    std::fs::write(own.0.join("src/lib.rs"), "changed\n").unwrap();
    assert_eq!(commit::commit(&own.0), format!("{head}-dirty"));
}

#[test]
fn the_build_script_reads_its_checkout_when_it_runs() {
    // Cargo reuses one compiled build script for every checkout that shares a target folder
    // (a CI clone and a working copy): a folder fixed when it was compiled (`env!`) made
    // every later build of the other checkout stamp "unknown" (seen on 28 Nov 2026).
    let script =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("build.rs")).unwrap();
    assert!(script.contains("std::env::var_os(\"CARGO_MANIFEST_DIR\")"), "read at run time");
    assert!(!script.contains("env!(\"CARGO_MANIFEST_DIR\")"), "not fixed at compile time");
}
