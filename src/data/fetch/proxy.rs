//! The proxy of a download, chosen as curl does: for an `https` URL `HTTPS_PROXY` (or
//! `https_proxy`), for an `http` URL `HTTP_PROXY` (or `http_proxy`), else `ALL_PROXY` (or
//! `all_proxy`); none when the host matches `NO_PROXY` (or `no_proxy`). ureq's own choice
//! (the first of `ALL_PROXY`, `HTTPS_PROXY`, `HTTP_PROXY` whatever the scheme, with invalid
//! values passed over in silence) is replaced by this one.

use ureq::Proxy;
use ureq::http::Uri;

use crate::error::{Error, Result};

/// The proxy for `url`, reading the environment through `var` (empty values count as
/// unset); an invalid proxy value is an error naming its variable.
pub fn for_url(url: &str, var: impl Fn(&str) -> Option<String>) -> Result<Option<Proxy>> {
    let var = |name: &str| var(name).filter(|v| !v.trim().is_empty());
    let uri: Uri = url.parse().map_err(|e| Error::Data(format!("{url}: not a URL: {e}")))?;
    let host = uri.host().unwrap_or_default().trim_matches(['[', ']']).to_ascii_lowercase();
    let no_proxy = var("NO_PROXY").or_else(|| var("no_proxy")).unwrap_or_default();
    if no_proxy.split([',', ' ']).any(|entry| bypasses(entry, &host)) {
        return Ok(None);
    }
    let names: [&str; 4] = match uri.scheme_str() {
        Some("https") => ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"],
        _ => ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"],
    };
    let Some((name, value)) = names.iter().find_map(|n| var(n).map(|v| (*n, v))) else {
        return Ok(None);
    };
    Proxy::new(value.trim()).map(Some).map_err(|e| {
        Error::Data(format!("{name}={value}: not a proxy URL ({e}); expected http://HOST:PORT"))
    })
}

/// Whether one `NO_PROXY` entry covers `host`: `*` covers every host; `example.org`,
/// `.example.org` and `*.example.org` cover `example.org` and its subdomains; a `:port` is
/// ignored; case does not matter.
fn bypasses(entry: &str, host: &str) -> bool {
    let entry = entry.trim();
    if entry == "*" {
        return true;
    }
    let entry = match entry.rsplit_once(':') {
        Some((h, port)) if !h.contains(':') && port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => entry,
    };
    let entry = entry.trim_start_matches('*').trim_start_matches('.').trim_matches(['[', ']']);
    let entry = entry.to_ascii_lowercase();
    !entry.is_empty()
        && (host == entry
            || host.strip_suffix(entry.as_str()).is_some_and(|rest| rest.ends_with('.')))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uri(url: &str, env: &[(&str, &str)]) -> Option<String> {
        let var = |n: &str| env.iter().find(|(k, _)| *k == n).map(|(_, v)| v.to_string());
        for_url(url, var).unwrap().map(|p| format!("{}:{}", p.host(), p.port()))
    }

    #[test]
    fn the_scheme_picks_the_variable_and_no_proxy_bypasses() {
        let env = [("HTTPS_PROXY", "http://s:1"), ("http_proxy", "h:2"), ("ALL_PROXY", "a:3")];
        assert_eq!(uri("https://x.org/f", &env).as_deref(), Some("s:1"));
        assert_eq!(uri("http://x.org/f", &env).as_deref(), Some("h:2"));
        assert_eq!(uri("https://x.org/f", &env[2..]).as_deref(), Some("a:3"));
        assert_eq!(uri("https://x.org/f", &[("HTTPS_PROXY", "")]), None);
        assert_eq!(uri("https://x.org/f", &[]), None);
        for no in ["x.org", ".X.org", "*.x.org", "a, x.org:443", "*"] {
            let env = [("HTTPS_PROXY", "s:1"), ("NO_PROXY", no)];
            assert_eq!(uri("https://www.x.org/f", &env), None, "{no}");
        }
        for no in ["y.org", "ax.org", "www.x.org.uk", ""] {
            let env = [("https_proxy", "s:1"), ("no_proxy", no)];
            assert_eq!(uri("https://www.x.org/f", &env).as_deref(), Some("s:1"), "{no}");
        }
        let bad = for_url("https://x.org/f", |n| (n == "HTTPS_PROXY").then(|| "ftp://p".into()));
        assert!(bad.unwrap_err().to_string().contains("HTTPS_PROXY=ftp://p"));
    }
}
