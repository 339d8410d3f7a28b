//! The MATLAB v5 reader on arbitrary bytes: a file's variables or an error, never a panic.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = sslab::data::mat::parse(data, Path::new("fuzz.mat")) {
        let _ = file.features("fts", false);
        let _ = file.vector("labels");
    }
});
