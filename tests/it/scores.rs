//! `save_scores = true` through the `sslab` binary: scores.csv holds each fit's unlabeled
//! and test scores on the rows of `splits/`, from which the errors of results.csv are
//! recomputed exactly; a resumed run and merged shards give the same scores.csv, with no
//! line lost or doubled; without the key no score file is written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BINARY: &str = r#"
[experiment]
name = "s"
seed = 5
splits = 3
save_scores = true

[[datasets]]
name = "b"
kind = "svmlight"
path = "b.svm"
labels = [1, -1]
labeled_per_class = 3
unlabeled = "rest"
test = { fraction = 0.2 }

[[methods]]
kind = "ls_svm"

[[methods]]
kind = "tsvm"

[[methods]]
kind = "lap_rls"
k = 4
"#;

const MULTI: &str = r#"
[experiment]
name = "m"
seed = 6
splits = 2
save_scores = true

[[datasets]]
name = "m"
kind = "svmlight"
path = "m.svm"
labels = [1, 2, 3]
labeled_per_class = 2
unlabeled = "rest"

[[methods]]
kind = "lap_rls"
k = 4

[[methods]]
kind = "tv_rls"
k = 4
"#;

/// A fresh folder with the two data files and `config` written in it.
fn setup(tag: &str, config: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("sslab-scores-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // Two overlapping clusters (so that errors are not all 0) and three separated ones.
    let b: String = (0..90)
        .map(|i| {
            let (y, c) = if i % 2 == 0 { (1, 0.6) } else { (-1, -0.6) };
            format!("{y} 1:{} 2:{}\n", c + (i as f64 * 0.37).sin(), (i as f64 * 0.71).cos())
        })
        .collect();
    let m: String = (0..45)
        .map(|i| {
            let x = (i % 3) as f64 * 2.5 + (i as f64 * 0.37).sin();
            format!("{} 1:{x} 2:{}\n", i % 3 + 1, (i as f64 * 0.71).cos())
        })
        .collect();
    std::fs::write(dir.join("b.svm"), b).unwrap();
    std::fs::write(dir.join("m.svm"), m).unwrap();
    let cfg = dir.join("c.toml");
    std::fs::write(&cfg, config).unwrap();
    (dir, cfg)
}

fn run(cfg: &Path, out: &Path, extra: &[&str]) -> Output {
    let o = Command::new(env!("CARGO_BIN_EXE_sslab"))
        .args(["run", cfg.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"])
        .args(["--threads", "1"])
        .args(extra)
        .current_dir(cfg.parent().unwrap())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

/// The records of a CSV file with a header, as maps from column to cell.
fn records(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            header.iter().zip(rec.unwrap().iter()).map(|(h, v)| (h.into(), v.into())).collect()
        })
        .collect()
}

fn indices(cell: &str) -> Vec<usize> {
    cell.split_whitespace().map(|i| i.parse().unwrap()).collect()
}

/// The class id of every row of a data file (its label's position in `labels`).
fn classes(path: &Path, labels: &[&str]) -> Vec<usize> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| labels.iter().position(|x| *x == l.split(' ').next().unwrap()).unwrap())
        .collect()
}

/// The misclassified share of `rows` by their scores, one line each (binary: a score ≥ 0
/// predicts class 0, +1) or one per class (per class: the first maximum).
fn error(lines: &[&BTreeMap<String, String>], rows: &[usize], truth: &[usize]) -> f64 {
    let mut by_row: Vec<(usize, Vec<f64>)> = Vec::new();
    for l in lines {
        let row: usize = l["row"].parse().unwrap();
        if by_row.last().is_none_or(|(r, _)| *r != row) {
            by_row.push((row, Vec::new()));
        }
        let scores = &mut by_row.last_mut().unwrap().1;
        // Binary: no class; per class: classes 0, 1, … in order.
        let class =
            if truth.iter().max() > Some(&1) { scores.len().to_string() } else { "".into() };
        assert_eq!(l["class"], class);
        scores.push(l["score"].parse().unwrap());
    }
    assert_eq!(by_row.iter().map(|(r, _)| *r).collect::<Vec<_>>(), rows, "rows as in splits/");
    let wrong = by_row
        .iter()
        .filter(|(row, s)| {
            let predicted = match s.len() {
                1 => usize::from(s[0] < 0.0),
                _ => (0..s.len()).fold(0, |b, k| if s[k] > s[b] { k } else { b }),
            };
            predicted != truth[*row]
        })
        .count();
    wrong as f64 / rows.len() as f64
}

/// Checks scores.csv of the run in `run` against its splits and results.csv.
fn check(run: &Path, data: &Path, labels: &[&str], with_test: bool) -> usize {
    let truth = classes(data, labels);
    let scores = records(&run.join("scores.csv"));
    let splits =
        records(&run.join(format!("splits/{}.csv", data.file_stem().unwrap().to_str().unwrap())));
    let results = records(&run.join("results.csv"));
    for r in &results {
        assert_eq!(r["status"], "ok");
        let split = &splits[r["split"].parse::<usize>().unwrap()];
        let of = |set: &str| -> Vec<&BTreeMap<String, String>> {
            scores
                .iter()
                .filter(|s| {
                    s["dataset"] == r["dataset"]
                        && s["split"] == r["split"]
                        && s["method"] == r["method"]
                        && s["set"] == set
                })
                .collect()
        };
        let unlabeled = of("unlabeled");
        let per_row = if labels.len() > 2 { labels.len() } else { 1 };
        assert_eq!(unlabeled.len(), indices(&split["unlabeled"]).len() * per_row);
        let e = error(&unlabeled, &indices(&split["unlabeled"]), &truth);
        assert_eq!(e, r["error"].parse::<f64>().unwrap(), "{r:?}");
        let test = of("test");
        if with_test {
            let e = error(&test, &indices(&split["test"]), &truth);
            assert_eq!(e, r["test_error"].parse::<f64>().unwrap(), "{r:?}");
        } else {
            assert!(test.is_empty(), "{r:?}");
        }
    }
    scores.len()
}

#[test]
fn scores_give_the_errors_of_results_on_the_rows_of_splits() {
    let (dir, cfg) = setup("check", BINARY);
    run(&cfg, &dir.join("out"), &[]);
    let n = check(&dir.join("out/s"), &dir.join("b.svm"), &["1", "-1"], true);
    // 3 splits × 3 methods × (66 unlabeled + 18 test rows).
    assert_eq!(n, 3 * 3 * (66 + 18));
    let text = std::fs::read_to_string(dir.join("out/s/scores.csv")).unwrap();
    assert!(text.starts_with("dataset,split,method,set,row,class,score\n"), "{text}");
    std::fs::write(&cfg, MULTI).unwrap();
    run(&cfg, &dir.join("out"), &[]);
    let n = check(&dir.join("out/m"), &dir.join("m.svm"), &["1", "2", "3"], false);
    assert_eq!(n, 2 * 2 * 39 * 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_resumed_run_and_merged_shards_give_the_same_scores() {
    let (dir, cfg) = setup("resume", BINARY);
    let whole = dir.join("whole/s");
    run(&cfg, &dir.join("whole"), &[]);
    let expected = std::fs::read_to_string(whole.join("scores.csv")).unwrap();
    // Killed after 4 of 9 rows (split 0, then split 1's LS-SVM): the score log also holds
    // the scores of the fifth fit, whose row was not written, part of the sixth's and a
    // partial line.
    let out = dir.join("out");
    run(&cfg, &out, &[]);
    let (rows_log, scores_log) = (out.join("s/rows.log"), out.join("s/scores.log"));
    let rows = std::fs::read_to_string(&rows_log).unwrap();
    let four: String = rows.lines().take(4).map(|l| format!("{l}\n")).collect();
    std::fs::write(&rows_log, four).unwrap();
    let scores = std::fs::read_to_string(&scores_log).unwrap();
    let cut =
        scores.lines().take(5 * 66 + 4 * 18 + 7).map(|l| format!("{l}\n")).collect::<String>();
    std::fs::write(&scores_log, format!("{cut}b,1,LS-S")).unwrap();
    std::fs::remove_file(out.join("s/scores.csv")).unwrap();
    run(&cfg, &out, &["--resume"]);
    assert_eq!(std::fs::read_to_string(out.join("s/scores.csv")).unwrap(), expected);
    let lines = |p: &Path| std::fs::read_to_string(p).unwrap().lines().count();
    assert_eq!(lines(&scores_log), lines(&whole.join("scores.log")), "no line doubled");
    // Shards, merged.
    let sharded = dir.join("sharded");
    for i in 1..=2 {
        run(&cfg, &sharded, &["--shard", &format!("{i}/2")]);
        assert!(sharded.join(format!("s/scores.shard-{i}-of-2.log")).exists());
    }
    let o = Command::new(env!("CARGO_BIN_EXE_sslab"))
        .args(["merge", sharded.join("s").to_str().unwrap()])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(sharded.join("s/scores.csv")).unwrap(), expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn without_save_scores_no_score_file_is_written_and_a_stale_one_goes() {
    let (dir, cfg) = setup("off", &BINARY.replace("save_scores = true\n", ""));
    std::fs::create_dir_all(dir.join("out/s")).unwrap();
    std::fs::write(dir.join("out/s/scores.csv"), "stale").unwrap();
    run(&cfg, &dir.join("out"), &[]);
    assert!(dir.join("out/s/results.csv").exists());
    assert!(!dir.join("out/s/scores.csv").exists());
    assert!(!dir.join("out/s/scores.log").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
