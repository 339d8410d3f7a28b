//! Fetching from mirrors: copy, idempotence, mirror order, concatenated and gzip'd mirror
//! copies, checksum mismatch, and the error when no source works.

use std::io::Write;

use super::*;

fn registry(sha: &str, extra: &str) -> Registry {
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
url = "http://127.0.0.1:9/sslab-test/t.svm"
{extra}"#
    );
    toml::from_str(&src).unwrap()
}

const TEXT: &str = "+1 1:1\n-1 2:1\n";

fn sha(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn dirs(tag: &str) -> (PathBuf, PathBuf, PathBuf) {
    let root = std::env::temp_dir().join(format!("sslab-fetch-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (mirror, dest) = (root.join("mirror"), root.join("data"));
    std::fs::create_dir_all(mirror.join("tiny")).unwrap();
    std::fs::write(mirror.join("tiny/t.svm"), TEXT).unwrap();
    (root, mirror, dest)
}

#[test]
fn copies_verifies_and_is_idempotent() {
    let (root, mirror, dest) = dirs("ok");
    let reg = registry(&sha(TEXT.as_bytes()), "");
    let empty = root.join("empty-mirror");
    let first = fetch(&reg, &[], &dest, &[empty, mirror.clone()]).unwrap();
    assert_eq!(first, [("tiny/t.svm".to_string(), Outcome::Copied)]);
    let again = fetch(&reg, &["tiny".into()], &dest, std::slice::from_ref(&mirror)).unwrap();
    assert_eq!(again[0].1, Outcome::Present);
    assert!(fetch(&reg, &["nope".into()], &dest, &[mirror]).is_err());
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn mirror_copies_may_be_split_gzipped_or_normalised() {
    let (root, mirror, dest) = dirs("parts");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(b"-1 2:1\n").unwrap();
    std::fs::write(mirror.join("tiny/a"), "+1 1:1\n").unwrap();
    std::fs::write(mirror.join("tiny/b.gz"), gz.finish().unwrap()).unwrap();
    let reg = registry(&sha(TEXT.as_bytes()), r#"mirror = ["tiny/a", "tiny/b.gz"]"#);
    assert_eq!(
        fetch(&reg, &[], &dest, std::slice::from_ref(&mirror)).unwrap()[0].1,
        Outcome::Copied
    );
    assert_eq!(std::fs::read_to_string(dest.join("tiny/t.svm")).unwrap(), TEXT);
    // The original has CRLF; the mirror's LF copy is accepted under its own checksum.
    let _ = std::fs::remove_dir_all(&dest);
    let crlf = TEXT.replace('\n', "\r\n");
    let reg = registry(
        &sha(crlf.trim_end().as_bytes()),
        &format!("mirror_sha256 = \"{}\"", sha(TEXT.as_bytes())),
    );
    assert_eq!(fetch(&reg, &[], &dest, &[mirror]).unwrap()[0].1, Outcome::Copied);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn bad_copies_leave_nothing_and_the_error_lists_every_attempt() {
    let (root, mirror, dest) = dirs("bad");
    let reg = registry(&"0".repeat(64), "");
    let msg = fetch(&reg, &[], &dest, &[root.join("absent"), mirror]).unwrap_err().to_string();
    for want in [
        "cannot fetch `tiny/t.svm`",
        "is not there",
        "checksum mismatch for",
        "download of http://127.0.0.1:9/sslab-test/t.svm failed",
        "Offline? Download http://127.0.0.1:9/sslab-test/t.svm by hand to",
        "--mirror DIR",
    ] {
        assert!(msg.contains(want), "{want}: {msg}");
    }
    assert!(!dest.join("tiny/t.svm").exists() && !dest.join("tiny/t.svm.part").exists());
    std::fs::remove_dir_all(&root).unwrap();
}
