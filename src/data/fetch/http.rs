//! HTTP(S) downloads with ureq (pure-Rust TLS) and a progress bar on stderr (hidden when
//! stderr is not a terminal).

use std::io::{Read, Write};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use ureq::Agent;

use crate::error::{Error, Result};

/// Streams the body of `url` into `out`; a failed request, an HTTP error status or a
/// connection dropped before `Content-Length` bytes is an error naming the URL.
pub fn download(url: &str, out: &mut dyn Write) -> Result<()> {
    let failed = |m: String| Error::Data(format!("download of {url} failed: {m}"));
    let agent: Agent = Agent::config_builder()
        .timeout_connect(Some(Duration::from_secs(30)))
        .timeout_recv_response(Some(Duration::from_secs(60)))
        .build()
        .into();
    let mut response = agent.get(url).call().map_err(|e| match e {
        ureq::Error::StatusCode(code) => failed(format!("HTTP status {code}")),
        e => failed(e.to_string()),
    })?;
    let bar = progress(response.body().content_length(), url);
    let mut reader = response.body_mut().as_reader();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = reader.read(&mut buf).map_err(|e| failed(format!("{e} (connection dropped?)")))?;
        if n == 0 {
            break;
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
