//! A download behind a TLS-intercepting proxy: a local HTTPS server on 127.0.0.1 (`openssl
//! s_server`) whose certificate is signed by a CA made here. `fetch` fails clearly with the
//! compiled-in roots and works with `SSL_CERT_FILE` naming the CA (each fetch in a child
//! process with that environment). Prints SKIPPED (and passes vacuously) where the `openssl`
//! command is missing.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::common;

fn openssl(dir: &Path, args: &[&str]) {
    let o = Command::new("openssl").args(args).current_dir(dir).output().unwrap();
    assert!(o.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&o.stderr));
}

/// This test's name in the test binary, for its child processes.
const TEST: &str = "fetch_tls::ssl_cert_file_makes_a_download_through_an_own_ca_work";

#[test]
fn ssl_cert_file_makes_a_download_through_an_own_ca_work() {
    if common::child_fetch() {
        return;
    }
    if Command::new("openssl").arg("version").output().is_err() {
        println!("SKIPPED (not counted as passed): no openssl command");
        return;
    }
    let dir = std::env::temp_dir().join(format!("sslab-tls-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("www")).unwrap();
    let subj = |cn: &str| format!("/CN={cn}");
    openssl(
        &dir,
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "2",
            "-subj",
            &subj("sslab test CA"),
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign",
        ],
    );
    openssl(
        &dir,
        &[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "server.key",
            "-out",
            "server.csr",
            "-subj",
            &subj("127.0.0.1"),
        ],
    );
    std::fs::write(
        dir.join("ext.cnf"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    openssl(
        &dir,
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "server.pem",
            "-days",
            "2",
            "-extfile",
            "ext.cnf",
        ],
    );
    let body: Vec<u8> =
        (0..5000u32).flat_map(|i| format!("+1 {}:1\n", i % 112 + 1).into_bytes()).collect();
    std::fs::write(dir.join("www/m.txt"), &body).unwrap();
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let cert = dir.join("server.pem");
    let key = dir.join("server.key");
    let mut server = Command::new("openssl")
        .args(["s_server", "-quiet", "-WWW", "-accept", &format!("127.0.0.1:{port}")])
        .arg("-cert")
        .arg(&cert)
        .arg("-key")
        .arg(&key)
        .current_dir(dir.join("www"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let sha: String = Sha256::digest(&body).iter().map(|b| format!("{b:02x}")).collect();
    let url = format!("https://127.0.0.1:{port}/m.txt");
    let data = dir.join("data");
    let fetch = |cert: Option<String>| {
        let env = [("SSL_CERT_FILE", cert), ("SSL_CERT_DIR", None)];
        common::fetch_in_child(TEST, &url, &sha, &data, &env)
    };
    let without = fetch(None).unwrap_err();
    let nothing_kept = !data.join("mushrooms/mushrooms.txt").exists();
    let with = fetch(Some(dir.join("ca.pem").display().to_string()));
    let _ = server.kill();
    let _ = server.wait();
    assert!(without.contains("invalid peer certificate: UnknownIssuer"), "{without}");
    assert!(nothing_kept);
    assert_eq!(with.unwrap(), "Downloaded");
    assert_eq!(std::fs::read(data.join("mushrooms/mushrooms.txt")).unwrap(), body);
    std::fs::remove_dir_all(&dir).unwrap();
}
