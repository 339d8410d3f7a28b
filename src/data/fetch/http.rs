//! HTTP(S) downloads with ureq (pure-Rust TLS) and a progress bar on stderr (hidden when
//! stderr is not a terminal). The proxy variables (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`,
//! `NO_PROXY`) are honoured; the trusted roots are the certificates of `SSL_CERT_FILE` and
//! `SSL_CERT_DIR` when either is set (e.g. a bundle holding an intercepting proxy's CA),
//! else the compiled-in Mozilla roots. A body that takes longer than [`MAX_BODY_TIME`] (a stall) or
//! grows past [`MAX_BYTES`] is an error (the caller keeps nothing of it).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use ureq::Agent;
use ureq::tls::{Certificate, PemItem, RootCerts, TlsConfig};

use crate::error::{Error, Result};

/// Streams the body of `url` into `out`; a failed request, an HTTP error status or a
/// connection dropped before `Content-Length` bytes is an error naming the URL.
pub fn download(url: &str, out: &mut dyn Write) -> Result<()> {
    let failed = |m: String| Error::Data(format!("download of {url} failed: {m}"));
    let mut config = Agent::config_builder()
        .timeout_connect(Some(Duration::from_secs(30)))
        .timeout_recv_response(Some(Duration::from_secs(60)))
        .timeout_recv_body(Some(MAX_BODY_TIME));
    if let Some(roots) = trust_store()? {
        config = config.tls_config(TlsConfig::builder().root_certs(roots).build());
    }
    let agent: Agent = config.build().into();
    let mut response = agent.get(url).call().map_err(|e| match e {
        ureq::Error::StatusCode(code) => failed(format!("HTTP status {code}")),
        e => failed(e.to_string()),
    })?;
    let bar = progress(response.body().content_length(), url);
    let mut reader = response.body_mut().as_reader();
    let mut buf = vec![0u8; 1 << 16];
    let mut total = 0u64;
    loop {
        let n = reader
            .read(&mut buf)
            .map_err(|e| failed(format!("{e} (connection dropped or stalled?)")))?;
        if n == 0 {
            break;
        }
        total += n as u64;
        if total > MAX_BYTES {
            return Err(failed(format!(
                "the body exceeds {} GiB; no registered file is that large",
                MAX_BYTES >> 30
            )));
        }
        out.write_all(&buf[..n]).map_err(|e| failed(format!("cannot write: {e}")))?;
        bar.inc(n as u64);
    }
    bar.finish_and_clear();
    Ok(())
}

/// The largest body downloaded (no registered file or archive comes near it).
pub const MAX_BYTES: u64 = 4 << 30;

/// The longest a body may take to arrive: at 64 KiB/s, 4 GiB take 18 h; a stalled or
/// endlessly slow body ends there at the latest (the connect and first-response timeouts
/// catch a dead server much earlier).
pub const MAX_BODY_TIME: Duration = Duration::from_secs(6 * 3600);

/// The certificates of `SSL_CERT_FILE` (a PEM bundle) and of the PEM files of `SSL_CERT_DIR`,
/// when either variable is set; None otherwise. A set variable that yields no certificate is
/// an error naming it.
fn trust_store() -> Result<Option<RootCerts>> {
    let file = std::env::var_os("SSL_CERT_FILE").map(PathBuf::from);
    let dir = std::env::var_os("SSL_CERT_DIR").map(PathBuf::from);
    if file.is_none() && dir.is_none() {
        return Ok(None);
    }
    let mut files: Vec<PathBuf> = file.into_iter().collect();
    if let Some(dir) = &dir {
        let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
        let mut found: Vec<PathBuf> =
            entries.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
        found.sort();
        files.extend(found);
    }
    let mut certs: Vec<Certificate<'static>> = Vec::new();
    for f in &files {
        certs.extend(pem_certificates(f)?);
    }
    if certs.is_empty() {
        return Err(Error::Data(format!(
            "SSL_CERT_FILE / SSL_CERT_DIR are set but hold no PEM certificate ({})",
            files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", ")
        )));
    }
    Ok(Some(RootCerts::Specific(Arc::new(certs))))
}

/// The certificates of one PEM file (other items are skipped).
fn pem_certificates(path: &Path) -> Result<Vec<Certificate<'static>>> {
    let pem = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let mut out = Vec::new();
    for item in ureq::tls::parse_pem(&pem) {
        match item {
            Ok(PemItem::Certificate(c)) => out.push(c.to_owned()),
            Ok(_) => {}
            Err(e) => return Err(Error::Data(format!("{}: not a PEM file: {e}", path.display()))),
        }
    }
    Ok(out)
}

fn progress(len: Option<u64>, url: &str) -> ProgressBar {
    let name = url.rsplit('/').next().unwrap_or(url).to_string();
    let bar = match len {
        Some(n) => ProgressBar::new(n).with_style(
            ProgressStyle::with_template(
                "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        ),
        None => ProgressBar::new_spinner(),
    };
    bar.with_message(format!("downloading {name}"))
}
