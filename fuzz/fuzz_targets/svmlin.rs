//! SVMlin's format on arbitrary bytes: examples (SVMlight lines without labels), then after
//! the first 0xFF byte, the labels file (+1, −1, 0).
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let cut = data.iter().position(|&b| b == 0xFF).unwrap_or(data.len());
    let (examples, labels) = (&data[..cut], data.get(cut + 1..).unwrap_or(&[]));
    let paths = (Path::new("fuzz_examples"), Path::new("fuzz_labels"));
    if let Ok(set) = sslab::data::svmlin::parse(examples, labels, paths, None) {
        assert_eq!(set.labels.len(), set.x.nrows());
    }
});
