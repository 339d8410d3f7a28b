//! File datasets in configs: loading, class selection, preprocessing, stratified splits,
//! and errors that name the config line and the data file.

use std::path::{Path, PathBuf};

use crate::config::parse;
use crate::data::{DataSource, Sizes};
use crate::protocol::split_problem;

/// A data file in its own temporary folder, removed when the fixture is dropped.
struct Fixture(PathBuf);

impl Drop for Fixture {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

impl std::ops::Deref for Fixture {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

/// A 3-class SVMlight fixture: labels 1 (6 rows), 2 (4 rows), 3 (10 rows).
fn fixture(tag: &str, text: Option<&str>) -> Fixture {
    let dir = std::env::temp_dir().join(format!("sslab-cfg-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("d.svm");
    let default: String = (0..20)
        .map(|i| {
            let label = if i < 6 {
                1
            } else if i < 10 {
                2
            } else {
                3
            };
            format!("{label} 1:{} 3:{}.5\n", i + 1, i % 4)
        })
        .collect();
    std::fs::write(&path, text.unwrap_or(&default)).unwrap();
    Fixture(path)
}

fn config(path: &Path, extra: &str) -> String {
    format!(
        "[experiment]\nname = \"t\"\nseed = 1\nsplits = 3\n\n[[datasets]]\nname = \"d\"\nkind = \"svmlight\"\npath = \"{}\"\n{extra}\n\n[[methods]]\nkind = \"ls_svm\"\n",
        path.display()
    )
}

/// The error of a config, found by checking it or, for its data, by reading them.
fn err(src: &str) -> String {
    parse(src, Path::new("cfg.toml")).and_then(|e| e.read_data()).unwrap_err().to_string()
}

#[test]
fn svmlight_dataset_with_class_subset_gives_stratified_splits() {
    let path = fixture("ok", None);
    let src = config(
        &path,
        "classes = [3, 1]\npreprocess = [\"l2_rows\"]\nlabeled_per_class = 2\nunlabeled = 8",
    );
    let exp = parse(&src, Path::new("cfg.toml")).unwrap();
    let spec = &exp.datasets[0];
    let data = spec.loaded().unwrap().expect("a file dataset");
    assert_eq!(data.dataset.class_names, ["3", "1"]);
    assert_eq!(data.dataset.class_counts(), [10, 6]);
    let norms: Vec<f64> = (0..16)
        .map(|i| data.dataset.x.to_dense().row(i).dot(&data.dataset.x.to_dense().row(i)))
        .collect();
    assert!(norms.iter().all(|n| (n - 1.0).abs() < 1e-12));
    assert_eq!(spec.unlabeled, Sizes::Total(8));
    let p = split_problem(spec, exp.seed, 0).unwrap();
    assert_eq!(crate::data::class_counts(p.y_l.view()), (2, 2));
    // 8 unlabeled spread by class shares 10/16 and 6/16: 5 and 3.
    assert_eq!(crate::data::class_counts(p.y_u.view()), (5, 3));
    let again = split_problem(spec, exp.seed, 0).unwrap();
    assert_eq!(p.x_u, again.x_u);
    assert_ne!(p.x_u, split_problem(spec, exp.seed, 1).unwrap().x_u);
}

#[test]
fn one_vs_rest_keeps_every_row() {
    let path = fixture("ovr", None);
    let exp =
        parse(&config(&path, "positive = 2\nlabeled = 4\nunlabeled = 10"), Path::new("c")).unwrap();
    let data = exp.datasets[0].loaded().unwrap().expect("a file dataset");
    assert_eq!(data.dataset.class_counts(), [4, 16]);
    assert_eq!(data.dataset.class_names, ["2", "rest"]);
}

#[test]
fn rest_and_per_class_lists_cover_every_class() {
    let path = fixture("rest", None);
    let graph =
        |extra: &str| config(&path, extra).replace("kind = \"ls_svm\"", "kind = \"lap_rls\"");
    // Three classes with a multi-class method: per-class lists have one count per class.
    let exp = parse(&graph("labeled_per_class = [1, 2, 3]\nunlabeled = \"rest\""), Path::new("c"))
        .unwrap();
    let spec = &exp.datasets[0];
    assert_eq!(
        (spec.labeled.clone(), spec.unlabeled.clone(), spec.n_classes().unwrap()),
        (Sizes::PerClass(vec![1, 2, 3]), Sizes::Rest, 3)
    );
    assert!(
        err(&graph("labeled_per_class = [1, 2]\nunlabeled = \"rest\""))
            .contains("expected an integer ≥ 1 or 3 of them")
    );
    assert!(
        err(&graph("labeled = 3\nunlabeled = \"all\""))
            .contains("datasets[0].unlabeled: expected an integer ≥ 1 or \"rest\"")
    );
    // Two entries reading the same rows share one loaded copy.
    let two = graph("labeled = 3\nunlabeled = \"rest\"").replace("[[methods]]", "[[datasets]]\nname = \"e\"\nkind = \"svmlight\"\npath = \"P\"\nlabeled = 6\nunlabeled = 2\n\n[[methods]]").replace("\"P\"", &format!("\"{}\"", path.display()));
    let exp = parse(&two, Path::new("c")).unwrap();
    let (DataSource::Loaded(a), DataSource::Loaded(b)) =
        (&exp.datasets[0].source, &exp.datasets[1].source)
    else {
        panic!("not loaded")
    };
    assert!(std::sync::Arc::ptr_eq(a, b));
    let synthetic = "[experiment]\nname = \"t\"\nseed = 1\n\n[[datasets]]\nname = \"s\"\nkind = \"synthetic\"\ndim = 2\nmean_norm = 1\nlabeled = 4\nunlabeled = \"rest\"\n\n[[methods]]\nkind = \"ls_svm\"\n";
    assert!(err(synthetic).contains("\"rest\" needs a file dataset"), "{}", err(synthetic));
}

#[test]
fn bad_dataset_entries_name_the_config_line() {
    let path = fixture("bad", None);
    let sizes = "labeled = 4\nunlabeled = 10";
    let cases = [
        (format!("classes = [1, 7]\n{sizes}"), "cfg.toml:10: datasets[0].classes: no class `7`"),
        (
            "classes = [1, 2]\nlabeled_per_class = 3\nunlabeled_per_class = 2".into(),
            "of class `2`, which has only 4",
        ),
        (
            format!("positive = 1\npreprocess = [\"tf-idf\"]\n{sizes}"),
            "cfg.toml:11: datasets[0].preprocess: unknown step `tf-idf`",
        ),
        (
            format!("positive = 1\ndim = 3\n{sizes}"),
            "cfg.toml:11: datasets[0].dim: not a key of a `svmlight` dataset",
        ),
        (
            format!("positive = 1\nofficial_splits = 10\n{sizes}"),
            "official_splits: not a key of a `svmlight`",
        ),
        (
            format!("positive = 1\nfeatures = 2\n{sizes}"),
            "d.svm:1: feature index 3 beyond the declared 2 features",
        ),
        (format!("positive = 1\nlabels = [1, 2]\n{sizes}"), "d.svm:11: unknown label `3`"),
    ];
    for (extra, want) in cases {
        let msg = err(&config(&path, &extra));
        assert!(msg.contains(want), "{extra}: {msg}");
    }
    let missing = err(&config(Path::new("/nonexistent/x.svm"), sizes));
    assert!(missing.starts_with("cfg.toml:9: datasets[0].path: /nonexistent/x.svm"), "{missing}");
    let bad_line = fixture("line", Some("1 1:1\n2 1:2\n1 5:oops\n"));
    let msg = err(&config(&bad_line, sizes));
    assert!(
        msg.contains("cfg.toml:9:") && msg.contains("d.svm:3: feature 5: `oops` is not a number"),
        "{msg}"
    );
    let named = "[experiment]\nname = \"t\"\nseed = 1\n\n[[datasets]]\nname = \"d\"\nkind = \"named\"\ndataset = \"kitchn\"\nlabeled = 4\nunlabeled = 4\n\n[[methods]]\nkind = \"ls_svm\"\n";
    assert!(
        err(named)
            .starts_with("cfg.toml:8: datasets[0].dataset: no registered dataset `kitchn` (did you mean `kitchen`?)"),
        "{}",
        err(named)
    );
    let synthetic_with_path = named.replace(
        "kind = \"named\"\ndataset = \"kitchn\"",
        "kind = \"synthetic\"\ndim = 2\nmean_norm = 1\npath = \"x\"",
    );
    assert!(
        err(&synthetic_with_path).contains("datasets[0].path: not a key of a `synthetic` dataset")
    );
}

#[test]
fn checking_a_config_reads_no_data_file() {
    // A file that exists but is not SVMlight: the config checks, the first use reads it.
    let path = fixture("unread", Some("not svmlight\n"));
    let src = config(&path, "labeled = 4\nunlabeled = 10");
    let exp = parse(&src, Path::new("cfg.toml")).unwrap();
    let DataSource::Loaded(file) = &exp.datasets[0].source else { panic!("not a file") };
    let msg = exp.read_data().unwrap_err().to_string();
    assert!(msg.starts_with("cfg.toml:9: datasets[0].path: ") && msg.contains("d.svm:1:"), "{msg}");
    // The error is kept: the file is read once, however often its rows are asked for.
    std::fs::write(&*path, "1 1:1\n").unwrap();
    assert_eq!(split_problem(&exp.datasets[0], exp.seed, 0).unwrap_err().to_string(), msg);
    assert!(file.data().is_err());
    // A missing file is still a config error, as before reading was deferred.
    let missing = parse(
        &config(Path::new("/nonexistent/x.svm"), "labeled = 4\nunlabeled = 10"),
        Path::new("cfg.toml"),
    );
    assert!(
        missing
            .unwrap_err()
            .to_string()
            .starts_with("cfg.toml:9: datasets[0].path: /nonexistent/x.svm")
    );
}
