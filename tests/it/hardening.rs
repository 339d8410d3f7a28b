//! The hostile or unlucky inputs of issue 29, through the `sslab` binary: each gives a clear
//! error (naming file:line where it is the config's) or a correct result, and nothing is
//! written outside the run folder.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BASE: &str = "[experiment]\nname = \"NAME\"\nseed = 1\nsplits = 2\n\n[[datasets]]\nname = \"g\"\nkind = \"synthetic\"\ndim = 3\nmean_norm = 2\nlabeled = 4\nunlabeled = 10\n\n[[methods]]\nkind = \"ls_svm\"\n";

fn sslab(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sslab"));
    c.args(args).current_dir(dir);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh folder for one test, removed by the caller.
fn folder(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sslab-hard-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn names_that_escape_the_run_folder_are_refused_at_their_line() {
    let dir = folder("names");
    let long = "x".repeat(244);
    let cases: [(&str, &str); 6] = [
        ("name = \"NAME\"", "name = \"..\""),
        ("name = \"NAME\"", "name = \".\""),
        ("name = \"NAME\"", "name = \"a\\nb\""),
        ("name = \"g\"", "name = \"\""),
        ("name = \"g\"", "name = \"../g\""),
        ("name = \"g\"", &format!("name = \"{long}\"")),
    ];
    for (from, to) in cases {
        let text = BASE.replace("NAME", "n").replace(&from.replace("NAME", "n"), to);
        std::fs::write(dir.join("c.toml"), &text).unwrap();
        let line = text.lines().position(|l| l == to).unwrap() + 1;
        let o = sslab(&dir, &["run", "c.toml", "--out", "out", "--quiet"], &[]);
        assert_eq!(o.status.code(), Some(1), "{to}");
        assert!(stderr(&o).contains(&format!("c.toml:{line}:")), "{to}: {}", stderr(&o));
        let written: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(written.len(), 1, "{to}: only c.toml, nothing written");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sizes_beyond_the_bounds_are_refused_at_validate() {
    let dir = folder("sizes");
    let base = BASE.replace("NAME", "s");
    let sweep: Vec<String> = (0..10_000).map(|i| format!("{}.5", i + 1)).collect();
    let cases = [
        (
            base.replace(
                "unlabeled = 10\n",
                "unlabeled = 10\ntest = { per_class = 1000000000000 }\n",
            ),
            "memory limit",
        ),
        (
            base.replace("splits = 2", "splits = 100000").replace(
                "mean_norm = 2\n",
                &format!("mean_norm = {{ sweep = [{}] }}\n", sweep.join(",")),
            ),
            "(dataset, split) tasks",
        ),
        (
            base.replace("splits = 2", "splits = 100000").replace(
                "mean_norm = 2\n",
                &format!(
                    "mean_norm = {{ sweep = [{}] }}\n",
                    (0..100).map(|i| format!("{}.5", i + 1)).collect::<Vec<_>>().join(",")
                ),
            ),
            "(dataset, split) tasks",
        ),
    ];
    for (text, says) in cases {
        std::fs::write(dir.join("c.toml"), &text).unwrap();
        let o = sslab(&dir, &["validate", "c.toml"], &[]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(stderr(&o).contains("c.toml:") && stderr(&o).contains(says), "{}", stderr(&o));
    }
    std::fs::write(dir.join("c.toml"), &base).unwrap();
    for shard in ["1/18446744073709551615", "1/1000000000", "1/3"] {
        let o = sslab(&dir, &["run", "c.toml", "--out", "out", "--quiet", "--shard", shard], &[]);
        assert_eq!(o.status.code(), Some(1), "{shard}");
        assert!(stderr(&o).contains("only 2 (dataset, split) tasks"), "{}", stderr(&o));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_memory_limit_is_parsed_or_refused() {
    let dir = folder("memory");
    std::fs::write(dir.join("c.toml"), BASE.replace("NAME", "m")).unwrap();
    for bad in ["0", "-1", "abc", "1e999"] {
        let o = sslab(&dir, &["validate", "c.toml"], &[("SSLAB_MEMORY_LIMIT", bad)]);
        assert_eq!(o.status.code(), Some(1), "{bad}");
        assert!(
            stderr(&o).contains(&format!("SSLAB_MEMORY_LIMIT`: `{bad}` is not a positive size")),
            "{}",
            stderr(&o)
        );
    }
    let o = sslab(&dir, &["validate", "c.toml"], &[("SSLAB_MEMORY_LIMIT", "1T")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o =
        sslab(&dir, &["run", "c.toml", "--out", "out", "--quiet"], &[("SSLAB_MEMORY_LIMIT", "1K")]);
    assert_eq!(o.status.code(), Some(3), "every fit fails: exit code 3");
    assert!(stderr(&o).contains("above the memory limit of 1.0 KiB"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn outputs_replace_planted_symlinks_instead_of_writing_through_them() {
    let dir = folder("links");
    std::fs::write(dir.join("c.toml"), BASE.replace("NAME", "l")).unwrap();
    std::fs::create_dir_all(dir.join("out/l")).unwrap();
    for (i, f) in
        ["rows.log", "summary.md", "results.csv", ".rows.log.99999999.0.tmp"].iter().enumerate()
    {
        let victim = dir.join(format!("victim{i}"));
        std::fs::write(&victim, "precious").unwrap();
        std::os::unix::fs::symlink(&victim, dir.join("out/l").join(f)).unwrap();
    }
    let o = sslab(&dir, &["run", "c.toml", "--out", "out", "--quiet"], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    for i in 0..4 {
        assert_eq!(std::fs::read_to_string(dir.join(format!("victim{i}"))).unwrap(), "precious");
    }
    for f in ["rows.log", "summary.md", "results.csv"] {
        assert!(!dir.join("out/l").join(f).is_symlink(), "{f}");
    }
    // The stale temporary of a process that is gone was removed.
    assert!(!dir.join("out/l/.rows.log.99999999.0.tmp").is_symlink());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_dangling_out_symlink_is_named_as_such() {
    let dir = folder("dangling");
    std::fs::write(dir.join("c.toml"), BASE.replace("NAME", "d")).unwrap();
    std::os::unix::fs::symlink(dir.join("nowhere"), dir.join("out")).unwrap();
    let o = sslab(&dir, &["run", "c.toml", "--out", "out", "--quiet"], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("dangling symlink"), "{}", stderr(&o));
    assert!(!dir.join("nowhere").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_idle_sharded_folder_refuses_shards_of_another_config() {
    let dir = folder("bound");
    std::fs::write(dir.join("a.toml"), BASE.replace("NAME", "b")).unwrap();
    std::fs::write(dir.join("b.toml"), BASE.replace("NAME", "b").replace("seed = 1", "seed = 5"))
        .unwrap();
    let o = sslab(&dir, &["run", "a.toml", "--out", "out", "--quiet", "--shard", "1/2"], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let copy = std::fs::read(dir.join("out/b/config.toml")).unwrap();
    let o = sslab(&dir, &["run", "b.toml", "--out", "out", "--quiet", "--shard", "2/2"], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("another config"), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.join("out/b/config.toml")).unwrap(), copy);
    let o = sslab(&dir, &["run", "a.toml", "--out", "out", "--quiet", "--shard", "2/2"], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = sslab(&dir, &["merge", "out/b"], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn integers_beyond_64_bits_name_their_key_and_range() {
    let dir = folder("seeds");
    let base = BASE.replace("NAME", "i");
    let cases = [
        (
            base.replace("seed = 1", "seed = 9223372036854775808"),
            "c.toml:3: seed: 9223372036854775808 is out of range: a seed is an integer in 0..=9223372036854775807",
        ),
        (
            base.replace("seed = 1", "seed = 18446744073709551616"),
            "c.toml:3: seed: 18446744073709551616 is out of range: a seed",
        ),
        (
            base.replace("seed = 1", "seed = -1"),
            "c.toml:3: experiment.seed: -1 is out of range: a seed is an integer in 0..=",
        ),
        (
            base.replace("dim = 3", "dim = 99999999999999999999"),
            "c.toml:9: dim: 99999999999999999999 is out of range: integers in a config lie in",
        ),
        (
            base + "tune = { lambda = [1, 2], seed = 9223372036854775808, splits = 2 }\n",
            ": methods[0].tune.seed: 9223372036854775808 is out of range: a seed is an integer in 0..=9223372036854775807",
        ),
    ];
    for (text, says) in cases {
        std::fs::write(dir.join("c.toml"), &text).unwrap();
        let o = sslab(&dir, &["validate", "c.toml"], &[]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(stderr(&o).contains(says), "{says}\n{}", stderr(&o));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The probes of validate's size: an entry whose 400,000 `means` are shared by `n` swept
/// values of `labeled`, and `n` swept method entries with a `tune` block.
fn size_probes(n: usize) -> [String; 2] {
    let base = BASE.replace("NAME", "v");
    let half = vec!["0.01"; 200_000].join(",");
    let sweep = |f: &dyn Fn(usize) -> String| (0..n).map(f).collect::<Vec<_>>().join(",");
    let means = base.replace(
        "dim = 3\nmean_norm = 2\nlabeled = 4\n",
        &format!(
            "dim = 200000\nmeans = [[{half}], [{half}]]\nlabeled = {{ sweep = [{}] }}\n",
            sweep(&|i| (i + 4).to_string())
        ),
    );
    let tuned = base.replace(
        "kind = \"ls_svm\"\n",
        &format!(
            "kind = \"lap_rls\"\neta = {{ sweep = [{}] }}\ntune = {{ gamma = [0.1, 1, 10], lambda = [0.1, 0.01], seed = 7, splits = 2 }}\n",
            sweep(&|i| format!("{}.5", i + 1))
        ),
    );
    [means, tuned]
}

/// The CPU time (user + system, seconds) of `sslab validate c.toml` in `dir`, from the
/// child's own resource use (`wait4`): other work on the machine, or other tests of this
/// process, inflate wall time but hardly this.
fn validate_cpu_seconds(dir: &Path) -> f64 {
    let err = std::fs::File::create(dir.join("err.txt")).unwrap();
    #[allow(clippy::zombie_processes)] // reaped by wait4 below, which also reads its usage
    let child = Command::new(env!("CARGO_BIN_EXE_sslab"))
        .args(["validate", "c.toml"])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(err)
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 reaps this child only, which nothing else waits for.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut usage) }, pid);
    let message = std::fs::read_to_string(dir.join("err.txt")).unwrap();
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "{message}");
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

#[test]
fn validate_is_linear_in_the_config_size() {
    let dir = folder("linear");
    // CPU time, the least of two runs, for less noise on a loaded machine.
    let seconds = |text: &str| {
        std::fs::write(dir.join("c.toml"), text).unwrap();
        (0..2).map(|_| validate_cpu_seconds(&dir)).fold(f64::INFINITY, f64::min)
    };
    let (small, large) = (size_probes(2_500), size_probes(10_000));
    assert!(large[0].len() > 1_600_000 && large[1].len() < 80_000);
    for (s, l) in small.iter().zip(&large) {
        let (ts, tl) = (seconds(s), seconds(l));
        // Linear: 4 times the entries take at most 4 times as long (plus a fixed start);
        // quadratic would be 16 times. The factor 10 leaves room for a loaded machine.
        assert!(tl < 10.0 * ts.max(0.05), "n = 2,500: {ts:.2} s, n = 10,000: {tl:.2} s (CPU)");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
