//! `sslab run -j 16` under `ulimit -v 6000000` (a cluster's usual cap) finishes with the
//! results of an uncapped one-thread run: each worker's address-space reservation (faer's
//! thread-local matrix-product buffers, twice the L3 cache) is counted and no more workers
//! run than the cap holds, with a warning saying so (before, it aborted with rc 134).

use std::path::Path;
use std::process::Command;

use crate::common::TempDir;

/// `sslab run` of the quickstart config (dense products of 1020 × 100 rows) into `out`, under
/// `ulimit -v` when `cap_kib`; the output.
fn run(out: &Path, threads: &str, cap_kib: Option<u64>) -> std::process::Output {
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/quickstart.toml");
    let ulimit = cap_kib.map_or(String::new(), |k| format!("ulimit -v {k} && "));
    let script = format!("{ulimit}exec \"$0\" run \"$1\" -o \"$2\" -q --force -j {threads}");
    Command::new("sh")
        .args(["-c", &script, env!("CARGO_BIN_EXE_sslab")])
        .arg(&config)
        .arg(out)
        .output()
        .unwrap()
}

/// results.csv without the timing column `fit_seconds` (the last).
fn results(out: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(out.join("quickstart/results.csv")).unwrap();
    text.lines().map(|l| l.rsplit_once(',').unwrap().0.to_string()).collect()
}

#[test]
fn sixteen_threads_run_under_a_six_gigabyte_address_space_cap() {
    let dir = TempDir::new("ulimit");
    let capped = run(&dir.0.join("capped"), "16", Some(6_000_000));
    let stderr = String::from_utf8_lossy(&capped.stderr);
    assert!(capped.status.success(), "rc {:?}: {stderr}", capped.status.code());
    if let Some(w) = stderr.lines().find(|l| l.starts_with("warning: 16 threads asked")) {
        assert!(w.contains("the address-space cap (ulimit -v) leaves"), "{w}");
    }
    let free = run(&dir.0.join("free"), "1", None);
    assert!(free.status.success(), "{}", String::from_utf8_lossy(&free.stderr));
    assert_eq!(results(&dir.0.join("capped")), results(&dir.0.join("free")));
}
