//! The originals, read in their own formats through the registry (`.mat`, HDF5, row ranges
//! of concatenated SVMlight files), give value for value the matrices, labels and official
//! splits of the mirror's converted copies (SVMlight, dense text, ESL text: written from the
//! originals by an independent Python conversion and read here with the text readers).
//! Skips, saying so, when the mirror is absent.

use crate::common;

use std::path::Path;

use sslab::data::dense;
use sslab::data::load::{load_named, official_splits};
use sslab::data::registry::Registry;
use sslab::data::svmlight::{self, SvmlightOptions};
use sslab::data::{Dataset, Features};

/// Class ids of `labels` in the registry's label order.
fn classes(reg: &Registry, name: &str, labels: &[f64]) -> Vec<usize> {
    let known = &reg.get(name).unwrap().labels;
    labels.iter().map(|v| known.iter().position(|l| l == v).expect("a registered label")).collect()
}

fn same(reg: &Registry, name: &str, got: &Dataset, x: Features, labels: &[f64], what: &str) {
    assert_eq!((got.len(), got.dim()), (x.nrows(), x.ncols()), "{name} ({what}): shape");
    assert!(got.x == x, "{name} ({what}): the feature values differ");
    assert_eq!(got.classes, classes(reg, name, labels), "{name} ({what}): labels");
}

fn svm(mirror: &Path, file: &str, features: usize) -> (Features, Vec<f64>) {
    let opts = SvmlightOptions { n_features: Some(features), ..Default::default() };
    let f = svmlight::read(&mirror.join(file), &opts).unwrap();
    (Features::Sparse(f.x), f.labels)
}

#[test]
#[ignore = "needs the data mirror (../shared/data or SSLAB_DATA_MIRROR); make test runs it where present"]
fn originals_equal_the_converted_copies() {
    let mirror = common::mirror();
    let data = common::fetched(&mirror, &[], "originals");
    let reg = Registry::builtin().unwrap();
    let load = |name: &str, part: Option<&str>| {
        let parts = part.map(|p| vec![p.to_string()]);
        load_named(&reg, name, &data.0, parts.as_deref()).unwrap_or_else(|e| panic!("{name}: {e}"))
    };

    // SVMlight originals: parts of concatenated files against the mirror's split copies.
    for (name, part, copy, width) in [
        ("splice", "train", "splice/splice", 60),
        ("splice", "test", "splice/splice.t", 60),
        ("adult", "train", "adult/a9a", 123),
        ("adult", "test", "adult/a9a.t", 123),
    ] {
        let (x, y) = svm(&mirror, copy, width);
        same(&reg, name, &load(name, Some(part)), x, &y, copy);
    }
    // .mat originals against SVMlight conversions (dense variables kept as CSR).
    for (name, copy, width) in [
        ("books", "amazon/svmlight/books_400.svm", 400),
        ("dvd", "amazon/svmlight/dvd_400.svm", 400),
        ("electronics", "amazon/svmlight/elec_400.svm", 400),
        ("kitchen", "amazon/svmlight/kitchen_400.svm", 400),
        ("pcmac", "pcmac/pcmac.svm", 3289),
        ("ssl_text", "ssl_book/tab/set9_text.svm.gz", 11960),
    ] {
        let (x, y) = svm(&mirror, copy, width);
        same(&reg, name, &load(name, None), x, &y, copy);
    }
    // SSL-book .mat originals against the dense text conversions, and their splits.
    for (set, name, stem) in [
        (1, "ssl_digit1", "set1_digit1"),
        (2, "ssl_usps", "set2_usps"),
        (3, "ssl_coil2", "set3_coil2"),
        (4, "ssl_bci", "set4_bci"),
        (5, "ssl_g241c", "set5_g241c"),
        (6, "ssl_coil", "set6_coil"),
        (7, "ssl_g241n", "set7_g241n"),
        (8, "ssl_secstr", "set8_secstr"),
        (9, "ssl_text", "set9_text"),
    ] {
        let tab = mirror.join("ssl_book/tab");
        let got = load(name, None);
        let y = dense::read_labels(&tab.join(format!("{stem}.y.tab"))).unwrap();
        if set != 9 {
            let matrix = format!("{stem}.{}.tab.gz", if set == 8 { "T" } else { "X" });
            let x = dense::read_matrix(&tab.join(&matrix), false).unwrap().x;
            same(&reg, name, &got, Features::Dense(x), &y, &matrix);
        } else {
            assert_eq!(got.classes, classes(&reg, name, &y), "{name}: y.tab");
        }
        let counts: &[usize] = if set == 8 { &[100, 1000, 10000] } else { &[10, 100] };
        for &k in counts {
            let copy = tab.join(format!("{stem}.splits_labeled{k}.tab"));
            let want = dense::read_splits(&copy, got.len()).unwrap();
            assert_eq!(
                official_splits(&reg, name, &data.0, k, got.len()).unwrap(),
                want,
                "{name}: {k} labelled"
            );
        }
    }
    // usps.h5 (float32 (v + 1)/2) mapped back equals the ESL text copies exactly.
    for (part, copy) in [("train", "usps/zip.train.gz"), ("test", "usps/zip.test.gz")] {
        let esl = dense::read_matrix(&mirror.join(copy), true).unwrap();
        same(&reg, "usps", &load("usps", Some(part)), Features::Dense(esl.x), &esl.labels, copy);
    }
}
