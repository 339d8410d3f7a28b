//! A row-log line that is no task of the config (a split beyond its count, e.g. a damaged
//! or hand-edited log) stops `merge` and `--resume` with the line named instead of reaching
//! `results.csv`.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::TempDir;

const CONFIG: &str = "[experiment]\nname = \"s\"\nseed = 2\nsplits = 2\n\n[[datasets]]\nname = \"g\"\nkind = \"synthetic\"\ndim = 3\nmean_norm = 2.0\nlabeled_per_class = 3\nunlabeled = 20\n\n[[methods]]\nkind = \"ls_svm\"\n";

fn sslab(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sslab")).args(args).current_dir(dir).output().unwrap()
}

/// `log`'s first line with its split set to 7.
fn with_split_seven(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap();
    let first = text.lines().next().unwrap();
    let mut fields: Vec<&str> = first.split(',').collect();
    fields[3] = "7";
    format!("{text}{}\n", fields.join(","))
}

#[test]
fn a_row_beyond_the_splits_stops_merge_and_resume() {
    let t = TempDir::new("stray");
    std::fs::write(t.0.join("s.toml"), CONFIG).unwrap();
    for shard in ["1/2", "2/2"] {
        let o = sslab(&t.0, &["run", "s.toml", "-o", "out", "-q", "--shard", shard]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let log = t.0.join("out/s/rows.shard-1-of-2.log");
    std::fs::write(&log, with_split_seven(&log)).unwrap();
    let o = sslab(&t.0, &["merge", "out/s"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && e.contains("dataset g split 7 method LS-SVM is no task"), "{e}");
    let o = sslab(&t.0, &["run", "s.toml", "-o", "whole", "-q"]);
    assert!(o.status.success());
    let log = t.0.join("whole/s/rows.log");
    std::fs::write(&log, with_split_seven(&log)).unwrap();
    std::fs::remove_file(t.0.join("whole/s/results.csv")).unwrap();
    let o = sslab(&t.0, &["run", "s.toml", "-o", "whole", "-q", "--resume"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && e.contains("row 3: dataset g split 7"), "{e}");
}
