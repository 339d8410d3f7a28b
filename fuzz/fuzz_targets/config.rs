//! A config through the TOML parser and every check (datasets, method families): it must be
//! accepted or rejected with an error, never panic. Paths in it point nowhere.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(exp) = sslab::config::parse(text, Path::new("fuzz.toml")) {
        assert!(!exp.datasets.is_empty() && !exp.methods.is_empty() && exp.splits >= 1);
    }
});
