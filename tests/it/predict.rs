//! `save_models = true` writes one model per dataset, split and method that has one (the
//! graph-only kinds' neighbours model and the RKHS kinds' kernel expansion too; on the
//! training file the latter gives the run's unlabeled scores to rounding, which checks its
//! rows against the dataset's shared kernel), and `sslab predict` on a file gives the test
//! scores of a run with that file as its test set (the same text in `scores.csv`); a file of another width is refused naming the file, the
//! line and the expected width.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use crate::common::TempDir;

/// An svmlight file of `n` rows per class in 3 features (some zero, so sparse).
fn svmlight(path: &Path, n: usize, offset: f64) {
    let rows: String = (0..2 * n)
        .map(|i| {
            let (label, sign) = if i % 2 == 0 { ("+1", 1.0) } else { ("-1", -1.0) };
            let third = if i % 3 == 0 { String::new() } else { format!(" 3:{}", 0.2 * i as f64) };
            format!("{label} 1:{} 2:{}{third}\n", sign + offset + 0.01 * i as f64, (i % 7) as f64)
        })
        .collect();
    std::fs::write(path, rows).unwrap();
}

fn sslab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sslab")).args(args).output().unwrap()
}

/// (split, method, row, class) → a score's text.
type ScoreTexts = HashMap<(String, String, String, String), String>;

/// Runs the config `text` (experiment `p`) in `dir`; its run folder and the texts of its
/// `scores.csv`, test rows and unlabeled rows apart.
fn run_config(dir: &Path, text: &str) -> (std::path::PathBuf, ScoreTexts, ScoreTexts) {
    let config = dir.join("p.toml");
    std::fs::write(&config, text).unwrap();
    let out = dir.join("out");
    let run = sslab(&["run", config.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let run_dir = out.join("p");
    let (mut test, mut unlabeled) = (HashMap::new(), HashMap::new());
    for record in csv::Reader::from_path(run_dir.join("scores.csv")).unwrap().records() {
        let f = record.unwrap();
        let key = (f[1].to_string(), f[2].to_string(), f[4].to_string(), f[5].to_string());
        match &f[3] {
            "test" => test.insert(key, f[6].to_string()),
            _ => unlabeled.insert(key, f[6].to_string()),
        };
    }
    (run_dir, test, unlabeled)
}

/// `sslab predict MODEL ROWS`: (row, class, score) of each line after the header (class
/// empty for binary scores).
fn predict(model: &Path, rows: &Path) -> Vec<(String, String, String)> {
    let p = sslab(&["predict", model.to_str().unwrap(), rows.to_str().unwrap()]);
    assert!(p.status.success(), "{}: {}", model.display(), String::from_utf8_lossy(&p.stderr));
    let text = String::from_utf8(p.stdout).unwrap();
    let lines = text.lines().skip(1).map(|line| {
        let f: Vec<&str> = line.split(',').collect();
        match f.as_slice() {
            [row, score] => (row.to_string(), String::new(), score.to_string()),
            [row, class, score] => (row.to_string(), class.to_string(), score.to_string()),
            _ => panic!("{line}"),
        }
    });
    lines.collect()
}

/// Asserts that `predict` on the test file gives the test scores of the run, the same text,
/// on `lines` lines.
fn test_rows_score_as_the_run(
    model: &Path,
    test: &Path,
    (split, method): (&str, &str),
    want: &ScoreTexts,
    lines: usize,
) {
    let got = predict(model, test);
    assert_eq!(got.len(), lines, "{method}");
    for (row, class, score) in got {
        let key = (split.to_string(), method.to_string(), row, class);
        assert_eq!(Some(&score), want.get(&key), "{key:?}");
    }
}

/// Asserts that `predict` on the training file gives the unlabeled scores of the run to
/// `tolerance` (relative to 1 or the largest score), on `rows` rows.
fn training_rows_score_as_the_run(
    model: &Path,
    train: &Path,
    (split, method): (&str, &str),
    unlabeled: &ScoreTexts,
    tolerance: f64,
    rows: usize,
) {
    let pairs: Vec<(f64, f64)> = predict(model, train)
        .into_iter()
        .filter_map(|(row, class, score)| {
            let want = unlabeled.get(&(split.to_string(), method.to_string(), row, class))?;
            Some((score.parse().unwrap(), want.parse().unwrap()))
        })
        .collect();
    assert_eq!(pairs.len(), rows, "{method}, split {split}");
    let scale = pairs.iter().fold(1.0f64, |a, (_, want)| a.max(want.abs()));
    let gap = pairs.iter().fold(0.0f64, |a, (got, want)| a.max((got - want).abs())) / scale;
    assert!(gap <= tolerance, "{method}, split {split}: {gap:e} of the largest score");
}

#[test]
fn predict_on_a_file_gives_the_test_scores_of_a_run_with_that_file_as_test_set() {
    let dir = TempDir::new("predict");
    let (train, test) = (dir.0.join("train.svm"), dir.0.join("test.svm"));
    svmlight(&train, 40, 0.0);
    svmlight(&test, 12, 0.2);
    let (run_dir, want, unlabeled) = run_config(
        &dir.0,
        &format!(
            "[experiment]\nname = \"p\"\nseed = 3\nsplits = 2\nsave_scores = true\nsave_models = true\n\n\
             [[datasets]]\nname = \"d\"\nkind = \"svmlight\"\npath = \"{}\"\nlabeled_per_class = 4\n\
             unlabeled = \"rest\"\ntest = {{ path = \"{}\" }}\n\n\
             [[methods]]\nkind = \"qlds\"\nalpha_l = 1.0\nalpha_u = 0.5\n[[methods]]\nkind = \"tsvm\"\nlambda = 0.01\n\
             [[methods]]\nkind = \"lap_rls\"\n[[methods]]\nkind = \"poisson\"\nk = 5\n\
             [[methods]]\nkind = \"lap_rls\"\nname = \"Lap-RLS low\"\nkernel_rank = 20\n\
             [[methods]]\nkind = \"tv_rls\"\nname = \"TV-RLS fhg\"\ntv_project = \"fhg\"\niterations = 300\n",
            train.display(),
            test.display()
        ),
    );
    let mut compared = 0;
    for split in ["0", "1"] {
        for method in [
            "QLDS(1,0.5)",
            "TSVM(S=10000, dual CD)",
            "Poisson",
            "Lap-RLS",
            "Lap-RLS low",
            "TV-RLS fhg",
        ] {
            let model = run_dir.join(format!("models/d/{split}/{method}.npz"));
            assert!(model.exists(), "{} missing", model.display());
            let file = dir.0.join("scored.csv");
            let p = sslab(&[
                "predict",
                model.to_str().unwrap(),
                test.to_str().unwrap(),
                "--out",
                file.to_str().unwrap(),
            ]);
            assert!(p.status.success(), "{}", String::from_utf8_lossy(&p.stderr));
            let text = std::fs::read_to_string(&file).unwrap();
            assert_eq!(text.lines().count(), 1 + 24);
            for line in text.lines().skip(1) {
                let (row, score) = line.split_once(',').unwrap();
                let key = (split.to_string(), method.to_string(), row.to_string(), String::new());
                assert_eq!(Some(&score.to_string()), want.get(&key), "{key:?}");
                compared += 1;
            }
        }
        // Lap-RLS on the training file: its unlabeled rows as the run scored them (the
        // Nyström one through its landmarks, rows of the dataset's shared factor).
        for method in ["Lap-RLS", "Lap-RLS low"] {
            let model = run_dir.join(format!("models/d/{split}/{method}.npz"));
            training_rows_score_as_the_run(&model, &train, (split, method), &unlabeled, 1e-8, 72);
        }
        // TV through the dataset's kept smoother, its f projected: the RKHS variable against
        // the scores g, close at the splitting's convergence (measured after 300 iterations:
        // 4.2e-4 of the largest score; 2.8e-2 after 30).
        let model = run_dir.join(format!("models/d/{split}/TV-RLS fhg.npz"));
        let key = (split, "TV-RLS fhg");
        training_rows_score_as_the_run(&model, &train, key, &unlabeled, 1e-3, 72);
    }
    assert_eq!(compared, 2 * 6 * 24);
    // Rows of another width: the file, the line and the width the model expects.
    let csv = dir.0.join("wide.csv");
    std::fs::write(&csv, "a,b,c,d,label\n1,2,3,4,1\n").unwrap();
    let model = run_dir.join("models/d/0/QLDS(1,0.5).npz");
    let p = sslab(&["predict", model.to_str().unwrap(), csv.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&p.stderr);
    assert!(!p.status.success() && err.contains("wide.csv:1: rows of 4 features"), "{err}");
    assert!(err.contains("expects 3"), "{err}");
    let svm = dir.0.join("wide.svm");
    std::fs::write(&svm, "+1 1:1\n-1 2:1 5:2\n").unwrap();
    let p = sslab(&["predict", model.to_str().unwrap(), svm.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&p.stderr);
    assert!(!p.status.success() && err.contains("wide.svm:2: feature index 5"), "{err}");
    assert!(err.contains("declared 3 features"), "{err}");
}

#[test]
fn a_saved_model_takes_raw_rows_through_the_datasets_preprocessing() {
    let dir = TempDir::new("predict-pre");
    let (train, test) = (dir.0.join("train.svm"), dir.0.join("test.svm"));
    svmlight(&train, 30, 0.0);
    svmlight(&test, 10, 0.3);
    let (run_dir, want, _) = run_config(
        &dir.0,
        &format!(
            "[experiment]\nname = \"p\"\nseed = 5\nsplits = 1\nsave_scores = true\nsave_models = true\n\n\
             [[datasets]]\nname = \"d\"\nkind = \"svmlight\"\npath = \"{}\"\nlabeled_per_class = 4\n\
             unlabeled = \"rest\"\ntest = {{ path = \"{}\" }}\npreprocess = [\"tfidf\", \"l2_rows\", \"standardize\"]\n\n\
             [[methods]]\nkind = \"qlds\"\nalpha_l = 1.0\nalpha_u = 0.5\n[[methods]]\nkind = \"laplace\"\nk = 4\n",
            train.display(),
            test.display()
        ),
    );
    for method in ["QLDS(1,0.5)", "Laplace"] {
        let model = run_dir.join(format!("models/d/0/{method}.npz"));
        test_rows_score_as_the_run(&model, &test, ("0", method), &want, 20);
    }
}

/// A csv file of three classes (`a`, `b`, `c`) in 3 features, `n` rows each, shifted by
/// `offset`.
fn three_classes(path: &Path, n: usize, offset: f64) {
    let mut text = String::from("x,y,z,label\n");
    for i in 0..3 * n {
        let (class, t) = (i % 3, i as f64);
        let centre = [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0]][class];
        let v: Vec<String> = (0..3)
            .map(|j| format!("{}", centre[j] + offset + 0.6 * (1.7 * t + 2.3 * j as f64).sin()))
            .collect();
        text.push_str(&format!("{},{}\n", v.join(","), ["a", "b", "c"][class]));
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn predict_on_three_classes_gives_the_per_class_test_scores_of_the_run() {
    // RLS and SVM fit one-vs-rest (K kernel expansions), Lap-RLS and TV-SVM natively (one
    // expansion of K columns).
    let dir = TempDir::new("predict-three");
    let (train, test) = (dir.0.join("train.csv"), dir.0.join("test.csv"));
    three_classes(&train, 20, 0.0);
    three_classes(&test, 5, 0.3);
    let (run_dir, want, unlabeled) = run_config(
        &dir.0,
        &format!(
            "[experiment]\nname = \"p\"\nseed = 3\nsplits = 1\nsave_scores = true\nsave_models = true\n\n\
             [[datasets]]\nname = \"d\"\nkind = \"csv\"\npath = \"{}\"\nlabel = \"label\"\n\
             labeled_per_class = 3\nunlabeled = \"rest\"\ntest = {{ path = \"{}\" }}\n\n\
             [[methods]]\nkind = \"rls\"\n[[methods]]\nkind = \"svm\"\n\
             [[methods]]\nkind = \"lap_rls\"\n[[methods]]\nkind = \"tv_svm\"\n",
            train.display(),
            test.display()
        ),
    );
    for method in ["RLS", "SVM", "Lap-RLS", "TV-SVM"] {
        let model = run_dir.join(format!("models/d/0/{method}.npz"));
        test_rows_score_as_the_run(&model, &test, ("0", method), &want, 15 * 3);
        // On the training file: the unlabeled rows as the run scored them, to rounding.
        let rows = 3 * (60 - 9);
        training_rows_score_as_the_run(&model, &train, ("0", method), &unlabeled, 1e-12, rows);
    }
}
