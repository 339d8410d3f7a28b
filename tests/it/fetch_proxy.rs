//! Downloads through a proxy: a tiny HTTP CONNECT proxy and a file server on 127.0.0.1.
//! `HTTP_PROXY` routes the download through the proxy; `NO_PROXY` naming the host bypasses
//! it; a proxy that is not there makes the fetch fail naming the URL, keeping nothing. Each fetch runs in a child process with its own environment.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

use crate::common::{self, TempDir};

/// Reads a request's head (up to the empty line); returns its first line.
fn head(stream: &TcpStream) -> String {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let (mut first, mut line) = (String::new(), String::new());
    reader.read_line(&mut first).unwrap();
    while reader.read_line(&mut line).unwrap_or(0) > 2 {
        line.clear();
    }
    first.trim().to_string()
}

/// A file server answering every request with `body`; returns its port.
fn file_server(body: Vec<u8>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for mut s in listener.incoming().flatten() {
            head(&s);
            let _ = write!(s, "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", body.len());
            let _ = s.write_all(&body);
        }
    });
    port
}

/// An HTTP CONNECT proxy recording the first line of every request it gets; returns its port.
fn connect_proxy(seen: Arc<Mutex<Vec<String>>>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for mut client in listener.incoming().flatten() {
            let first = head(&client);
            seen.lock().unwrap().push(first.clone());
            let target = first.strip_prefix("CONNECT ").and_then(|r| r.split(' ').next());
            let Some(Ok(server)) = target.map(TcpStream::connect) else { continue };
            client.write_all(b"HTTP/1.1 200 Connection established\r\n\r\n").unwrap();
            let (mut c2, mut s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
            std::thread::spawn(move || pipe(&mut c2, &mut s2));
            std::thread::spawn(move || pipe(&mut { server }, &mut client));
        }
    });
    port
}

fn pipe(from: &mut TcpStream, to: &mut TcpStream) {
    let mut buf = [0u8; 1 << 14];
    while let Ok(n @ 1..) = from.read(&mut buf) {
        if to.write_all(&buf[..n]).is_err() {
            break;
        }
    }
    let _ = to.shutdown(std::net::Shutdown::Write);
}

/// This test's name in the test binary, for its child processes.
const TEST: &str = "fetch_proxy::http_proxy_is_used_and_no_proxy_bypasses_it";

#[test]
fn http_proxy_is_used_and_no_proxy_bypasses_it() {
    if common::child_fetch() {
        return;
    }
    let body: Vec<u8> =
        (0..3000u32).flat_map(|i| format!("+1 {}:1\n", i % 7 + 1).into_bytes()).collect();
    let server = file_server(body.clone());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let proxy = connect_proxy(seen.clone());
    let sha: String = Sha256::digest(&body).iter().map(|b| format!("{b:02x}")).collect();
    let url = format!("http://127.0.0.1:{server}/m.txt");
    let dir = TempDir::new("proxy");
    let file = dir.0.join("mushrooms/mushrooms.txt");
    let fetch = |http_proxy: u16, no_proxy: Option<&str>| {
        let mut env = vec![("HTTP_PROXY", Some(format!("http://127.0.0.1:{http_proxy}")))];
        env.push(("NO_PROXY", no_proxy.map(String::from)));
        for v in ["ALL_PROXY", "all_proxy", "HTTPS_PROXY", "https_proxy", "http_proxy", "no_proxy"]
        {
            env.push((v, None));
        }
        common::fetch_in_child(TEST, &url, &sha, &dir.0, &env)
    };
    assert_eq!(fetch(proxy, Some("example.org")).unwrap(), "Downloaded");
    assert_eq!(std::fs::read(&file).unwrap(), body);
    assert_eq!(*seen.lock().unwrap(), [format!("CONNECT 127.0.0.1:{server} HTTP/1.1")]);
    std::fs::remove_file(&file).unwrap();
    assert_eq!(fetch(proxy, Some("example.org, 127.0.0.1")).unwrap(), "Downloaded");
    assert_eq!(seen.lock().unwrap().len(), 1, "NO_PROXY did not bypass the proxy");
    std::fs::remove_file(&file).unwrap();
    let closed = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let e = fetch(closed, None).unwrap_err();
    assert!(e.contains(&format!("download of {url} failed")), "{e}");
    assert!(!file.exists());
}
