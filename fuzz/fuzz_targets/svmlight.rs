//! The SVMlight parser on arbitrary bytes: it must return a value or an error, never panic.
//! The first byte picks the options (declared width, labeled or SVMlin-style unlabeled).
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use sslab::data::svmlight::{SvmlightOptions, parse};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, text)) = data.split_first() else { return };
    let opts = SvmlightOptions {
        n_features: (mode & 1 == 1).then_some(usize::from(mode >> 2) + 1),
        unlabeled: mode & 2 == 2,
        labels: (mode & 4 == 4).then(|| vec![1.0, -1.0]),
    };
    if let Ok(f) = parse(text, Path::new("fuzz"), &opts) {
        assert!(f.x.nrows() >= 1);
        assert!(opts.unlabeled || f.labels.len() == f.x.nrows());
    }
});
