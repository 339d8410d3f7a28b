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

/// Serves one connection on 127.0.0.1: reads the request's head, then hands the stream to
/// `respond`. Returns the URL of `/f`.
fn serve_once(respond: impl FnOnce(std::net::TcpStream) + Send + 'static) -> String {
    use std::io::{BufRead, BufReader};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/f", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut head = BufReader::new(stream.try_clone().unwrap());
        let mut line = String::new();
        while head.read_line(&mut line).unwrap_or(0) > 2 {
            line.clear();
        }
        respond(stream);
    });
    url
}

/// Downloads `url` into `dest/tiny/t.svm` through the staging of `fetch`, within `limits`.
fn download_within(url: &str, dest: &Path, limits: http::Limits) -> String {
    let target = dest.join("tiny/t.svm");
    let got = staged::place(&target, url, "0", |_| true, |out| http::download(url, out, &limits));
    let leftovers = std::fs::read_dir(dest.join("tiny")).unwrap().count();
    assert_eq!(leftovers, 0, "the failed download left a file");
    got.unwrap_err().to_string()
}

#[test]
fn a_stalled_or_endless_body_is_an_error_naming_the_url() {
    let (root, _, dest) = dirs("stall");
    let limits = http::Limits {
        stall: std::time::Duration::from_millis(300),
        body_time: std::time::Duration::from_secs(60),
        max_bytes: 1 << 20,
    };
    let url = serve_once(|mut s| {
        s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n0123456789").unwrap();
        std::thread::sleep(std::time::Duration::from_secs(5));
    });
    let started = std::time::Instant::now();
    let e = download_within(&url, &dest, limits);
    assert!(e.contains(&url) && e.contains("no data for 0.3 s"), "{e}");
    assert!(started.elapsed().as_secs() < 4, "the stall was not detected early");
    let url = serve_once(|mut s| {
        s.write_all(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n").unwrap();
        while s.write_all(&[b'x'; 1 << 16]).is_ok() {}
    });
    let e = download_within(&url, &dest, limits);
    assert!(e.contains(&url) && e.contains("exceeds 1048576 bytes"), "{e}");
    let url = serve_once(|mut s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 1048577\r\n\r\nxx");
    });
    let e = download_within(&url, &dest, limits);
    assert!(e.contains(&url) && e.contains("exceeds 1048576 bytes"), "{e}");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_gz_url_of_a_plain_file_is_gunzipped_and_checked_after() {
    let (root, _, dest) = dirs("gunzip");
    // Two gzip members, as `.gz` files may be; the registered sha256 is the plain text's.
    let mut body = Vec::new();
    for half in ["+1 1:1\n", "-1 2:1\n"] {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(half.as_bytes()).unwrap();
        body.extend(gz.finish().unwrap());
    }
    let respond = |body: Vec<u8>| {
        move |mut s: std::net::TcpStream| {
            let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", body.len());
            s.write_all(head.as_bytes()).and_then(|()| s.write_all(&body)).unwrap();
        }
    };
    let mut reg = registry(&sha(TEXT.as_bytes()), "");
    let entry = reg.files.get_mut("tiny/t.svm").unwrap();
    entry.url = Some(format!("{}.gz", serve_once(respond(body.clone()))));
    assert_eq!(fetch(&reg, &[], &dest, &[]).unwrap()[0].1, Outcome::Downloaded);
    assert_eq!(std::fs::read_to_string(dest.join("tiny/t.svm")).unwrap(), TEXT);
    // A gzip stream cut short is refused, naming the URL, and nothing is kept.
    let _ = std::fs::remove_dir_all(&dest);
    let url = format!("{}.gz", serve_once(respond(body[..body.len() - 3].to_vec())));
    reg.files.get_mut("tiny/t.svm").unwrap().url = Some(url.clone());
    let e = fetch(&reg, &[], &dest, &[]).unwrap_err().to_string();
    assert!(e.contains(&url) && e.contains("not a complete gzip stream"), "{e}");
    assert!(e.contains("by hand and gunzip it to"), "{e}");
    assert!(!dest.join("tiny/t.svm").exists());
    std::fs::remove_dir_all(&root).unwrap();
}
