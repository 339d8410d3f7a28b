//! HTTP(S) downloads with ureq (pure-Rust TLS) and a progress bar on stderr (hidden when
//! stderr is not a terminal). The proxy comes from the environment ([`super::proxy`]), the
//! trusted roots from `SSL_CERT_FILE` / `SSL_CERT_DIR` or the system bundle
//! ([`super::trust`]). A body that stalls (no byte for [`Limits::stall`]), takes longer than
//! [`Limits::body_time`] or grows past [`Limits::max_bytes`] is an error naming the URL (the
//! caller keeps nothing of it).

use std::io::{Read, Write};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use ureq::tls::TlsConfig;
use ureq::{Agent, Timeout};

use super::{proxy, trust};
use crate::error::{Error, Result};

/// What a download may take.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The longest wait for the next bytes (of the response or of its body).
    pub stall: Duration,
    /// The longest a body may take in all: a body that trickles in without stalling ends
    /// there at the latest.
    pub body_time: Duration,
    /// The largest body (no registered file or archive comes near the default).
    pub max_bytes: u64,
}

/// The limits of `sslab data fetch`: 2 minutes without a byte, 6 hours per body (4 GiB at
/// 200 KiB/s), 4 GiB.
pub const LIMITS: Limits = Limits {
    stall: Duration::from_secs(120),
    body_time: Duration::from_secs(6 * 3600),
    max_bytes: 4 << 30,
};

/// Streams the body of `url` into `out` within `limits`; a failed request, an HTTP error
/// status, a stall or a connection dropped before `Content-Length` bytes is an error naming
/// the URL.
pub fn download(url: &str, out: &mut dyn Write, limits: &Limits) -> Result<()> {
    let failed = |m: String| Error::Data(format!("download of {url} failed: {m}"));
    let stalled = |e: &ureq::Error| match e {
        ureq::Error::Timeout(Timeout::PerRead) => Some(failed(format!(
            "no data for {} s (the server or the network stalled)",
            limits.stall.as_secs_f64()
        ))),
        _ => None,
    };
    let mut config = Agent::config_builder()
        .timeout_connect(Some(Duration::from_secs(30)))
        .timeout_recv_response(Some(Duration::from_secs(60)))
        .timeout_per_read(Some(limits.stall))
        .timeout_recv_body(Some(limits.body_time))
        .proxy(proxy::for_url(url, |n| std::env::var(n).ok())?);
    if let Some(roots) = trust::roots(&trust::SYSTEM_BUNDLES)? {
        config = config.tls_config(TlsConfig::builder().root_certs(roots).build());
    }
    let agent: Agent = config.build().into();
    let mut response = agent.get(url).call().map_err(|e| match e {
        ureq::Error::StatusCode(code) => failed(format!("HTTP status {code}")),
        e => stalled(&e).unwrap_or_else(|| failed(e.to_string())),
    })?;
    let too_large = || {
        failed(format!(
            "the body exceeds {} bytes; no registered file is that large",
            limits.max_bytes
        ))
    };
    let length = response.body().content_length();
    if length.is_some_and(|n| n > limits.max_bytes) {
        return Err(too_large());
    }
    let bar = progress(length, url);
    let mut reader = response.body_mut().as_reader();
    let mut buf = vec![0u8; 1 << 16];
    let mut total = 0u64;
    loop {
        let n = reader.read(&mut buf).map_err(|e| {
            let inner = e.get_ref().and_then(|i| i.downcast_ref::<ureq::Error>());
            inner
                .and_then(stalled)
                .unwrap_or_else(|| failed(format!("{e} (connection dropped or stalled?)")))
        })?;
        if n == 0 {
            break;
        }
        total += n as u64;
        if total > limits.max_bytes {
            return Err(too_large());
        }
        out.write_all(&buf[..n]).map_err(|e| failed(format!("cannot write: {e}")))?;
        bar.inc(n as u64);
    }
    bar.finish_and_clear();
    Ok(())
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
