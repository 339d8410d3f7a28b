//! Sharded runs through the `sslab` binary: merged shards equal the unsharded run (tuned
//! methods too: each shard tunes the datasets of its tasks), an
//! incomplete set is refused with the missing tasks named, a killed shard resumes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const CONFIG: &str = r#"
[experiment]
name = "shards"
seed = 4
splits = 5

[[datasets]]
name = "small"
kind = "synthetic"
dim = 8
mean_norm = 1.5
labeled_per_class = 3
unlabeled_per_class = 30

[[datasets]]
name = "large"
kind = "synthetic"
dim = 40
mean_norm = 2.0
labeled = 12
unlabeled = 300

[[methods]]
kind = "ls_svm"

[[methods]]
kind = "qlds"
select = "th"
grid = 4

[[methods]]
kind = "qlds"
name = "QLDS(tuned)"
tune = { alpha_l = [0.1, 1.0], alpha_u = [0.0, 1.0], seed = 9, splits = 2 }
"#;

fn sslab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sslab")).args(args).output().unwrap()
}

/// A fresh folder with the config written in it; removed by the caller.
fn setup(tag: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("sslab-shards-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("c.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    (dir, cfg)
}

/// results.csv without the timing column (the last one).
fn without_timing(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| l.rsplit_once(',').unwrap().0.to_string())
        .collect()
}

fn run(cfg: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "run",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--threads",
        "1",
    ];
    args.extend(extra);
    let o = sslab(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

#[test]
fn merged_shards_equal_the_unsharded_run_and_gaps_are_named() {
    let (dir, cfg) = setup("merge");
    let (whole, sharded) = (dir.join("whole"), dir.join("sharded"));
    run(&cfg, &whole, &[]);
    let run_dir = sharded.join("shards");
    for i in 1..=3 {
        run(&cfg, &sharded, &["--shard", &format!("{i}/3")]);
        assert!(run_dir.join(format!("rows.shard-{i}-of-3.log")).exists());
    }
    // Two of three shards: refused, every missing task listed.
    let third = run_dir.join("rows.shard-3-of-3.log");
    let kept = std::fs::read_to_string(&third).unwrap();
    std::fs::rename(&third, dir.join("aside.log")).unwrap();
    let o = sslab(&["merge", run_dir.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("missing: dataset"), "{err}");
    assert_eq!(err.matches("missing:").count(), kept.lines().count(), "{err}");
    // A task twice: refused.
    std::fs::write(&third, format!("{kept}{}\n", kept.lines().next().unwrap())).unwrap();
    let o = sslab(&["merge", run_dir.to_str().unwrap()]);
    assert!(
        !o.status.success() && String::from_utf8_lossy(&o.stderr).contains("duplicate: dataset")
    );
    // All shards: the unsharded outputs.
    std::fs::write(&third, &kept).unwrap();
    let o = sslab(&["merge", run_dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        without_timing(&run_dir.join("results.csv")),
        without_timing(&whole.join("shards/results.csv"))
    );
    let summary = |d: &Path| std::fs::read_to_string(d.join("summary.md")).unwrap();
    assert_eq!(summary(&run_dir), summary(&whole.join("shards")));
    // Logs of another config are refused.
    std::fs::write(run_dir.join("config.toml"), CONFIG.replace("seed = 4", "seed = 5")).unwrap();
    let o = sslab(&["merge", run_dir.to_str().unwrap()]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("another config"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_killed_shard_resumes_where_it_stopped() {
    let (dir, cfg) = setup("resume");
    let out = dir.join("out");
    run(&cfg, &out, &["--shard", "1/2"]);
    let log = out.join("shards/rows.shard-1-of-2.log");
    let full = std::fs::read_to_string(&log).unwrap();
    // Killed after its first row, in the middle of the second line.
    let first = full.lines().next().unwrap();
    std::fs::write(&log, format!("{first}\n{}", &full.lines().nth(1).unwrap()[..20])).unwrap();
    run(&cfg, &out, &["--shard", "1/2", "--resume"]);
    let resumed = std::fs::read_to_string(&log).unwrap();
    let strip =
        |t: &str| t.lines().map(|l| l.rsplit_once(',').unwrap().0.to_string()).collect::<Vec<_>>();
    let (mut a, mut b) = (strip(&full), strip(&resumed));
    a.sort();
    b.sort();
    assert_eq!(a, b);
    assert!(resumed.starts_with(first), "the finished row is kept, not recomputed");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_started_together_all_run() {
    let (dir, cfg) = setup("together");
    let out = dir.join("out");
    for _ in 0..3 {
        let children: Vec<_> = (1..=4)
            .map(|i| {
                Command::new(env!("CARGO_BIN_EXE_sslab"))
                    .args([
                        "run",
                        cfg.to_str().unwrap(),
                        "--out",
                        out.to_str().unwrap(),
                        "--quiet",
                        "--threads",
                        "1",
                        "--shard",
                        &format!("{i}/4"),
                        "--force",
                    ])
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for c in children {
            let o = c.wait_with_output().unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        }
    }
    let o = sslab(&["merge", out.join("shards").to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}
