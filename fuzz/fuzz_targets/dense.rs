//! The plain-text readers on arbitrary bytes: dense matrices (SSL-book tab, ESL with the
//! label first), label files and split files. The first byte picks the reader.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use sslab::data::dense::{parse_labels, parse_matrix, parse_splits};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, text)) = data.split_first() else { return };
    let path = Path::new("fuzz");
    match mode % 4 {
        0 | 1 => {
            if let Ok(m) = parse_matrix(text, path, mode % 4 == 1) {
                assert!(m.x.nrows() >= 1 && m.x.ncols() >= 1);
            }
        }
        2 => {
            let _ = parse_labels(text, path);
        }
        _ => {
            if let Ok(splits) = parse_splits(text, path, usize::from(mode >> 2) + 1) {
                assert!(splits.iter().flatten().all(|&i| i <= usize::from(mode >> 2)));
            }
        }
    }
});
