//! The memory a run may use: `$SSLAB_MEMORY_LIMIT` (bytes, or with a K/M/G/T suffix, powers
//! of 1024) when set, else three quarters of the machine's memory (`MemTotal` of
//! /proc/meminfo, or the cgroup's `memory.max` when lower; 8 GiB when neither can be read);
//! either way no more than the address space left under `ulimit -v` (see
//! [`address_space`](super::address_space)). A value that is not a positive size is an
//! error, not ignored. Methods whose estimate exceeds the limit become `failed` rows instead
//! of aborting the process on an allocation.

use crate::error::{Error, Result};

/// The limit in bytes; an error naming the variable when it is set to something else than
/// a positive size.
pub fn limit() -> Result<f64> {
    let given = match std::env::var_os("SSLAB_MEMORY_LIMIT") {
        Some(v) => {
            let text = v.to_string_lossy();
            parse(&text).ok_or_else(|| {
                Error::param(
                    "SSLAB_MEMORY_LIMIT",
                    format!(
                        "`{text}` is not a positive size in bytes (e.g. 512M, 16G, 1T, 1000000)"
                    ),
                )
            })?
        }
        None => machine(),
    };
    Ok(super::address_space::free().map_or(given, |free| given.min(free)))
}

/// Three quarters of the machine's memory or of the cgroup's limit, whichever is lower.
fn machine() -> f64 {
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|t| t.trim().parse::<f64>().ok());
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        let kb = m
            .lines()
            .find(|l| l.starts_with("MemTotal:"))?
            .split_whitespace()
            .nth(1)?
            .parse::<f64>()
            .ok()?;
        Some(kb * 1024.0)
    });
    let total = match (total, cgroup) {
        (Some(t), Some(c)) => t.min(c),
        (t, c) => t.or(c).unwrap_or(8.0 * GIB),
    };
    0.75 * total
}

/// Hands the pages the allocator holds free back to the system (glibc's `malloc_trim`; a
/// no-op elsewhere): called once before a run's fits, so that their peak does not add what
/// loading the data and drawing the splits freed (on `make bench-peers`' 30,000 documents,
/// 0.7–1.1 MB of `sslab run`'s peak). Not before each fit: the next fit would fault the
/// same pages in again (on the Fashion-MNIST protocol, about 30 MB per fit).
pub fn release_free() {
    #[cfg(target_env = "gnu")]
    // SAFETY: malloc_trim only returns free pages; it has no precondition.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// One gibibyte.
pub const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

/// `bytes` in the largest unit (B, KiB, MiB, GiB, TiB) that keeps it ≥ 1, one decimal.
pub fn human(bytes: f64) -> String {
    let mut value = bytes;
    for unit in ["B", "KiB", "MiB", "GiB"] {
        if value.abs() < 1024.0 {
            return format!("{value:.1} {unit}");
        }
        value /= 1024.0;
    }
    format!("{value:.1} TiB")
}

/// `123`, `512M`, `4G`, `1T` (powers of 1024); None unless finite and > 0 (at least a byte).
fn parse(v: &str) -> Option<f64> {
    let v = v.trim();
    let (num, scale) = match v.chars().last()?.to_ascii_uppercase() {
        'K' => (&v[..v.len() - 1], 1024.0),
        'M' => (&v[..v.len() - 1], 1024.0 * 1024.0),
        'G' => (&v[..v.len() - 1], GIB),
        'T' => (&v[..v.len() - 1], 1024.0 * GIB),
        _ => (v, 1.0),
    };
    num.trim().parse::<f64>().ok().map(|x| x * scale).filter(|x| x.is_finite() && *x >= 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_with_suffixes() {
        assert_eq!(parse("512M"), Some(512.0 * 1024.0 * 1024.0));
        assert_eq!(parse("2g"), Some(2.0 * GIB));
        assert_eq!(parse("1T"), Some(1024.0 * GIB));
        assert_eq!(parse("1000"), Some(1000.0));
        for bad in ["-1G", "0", "-1", "abc", "", "inf", "1e400", "0.1"] {
            assert_eq!(parse(bad), None, "{bad}");
        }
        assert_eq!(human(100.0 * 1024.0), "100.0 KiB");
        assert_eq!(human(17.7 * GIB), "17.7 GiB");
        assert_eq!(human(12.0), "12.0 B");
    }
}
