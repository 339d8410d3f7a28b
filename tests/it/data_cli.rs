//! End to end with real data: `sslab data fetch` from the mirror into a temporary data
//! directory, then `sslab run` on named datasets (stratified and official splits).
//! Skips, saying so, when the mirror is absent.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

fn sslab(data_dir: &PathBuf, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sslab"))
        .env("SSLAB_DATA_DIR", data_dir)
        .args(args)
        .output()
        .unwrap()
}

const CONFIG: &str = r#"
[experiment]
name = "real"
seed = 5
splits = 3

[[datasets]]
name = "mushrooms"
kind = "named"
dataset = "mushrooms"
preprocess = ["center"]
labeled = 20
unlabeled = 400

[[datasets]]
name = "digit1"
kind = "named"
dataset = "ssl_digit1"
official_splits = 10

[[methods]]
kind = "ls_svm"
"#;

#[test]
#[ignore = "needs the data mirror (../shared/data or SSLAB_DATA_MIRROR); make test runs it where present"]
fn fetch_then_run_named_datasets() {
    let mirror = common::mirror();
    let dir = std::env::temp_dir().join(format!("sslab-data-cli-{}", std::process::id()));
    let data = dir.join("data");
    let m = mirror.to_str().unwrap();
    let o = sslab(&data, &["data", "fetch", "mushrooms", "ssl_digit1", "--mirror", m]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout).matches("copied").count(), 4);
    let again = sslab(&data, &["data", "fetch", "mushrooms", "--mirror", m]);
    assert!(String::from_utf8_lossy(&again.stdout).contains("present"));
    let list = String::from_utf8_lossy(&sslab(&data, &["data", "list"]).stdout).to_string();
    assert!(list.contains("| mushrooms | svmlight | 112 |") && list.contains("| 1/1 |"), "{list}");

    let cfg = dir.join("real.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    let out = dir.join("out");
    let o =
        sslab(&data, &["run", cfg.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(out.join("real/results.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 6);
    // n_labeled, n_unlabeled, dim: stratified draw from mushrooms, official split of digit1.
    assert!(rows[0].contains(",20,400,112,"), "{}", rows[0]);
    assert!(rows[3].contains(",10,1490,241,"), "{}", rows[3]);

    let missing = sslab(&dir.join("empty"), &["validate", cfg.to_str().unwrap()]);
    let msg = String::from_utf8_lossy(&missing.stderr);
    assert!(
        msg.contains("real.toml:10: datasets[0].dataset")
            && msg.contains("sslab data fetch mushrooms"),
        "{msg}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
