//! Fetching from a mirror: copy, idempotence, checksum mismatch, no source.

use super::*;

fn registry(sha: &str, url: Option<&str>) -> Registry {
    let url = url.map_or(String::new(), |u| format!("url = \"{u}\"\n"));
    let src = format!(
        r#"
[datasets.tiny]
description = "t"
home = "h"
format = "svmlight"
features = 2
labels = [1, -1]
class_names = ["+1", "-1"]
parts = [{{ name = "all", x = "tiny/t.svm" }}]

[files."tiny/t.svm"]
sha256 = "{sha}"
{url}"#
    );
    toml::from_str(&src).unwrap()
}

fn dirs(tag: &str) -> (PathBuf, PathBuf) {
    let root = std::env::temp_dir().join(format!("sslab-fetch-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (mirror, dest) = (root.join("mirror"), root.join("data"));
    std::fs::create_dir_all(mirror.join("tiny")).unwrap();
    std::fs::write(mirror.join("tiny/t.svm"), "+1 1:1\n-1 2:1\n").unwrap();
    (mirror, dest)
}

#[test]
fn copies_verifies_and_is_idempotent() {
    let (mirror, dest) = dirs("ok");
    let sha = sha256_file(&mirror.join("tiny/t.svm")).unwrap();
    let reg = registry(&sha, None);
    let first = fetch(&reg, &[], &dest, Some(&mirror)).unwrap();
    assert_eq!(first, [("tiny/t.svm".to_string(), Outcome::Copied)]);
    let again = fetch(&reg, &["tiny".into()], &dest, Some(&mirror)).unwrap();
    assert_eq!(again[0].1, Outcome::Present);
    assert!(fetch(&reg, &["nope".into()], &dest, Some(&mirror)).is_err());
}

#[test]
fn checksum_mismatch_removes_the_file() {
    let (mirror, dest) = dirs("bad");
    let reg = registry(&"0".repeat(64), None);
    let msg = fetch(&reg, &[], &dest, Some(&mirror)).unwrap_err().to_string();
    assert!(msg.contains("checksum mismatch for `tiny/t.svm`"), "{msg}");
    assert!(!dest.join("tiny/t.svm").exists() && !dest.join("tiny/t.svm.part").exists());
}

#[test]
fn no_source_is_a_clear_error() {
    let (_, dest) = dirs("none");
    let reg = registry(&"0".repeat(64), None);
    let msg = fetch(&reg, &[], &dest, None).unwrap_err().to_string();
    assert!(msg.contains("cannot fetch `tiny/t.svm`") && msg.contains("--mirror"), "{msg}");
    let reg = registry(&"0".repeat(64), Some("file:///nonexistent/sslab/t.svm"));
    let msg = fetch(&reg, &[], &dest, None).unwrap_err().to_string();
    assert!(msg.contains("download of file:///nonexistent"), "{msg}");
}
