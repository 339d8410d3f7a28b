//! A dataset kind that lives only in this test, proving the "Adding a dataset kind" steps of
//! CONTRIBUTING.md: a generator, a reader of its `[[datasets]]` table, and one
//! registry entry; the config, the runner and the split drawing need no change.

use std::path::Path;

use ndarray::{Array1, Array2};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sslab::Result;
use sslab::config::parse_with;
use sslab::data::kinds::{DatasetKind, KINDS, Source};
use sslab::data::{Dataset, Generator};
use sslab::engine::Entry;
use sslab::methods::FAMILIES;
use sslab::protocol::{RunOptions, draw, run};

/// Two unit boxes: class +1 uniform in [shift, shift + 1] × [0, 1]^(dim−1), class −1 in
/// [−shift − 1, −shift] × [0, 1]^(dim−1).
#[derive(Debug)]
struct Boxes {
    dim: usize,
    shift: f64,
}

impl Generator for Boxes {
    fn draw(&self, counts: [usize; 2], rng: &mut ChaCha8Rng) -> Dataset {
        let n = counts[0] + counts[1];
        let mut x = Array2::from_shape_fn((n, self.dim), |_| rng.random::<f64>());
        let y = Array1::from_shape_fn(n, |i| if i < counts[0] { 1.0 } else { -1.0 });
        for (mut row, label) in x.rows_mut().into_iter().zip(&y) {
            row[0] = label * (self.shift + row[0]);
        }
        Dataset::new(x.into(), y).unwrap()
    }

    fn dim(&self) -> usize {
        self.dim
    }

    fn row_bytes(&self) -> f64 {
        8.0 * self.dim as f64
    }
}

/// `kind = "boxes"`: `dim` (≥ 1) and `shift` (> 0) required, `test = { per_class }`.
struct BoxesKind;

impl DatasetKind for BoxesKind {
    fn kind(&self) -> &'static str {
        "boxes"
    }

    fn read(&self, entry: &Entry, _splits: usize) -> Result<Source> {
        entry.only(&["dim", "shift", "test"])?;
        let dim = entry.count("dim")?.ok_or_else(|| entry.error("dim", "required"))?;
        let shift = entry.f64("shift")?.ok_or_else(|| entry.error("shift", "required"))?;
        if !(shift.is_finite() && shift > 0.0) {
            return Err(entry.error("shift", format!("must be finite and > 0, got {shift}")));
        }
        Source::generated(entry, Boxes { dim, shift })
    }
}

fn kinds() -> Vec<&'static dyn DatasetKind> {
    KINDS.iter().copied().chain([&BoxesKind as &dyn DatasetKind]).collect()
}

const CONFIG: &str = r#"
[experiment]
name = "boxes"
seed = 3
splits = 2

[[datasets]]
name = "b"
kind = "boxes"
dim = 3
shift = 0.5
labeled_per_class = 4
unlabeled = 30
test = { per_class = 5 }

[[methods]]
kind = "ls_svm"
"#;

#[test]
fn a_dataset_kind_defined_outside_the_crate_runs_through_the_runner() {
    let exp = parse_with(CONFIG, Path::new("boxes.toml"), FAMILIES, &kinds()).unwrap();
    let dir = std::env::temp_dir().join(format!("sslab-kind-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rows = run(&exp, &RunOptions::default(), &dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert_eq!((r.status.as_str(), r.n_labeled, r.n_unlabeled, r.dim), ("ok", 8, 30, 3));
        // The drawn split: every row in its class's box, test rows after the others.
        let drawn = draw(&exp.datasets[0], exp.seed, r.split).unwrap();
        let p = &drawn.problem;
        let test = drawn.test.expect("test = { per_class = 5 }");
        let x = [p.x_l.to_dense(), p.x_u.to_dense(), test.x.to_dense()];
        let y = [&p.y_l, &p.y_u, &test.y];
        for (x, y) in x.iter().zip(y) {
            for (row, label) in x.rows().into_iter().zip(y.iter()) {
                let first = label * row[0];
                assert!((0.5..=1.5).contains(&first), "{row} of class {label}");
                assert!(row.iter().skip(1).all(|v| (0.0..1.0).contains(v)));
            }
        }
        assert_eq!(sslab::data::class_counts(test.y.view()), (5, 5));
        // Separated boxes: a linear classifier makes no mistake.
        assert_eq!((r.error, r.test_error), (0.0, Some(0.0)), "{r:?}");
    }
    let again = draw(&exp.datasets[0], exp.seed, 1).unwrap().problem;
    assert_eq!(again.x_u, draw(&exp.datasets[0], exp.seed, 1).unwrap().problem.x_u);
}

#[test]
fn its_keys_are_checked_with_file_and_line() {
    let err = |src: &str| {
        parse_with(src, Path::new("boxes.toml"), FAMILIES, &kinds()).unwrap_err().to_string()
    };
    let e = err(&CONFIG.replace("shift = 0.5", "shift = -1"));
    assert!(e.starts_with("boxes.toml:11: datasets[0].shift: must be finite and > 0"), "{e}");
    let e = err(&CONFIG.replace("shift = 0.5", "shift = 0.5\nmean_norm = 1"));
    assert!(e.starts_with("boxes.toml:12: datasets[0].mean_norm: not a key of a `boxes`"), "{e}");
    let e = err(&CONFIG.replace("{ per_class = 5 }", "{ fraction = 0.5 }"));
    assert!(e.contains("datasets[0].test: a `boxes` dataset takes `per_class`"), "{e}");
    let e = sslab::config::parse(CONFIG, Path::new("boxes.toml")).unwrap_err().to_string();
    assert!(
        e.starts_with("boxes.toml:9: datasets[0].kind: unknown kind `boxes` (known: synthetic, sparse_text, named, svmlight, csv, npy)"),
        "{e}"
    );
}
