//! The scripts of `sslab slurm` run through a fake `sbatch` (it runs the array tasks one
//! after the other, then the merge): hostile values (a name with `$(…)` and a quote, an
//! `--out` with a space) are passed as data, the run completes, and nothing else is created;
//! a partition holding a newline is refused. tests/slurm/run.sh is the real-SLURM test.

use std::path::Path;
use std::process::Command;

/// A stand-in for `sbatch --parsable [--chdir=D] [--output=F] [--dependency=…] SCRIPT`: runs
/// SCRIPT (every array task, with SLURM_ARRAY_TASK_ID set) in D, its output into F.
const SBATCH: &str = r#"#!/bin/bash
set -eu
chdir=$PWD; out=/dev/null
while [ $# -gt 1 ]; do
    case "$1" in --chdir=*) chdir=${1#--chdir=};; --output=*) out=${1#--output=};; esac
    shift
done
script=$PWD/$1
bash -n "$script"
n=$(sed -n 's/^#SBATCH --array=1-\([0-9]*\)$/\1/p' "$script")
if [ -n "$n" ]; then
    for i in $(seq 1 "$n"); do
        (cd "$chdir" && SLURM_ARRAY_TASK_ID=$i SLURM_CPUS_PER_TASK=1 bash "$script" > "${out//%a/$i}" 2>&1)
    done
    echo 101
else
    (cd "$chdir" && bash "$script" > "$out" 2>&1)
    echo 102
fi
"#;

const CONFIG: &str = "[experiment]\nname = \"x'$(touch PWNED)\"\nseed = 3\nsplits = 3\n\n[[datasets]]\nname = \"g\"\nkind = \"synthetic\"\ndim = 5\nmean_norm = 2\nlabeled = 6\nunlabeled = 30\n\n[[methods]]\nkind = \"ls_svm\"\n";

/// Every path under `dir`, relative to it, sorted.
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            out.push(p.strip_prefix(dir).unwrap().display().to_string());
            if p.is_dir() && !p.is_symlink() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn hostile_values_are_quoted_and_the_array_runs() {
    let dir = std::env::temp_dir().join(format!("sslab-slurm-fake-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (bin, work) = (dir.join("bin"), dir.join("w $(touch PWNED) 'q"));
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(bin.join("sbatch"), SBATCH).unwrap();
    Command::new("chmod").arg("+x").arg(bin.join("sbatch")).status().unwrap();
    std::fs::write(work.join("c.toml"), CONFIG).unwrap();
    let sslab = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sslab")).args(args).current_dir(&work).output().unwrap()
    };
    let o = sslab(&[
        "slurm",
        "c.toml",
        "--shards",
        "2",
        "--cpus",
        "1",
        "--partition",
        "debug\ntouch PWNED",
        "--out",
        "o u t",
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("partition"));
    assert!(!work.join("o u t").exists(), "a refused job writes nothing");
    let o = sslab(&["slurm", "c.toml", "--shards", "2", "--time", "tomorrow", "--out", "o u t"]);
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && said.contains("--time \"tomorrow\": not a SLURM time limit; use minutes (90), MM:SS, HH:MM:SS (01:30:00), D-HH, D-HH:MM, D-HH:MM:SS (2-00:00:00) or UNLIMITED"), "{said}");
    assert!(!work.join("o u t").exists(), "a refused job writes nothing");
    let o = sslab(&["slurm", "c.toml", "--shards", "2", "--cpus", "1", "--out", "o u t"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let run = work.join("o u t").join("x'$(touch PWNED)");
    let scripts = run.join("slurm");
    // The paths are shown, and the array runs the run folder's copy of the config.
    let shown = String::from_utf8_lossy(&o.stdout);
    let copy = run.join("config.toml");
    assert!(shown.contains(&format!("config copy     {} (of c.toml;", copy.display())), "{shown}");
    let array = std::fs::read_to_string(scripts.join("array.sbatch")).unwrap();
    assert!(
        array.contains(&format!(
            " run '{}' --shard",
            copy.display().to_string().replace('\'', r"'\''")
        )),
        "{array}"
    );
    for s in ["array.sbatch", "merge.sbatch", "submit.sh"] {
        let ok = Command::new("bash").arg("-n").arg(scripts.join(s)).status().unwrap();
        assert!(ok.success(), "{s} does not parse");
    }
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let submitted = Command::new("bash")
        .arg(scripts.join("submit.sh"))
        .env("PATH", path)
        .current_dir(&dir)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&submitted.stdout);
    assert!(submitted.status.success(), "{said}{}", String::from_utf8_lossy(&submitted.stderr));
    assert!(said.contains("array job 101 (2 shards), merge job 102"), "{said}");
    let results = std::fs::read_to_string(run.join("results.csv")).unwrap();
    assert_eq!(results.lines().count(), 1 + 3, "{results}");
    let mut want: Vec<String> = [
        "bin",
        "bin/sbatch",
        "w $(touch PWNED) 'q",
        "w $(touch PWNED) 'q/c.toml",
        "w $(touch PWNED) 'q/o u t",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let in_run = [
        ".config.lock",
        "config.base",
        ".run.lock",
        ".shard-1-of-2.lock",
        ".shard-2-of-2.lock",
        "config.toml",
        "results.csv",
        "rows.shard-1-of-2.log",
        "rows.shard-2-of-2.log",
        "slurm",
        "slurm/array.sbatch",
        "slurm/merge.out",
        "slurm/merge.sbatch",
        "slurm/shard-1.out",
        "slurm/shard-2.out",
        "slurm/submit.sh",
        "summary.md",
    ];
    let prefix = "w $(touch PWNED) 'q/o u t/x'$(touch PWNED)";
    want.push(prefix.to_string());
    want.extend(in_run.iter().map(|f| format!("{prefix}/{f}")));
    want.sort();
    assert_eq!(tree(&dir), want);
    std::fs::remove_dir_all(&dir).unwrap();
}
