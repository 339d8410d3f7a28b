//! The TLS roots of downloads: the certificates of `SSL_CERT_FILE` and of the PEM files of
//! `SSL_CERT_DIR` when either is set (e.g. a bundle holding an intercepting proxy's CA);
//! otherwise the operating system's bundle (the first of [`SYSTEM_BUNDLES`] that exists,
//! where `update-ca-certificates` / `update-ca-trust` put the local CAs); otherwise the
//! compiled-in Mozilla roots.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ureq::tls::{Certificate, PemItem, RootCerts};

use crate::error::{Error, Result};

/// Where Linux distributions keep the system trust store as one PEM bundle (Debian, Ubuntu,
/// Arch, Alpine; Fedora, RHEL; openSUSE), the list `openssl-probe` searches too.
pub const SYSTEM_BUNDLES: [&str; 6] = [
    "/etc/ssl/certs/ca-certificates.crt",
    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
    "/etc/pki/tls/certs/ca-bundle.crt",
    "/etc/ssl/ca-bundle.pem",
    "/etc/pki/tls/cacert.pem",
    "/etc/ssl/cert.pem",
];

/// The roots to trust: from `SSL_CERT_FILE` / `SSL_CERT_DIR` (a set variable that yields no
/// certificate is an error naming it), else from the first system bundle of `system` holding
/// a certificate; None (the compiled-in roots) when neither gives any.
pub fn roots(system: &[&str]) -> Result<Option<RootCerts>> {
    let file = std::env::var_os("SSL_CERT_FILE").map(PathBuf::from);
    let dir = std::env::var_os("SSL_CERT_DIR").map(PathBuf::from);
    if file.is_none() && dir.is_none() {
        for bundle in system.iter().map(Path::new).filter(|p| p.is_file()) {
            // An unreadable or malformed system file is passed over, as curl would.
            match pem_certificates(bundle) {
                Ok(certs) if !certs.is_empty() => {
                    return Ok(Some(RootCerts::Specific(Arc::new(certs))));
                }
                _ => {}
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A self-signed certificate (made with `openssl req -x509`; its key was thrown away).
    const CERT: &str = "-----BEGIN CERTIFICATE-----\nMIIBijCCATGgAwIBAgIUDdXxs6h1XFs7BpJ3jqUXYXVwONswCgYIKoZIzj0EAwIw\nGzEZMBcGA1UEAwwQc3NsYWIgdHJ1c3QgdGVzdDAeFw0yNjExMjQxMDU4MjJaFw0z\nNjExMjExMDU4MjJaMBsxGTAXBgNVBAMMEHNzbGFiIHRydXN0IHRlc3QwWTATBgcq\nhkjOPQIBBggqhkjOPQMBBwNCAASqabI7LHZVKPdBlTW/uRKaKsLH//1TSWhaas7c\nqL9VYVxpQAZV9mKAWgaofzx860Cx9YTxIFrnrWvXw+Zhn60qo1MwUTAdBgNVHQ4E\nFgQUkCIWw6uXazzsDN2q8YTJ1kfoeeAwHwYDVR0jBBgwFoAUkCIWw6uXazzsDN2q\n8YTJ1kfoeeAwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNHADBEAiADL9S4\nyX+KD3hJKKHeGQLkUUZVNl6zza/ZJ7aUyAXBFQIgd7IgqaKYBu/euKgShlA9+T+9\n4nOF7Z6auDNLOtFq+t0=\n-----END CERTIFICATE-----";

    #[test]
    fn the_first_system_bundle_holding_a_certificate_is_used() {
        if std::env::var_os("SSL_CERT_FILE").is_some() || std::env::var_os("SSL_CERT_DIR").is_some()
        {
            println!("SKIPPED (not counted as passed): SSL_CERT_FILE or SSL_CERT_DIR is set");
            return;
        }
        let dir = std::env::temp_dir().join(format!("sslab-trust-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (empty, bundle) = (dir.join("empty.pem"), dir.join("bundle.pem"));
        std::fs::write(&empty, "no certificate here\n").unwrap();
        std::fs::write(&bundle, format!("{CERT}\n{CERT}\n")).unwrap();
        let path = |p: &Path| p.to_str().unwrap().to_string();
        let (missing, empty, bundle) = (path(&dir.join("missing")), path(&empty), path(&bundle));
        let got = roots(&[&missing, &empty, &bundle]).unwrap();
        assert!(matches!(got, Some(RootCerts::Specific(c)) if c.len() == 2));
        assert!(roots(&[&missing, &empty]).unwrap().is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
