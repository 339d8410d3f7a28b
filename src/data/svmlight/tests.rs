//! SVMlight parsing: round trips against a dense reference and every bad-input error.

use super::*;
use ndarray::array;

fn parse_str(text: &str, opts: &SvmlightOptions) -> Result<Svmlight> {
    parse(text.as_bytes(), Path::new("f.svm"), opts)
}

fn err(text: &str, opts: &SvmlightOptions) -> String {
    parse_str(text, opts).unwrap_err().to_string()
}

#[test]
fn parses_labels_comments_blank_lines_and_trailing_spaces() {
    let text = "# header comment\n+1 1:0.5 3:2 \r\n\n-1 2:-1.5e2 # tail\n1\n";
    let f =
        parse_str(text, &SvmlightOptions { n_features: Some(4), ..Default::default() }).unwrap();
    assert_eq!(f.labels, [1.0, -1.0, 1.0]);
    assert_eq!(f.x.to_dense(), array![[0.5, 0.0, 2.0, 0.0], [0.0, -150.0, 0.0, 0.0], [0.0; 4]]);
    let inferred = parse_str(text, &SvmlightOptions::default()).unwrap();
    assert_eq!(inferred.x.ncols(), 3);
}

#[test]
fn round_trips_a_random_matrix_written_as_text() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    let dense = ndarray::Array2::from_shape_fn((40, 17), |_| {
        if rng.random_bool(0.3) { rng.random_range(-5.0..5.0) } else { 0.0 }
    });
    let mut text = String::new();
    for (i, row) in dense.rows().into_iter().enumerate() {
        text.push_str(if i % 2 == 0 { "+1" } else { "-1" });
        for (j, v) in row.iter().enumerate().filter(|(_, v)| **v != 0.0) {
            text.push_str(&format!(" {}:{v:?}", j + 1));
        }
        text.push('\n');
    }
    let f =
        parse_str(&text, &SvmlightOptions { n_features: Some(17), ..Default::default() }).unwrap();
    assert_eq!(f.x.to_dense(), dense);
    assert_eq!(f.labels.len(), 40);
}

#[test]
fn unlabeled_svmlin_lines_and_explicit_zeros() {
    let opts = SvmlightOptions { unlabeled: true, n_features: Some(3), labels: None };
    let f = parse_str("1:1 3:0\n2:4\n", &opts).unwrap();
    assert!(f.labels.is_empty());
    assert_eq!(f.x.nnz(), 2);
    assert_eq!(f.x.to_dense(), array![[1.0, 0.0, 0.0], [0.0, 4.0, 0.0]]);
}

#[test]
fn bad_input_names_file_and_line() {
    let d = SvmlightOptions::default();
    let w3 = SvmlightOptions { n_features: Some(3), ..Default::default() };
    let known = SvmlightOptions { labels: Some(vec![1.0, -1.0]), ..Default::default() };
    let cases = [
        ("+1 1:1\n-1 0:2\n", &d, "f.svm:2: feature index 0"),
        ("+1 1:1\n-1 4:2\n", &w3, "f.svm:2: feature index 4 beyond the declared 3"),
        ("+1 1:nan\n", &d, "f.svm:1: feature 1: non-finite value `nan`"),
        ("+1 1:inf\n", &d, "non-finite"),
        ("inf 1:1\n", &d, "f.svm:1: label: non-finite"),
        ("+1 1:1\n+1 2:x\n", &d, "f.svm:2: feature 2: `x` is not a number"),
        ("+1 1:1 1:2\n", &d, "indices must increase"),
        ("+1 3:1 2:2\n", &d, "indices must increase"),
        ("+1 1\n", &d, "expected index:value, got `1`"),
        ("+1 a:1\n", &d, "bad feature index `a`"),
        ("+1 -3:1\n", &d, "bad feature index `-3`"),
        ("+1 99999999999:1\n", &d, "bad feature index"),
        ("2 1:1\n", &known, "f.svm:1: unknown label `2`"),
        ("", &d, "f.svm:1: no data rows (empty file)"),
        ("# only a comment\n\n", &d, "f.svm:3: no data rows"),
        ("yes 1:1\n", &d, "label: `yes` is not a number"),
    ];
    for (text, opts, want) in cases {
        let msg = err(text, opts);
        assert!(msg.contains(want), "{text:?}: {msg}");
    }
}

#[test]
fn random_bytes_never_panic() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let alphabet = b"0123456789+-.:eEnaif# \t\n\r\x00\xff";
    for _ in 0..20_000 {
        let len = rng.random_range(0..60);
        let bytes: Vec<u8> =
            (0..len).map(|_| alphabet[rng.random_range(0..alphabet.len())]).collect();
        let opts = SvmlightOptions {
            n_features: rng.random_bool(0.5).then_some(20),
            unlabeled: rng.random_bool(0.3),
            labels: None,
        };
        if let Ok(f) = parse(&bytes[..], Path::new("r"), &opts) {
            assert!(f.x.nrows() >= 1);
        }
    }
}

#[test]
fn devices_are_refused_not_read_forever() {
    let e = read(std::path::Path::new("/dev/zero"), &SvmlightOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a regular file"), "{e}");
}
