//! The scikit-learn scripts of examples/methods/, run as `command` methods on the splits of
//! an SVMlight file (three classes, sparse features, test rows drawn per split), give the
//! errors of scikit-learn called directly (tests/sklearn_direct.py) on the rows of the
//! persisted split files. Skipped, saying why, without a Python that imports scikit-learn.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use rand::{Rng, SeedableRng};
use sslab::config::parse;
use sslab::protocol::{RunOptions, run};

use crate::common;

/// 3 classes × 60 rows of 4 features: class k around (2k, 0, 2k, 0) ± uniform noise, some
/// features exactly 0 (so the SVMlight lines are sparse).
fn data() -> String {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(27);
    let mut text = String::new();
    for i in 0..180 {
        let k = i % 3;
        let _ = write!(text, "{}", k + 1);
        for j in 0..4 {
            let centre = if j % 2 == 0 { 2.0 * k as f64 } else { 0.0 };
            let v: f64 = centre + rng.random_range(-1.5..1.5);
            if rng.random::<f64>() > 0.2 {
                let _ = write!(text, " {}:{v:?}", j + 1);
            }
        }
        text.push('\n');
    }
    text
}

/// Over 30 s: run by `make test-long`, not `make test`.
mod long {
    use super::*;

    #[test]
    #[ignore = "long (over 30 s): make test-long runs it"]
    fn the_scripts_give_the_errors_of_scikit_learn_called_directly() {
        let Some(py) = common::python(true) else {
            return eprintln!("SKIPPED: no Python with numpy and scikit-learn (set SSLAB_PYTHON)");
        };
        let dir = std::env::temp_dir().join(format!("sslab-sklearn-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let svm = dir.join("three.svm");
        std::fs::write(&svm, data()).unwrap();
        let script = |s: &str| format!("{}/examples/methods/{s}.py", env!("CARGO_MANIFEST_DIR"));
        let entry = |name: &str, s: &str, keys: &str| {
            format!(
                "\n[[methods]]\nkind = \"command\"\nname = \"{name}\"\nargv = [\"{py}\", \"{}\"]\n{keys}\n",
                script(s)
            )
        };
        let mut src = format!(
            "[experiment]\nname = \"sk\"\nseed = 3\nsplits = 2\n\n[[datasets]]\nname = \"three\"\nkind = \"svmlight\"\npath = \"{}\"\nlabeled_per_class = 4\nunlabeled = 100\ntest = {{ fraction = 0.2 }}\n",
            svm.display()
        );
        src +=
            &entry("ls_knn", "label_spreading", "kernel = \"knn\"\nn_neighbors = 5\nalpha = 0.3");
        src += &entry("ls_rbf", "label_spreading", "kernel = \"rbf\"\ngamma = 0.5");
        src += &entry("lp_knn", "label_propagation", "kernel = \"knn\"\nn_neighbors = 5");
        src += &entry("st_lr", "self_training", "C = 1.0\nthreshold = 0.8");
        src += &entry("lr", "logistic_regression", "C = 10.0");
        let exp = parse(&src, Path::new("sk.toml")).unwrap();
        let rows = run(&exp, &RunOptions::default(), &dir).unwrap();
        let direct = Command::new(&py)
            .arg(format!("{}/tests/sklearn_direct.py", env!("CARGO_MANIFEST_DIR")))
            .arg(&svm)
            .arg(dir.join("splits/three.csv"))
            .output()
            .unwrap();
        assert!(direct.status.success(), "{}", String::from_utf8_lossy(&direct.stderr));
        std::fs::remove_dir_all(&dir).unwrap();
        let direct = String::from_utf8(direct.stdout).unwrap();
        assert_eq!(direct.lines().count(), 10, "{direct}");
        for line in direct.lines() {
            let f: Vec<&str> = line.split(' ').collect();
            let (split, method): (usize, &str) = (f[0].parse().unwrap(), f[1]);
            let (error, test): (f64, f64) = (f[2].parse().unwrap(), f[3].parse().unwrap());
            let r = rows.iter().find(|r| r.split == split && r.method == method).unwrap();
            assert_eq!(r.status, "ok", "{r:?}");
            assert!(
                (r.error - error).abs() < 1e-12,
                "{method} split {split}: {} vs {error}",
                r.error
            );
            assert!(
                (r.test_error.unwrap() - test).abs() < 1e-12,
                "{method} split {split} test: {r:?} vs {test}"
            );
        }
    }
}
