//! The memory a run may use: `$SSLAB_MEMORY_LIMIT` (bytes, or with a K/M/G suffix) when set,
//! else three quarters of the machine's memory (`MemTotal` of /proc/meminfo; 8 GiB when it
//! cannot be read). Methods whose estimate exceeds it become `failed` rows instead of
//! aborting the process on an allocation.

/// The limit in bytes.
pub fn limit() -> f64 {
    if let Some(v) = std::env::var_os("SSLAB_MEMORY_LIMIT").and_then(|v| v.into_string().ok())
        && let Some(bytes) = parse(&v)
    {
        return bytes;
    }
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
    0.75 * total.unwrap_or(8.0 * GIB)
}

/// One gibibyte.
pub const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

/// `123`, `512M`, `4G` (powers of 1024).
fn parse(v: &str) -> Option<f64> {
    let v = v.trim();
    let (num, scale) = match v.chars().last()?.to_ascii_uppercase() {
        'K' => (&v[..v.len() - 1], 1024.0),
        'M' => (&v[..v.len() - 1], 1024.0 * 1024.0),
        'G' => (&v[..v.len() - 1], GIB),
        _ => (v, 1.0),
    };
    num.trim().parse::<f64>().ok().filter(|x| x.is_finite() && *x > 0.0).map(|x| x * scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_with_suffixes() {
        assert_eq!(parse("512M"), Some(512.0 * 1024.0 * 1024.0));
        assert_eq!(parse("2g"), Some(2.0 * GIB));
        assert_eq!(parse("1000"), Some(1000.0));
        assert_eq!(parse("-1G"), None);
        assert!(limit() > 0.0);
    }
}
