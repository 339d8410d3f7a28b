//! `kind = "csv"` and `kind = "npy"` (a folder with X.npy + y.npy, or one .npz): the same
//! data as an SVMlight file give the same splits and the same rows (errors, PRBEP, test
//! errors) with the same preprocessing and test fraction; a missing or non-numeric CSV
//! value is refused with its line and column.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use rand::{Rng, SeedableRng};
use sslab::config::parse;
use sslab::data::npy;
use sslab::protocol::{ResultRow, RunOptions, run};
use zip::write::SimpleFileOptions;

const N: usize = 120;
const D: usize = 4;

/// Two classes (labels 1 and −1, alternating) of N/2 rows around ±(1, 0.5, 0, 0).
fn data() -> (Vec<[f64; D]>, Vec<i64>) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let labels: Vec<i64> = (0..N).map(|i| if i % 2 == 0 { 1 } else { -1 }).collect();
    let rows = labels
        .iter()
        .map(|&l| {
            let centre = [1.0, 0.5, 0.0, 0.0];
            std::array::from_fn(|j| l as f64 * centre[j] + rng.random_range(-1.0..1.0))
        })
        .collect();
    (rows, labels)
}

/// The same data in every format, in `dir`: data.svm, data.csv (`;`-separated, the label
/// third), arrays/X.npy + arrays/y.npy, data.npz.
fn write_all(dir: &Path) {
    let (rows, labels) = data();
    let (mut svm, mut csv) = (String::new(), String::from("a;b;class;c;d\n"));
    for (r, l) in rows.iter().zip(&labels) {
        let _ = write!(svm, "{l}");
        for (j, v) in r.iter().enumerate() {
            let _ = write!(svm, " {}:{v:?}", j + 1);
        }
        svm.push('\n');
        let _ = writeln!(csv, "{:?};{:?};{l};{:?};{:?}", r[0], r[1], r[2], r[3]);
    }
    std::fs::write(dir.join("data.svm"), svm).unwrap();
    std::fs::write(dir.join("data.csv"), csv).unwrap();
    let flat: Vec<f64> = rows.iter().flatten().copied().collect();
    std::fs::create_dir_all(dir.join("arrays")).unwrap();
    npy::write_f64(&dir.join("arrays/X.npy"), &[N, D], &flat).unwrap();
    npy::write_i64(&dir.join("arrays/y.npy"), &[N], &labels).unwrap();
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for name in ["X", "y"] {
        zip.start_file(format!("{name}.npy"), opts).unwrap();
        zip.write_all(&std::fs::read(dir.join(format!("arrays/{name}.npy"))).unwrap()).unwrap();
    }
    std::fs::write(dir.join("data.npz"), zip.finish().unwrap().into_inner()).unwrap();
}

fn config(source: &str) -> String {
    format!(
        "[experiment]\nname = \"t\"\nseed = 9\nsplits = 3\n\n[[datasets]]\nname = \"d\"\n{source}\npreprocess = [\"standardize\"]\nlabeled_per_class = 4\nunlabeled = 60\ntest = {{ fraction = 0.25 }}\n\n[[methods]]\nkind = \"ls_svm\"\n\n[[methods]]\nkind = \"qlds\"\nselect = \"th\"\n\n[[methods]]\nkind = \"lap_rls\"\neta = 10.0\nlambda = 0.01\ngamma = 1.0\n"
    )
}

fn tempdir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sslab-tables-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The rows of the config reading `source`, and its persisted split file.
fn rows(dir: &Path, tag: &str, source: &str) -> (Vec<ResultRow>, String) {
    let exp = parse(&config(source), Path::new("t.toml")).unwrap();
    let out = dir.join(tag);
    std::fs::create_dir_all(&out).unwrap();
    let rows = run(&exp, &RunOptions::default(), &out).unwrap();
    (rows, std::fs::read_to_string(out.join("splits/d.csv")).unwrap())
}

#[test]
fn csv_and_npy_give_the_rows_of_the_same_data_in_svmlight() {
    let dir = tempdir("same");
    write_all(&dir);
    let at = |f: &str| dir.join(f).display().to_string();
    let (reference, splits) =
        rows(&dir, "svm", &format!("kind = \"svmlight\"\npath = \"{}\"", at("data.svm")));
    assert_eq!(reference.len(), 9);
    let sources = [
        format!(
            "kind = \"csv\"\npath = \"{}\"\nlabel = \"class\"\ndelimiter = \";\"",
            at("data.csv")
        ),
        format!("kind = \"npy\"\npath = \"{}\"", at("arrays")),
        format!("kind = \"npy\"\npath = \"{}\"", at("data.npz")),
    ];
    for (k, source) in sources.iter().enumerate() {
        let (got, got_splits) = rows(&dir, &k.to_string(), source);
        assert_eq!(got_splits, splits, "{source}");
        assert_eq!(got.len(), reference.len());
        for (a, b) in got.iter().zip(&reference) {
            assert_eq!(
                (a.status.as_str(), a.split, &a.method),
                ("ok", b.split, &b.method),
                "{a:?}"
            );
            assert_eq!(
                (a.error, a.test_error, a.n_unlabeled),
                (b.error, b.test_error, b.n_unlabeled),
                "{source}: {a:?}"
            );
            assert!((a.prbep - b.prbep).abs() < 1e-12, "{source}: {a:?} vs {b:?}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_csv_values_and_missing_arrays_are_refused_with_line_and_column() {
    let dir = tempdir("bad");
    let read = |name: &str, text: Option<&str>, source: &str| {
        if let Some(t) = text {
            std::fs::write(dir.join(name), t).unwrap();
        }
        let path = dir.join(name).display().to_string();
        let src =
            config(&source.replace("PATH", &path)).replace("\ntest = { fraction = 0.25 }", "");
        let exp = parse(&src, Path::new("t.toml")).unwrap();
        exp.read_data().unwrap_err().to_string()
    };
    let csv = "kind = \"csv\"\npath = \"PATH\"\nlabel = \"y\"";
    let e = read("a.csv", Some("x1,x2,y\n1,2,1\n3,,0\n"), csv);
    assert!(e.starts_with("t.toml:9: datasets[0].path: "), "{e}");
    assert!(e.ends_with("a.csv:3: column 2 (`x2`): missing value"), "{e}");
    let e = read("b.csv", Some("x1,x2,y\n1,2,1\n3,4,0\n5,abc,1\n"), csv);
    assert!(e.ends_with("b.csv:4: column 2 (`x2`): not a number: `abc`"), "{e}");
    let e = read("c.csv", Some("x1,x2,y\n1,2\n"), csv);
    assert!(e.ends_with("c.csv:2: 2 fields, the header has 3"), "{e}");
    let e = read("d.csv", Some("x1,x2,label\n1,2,1\n"), csv);
    assert!(e.ends_with("d.csv:1: no column `y` in the header (columns: x1, x2, label)"), "{e}");
    std::fs::create_dir_all(dir.join("arrays")).unwrap();
    npy::write_f64(&dir.join("arrays/X.npy"), &[2, 1], &[1.0, 2.0]).unwrap();
    let e = read("arrays", None, "kind = \"npy\"\npath = \"PATH\"");
    assert!(e.contains("arrays/y.npy: No such file"), "{e}");
    npy::write_f64(&dir.join("arrays/y.npy"), &[3], &[1.0, 0.0, 1.0]).unwrap();
    let e = read("arrays", None, "kind = \"npy\"\npath = \"PATH\"");
    assert!(e.ends_with("arrays: X has 2 rows, y 3"), "{e}");
    let missing = parse(
        &config("kind = \"csv\"\npath = \"/no/such.csv\"\nlabel = \"y\""),
        Path::new("t.toml"),
    );
    assert!(
        missing.unwrap_err().to_string().starts_with("t.toml:9: datasets[0].path: /no/such.csv")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
