//! The config gallery (`configs/gallery/`, shown in docs/gallery.md): every example runs
//! through the binary as the page says, its outputs have the promised shape, and the page
//! shows each file as it is. Also the README's first study, as the README gives it.

use std::path::Path;
use std::process::Command;

use crate::common::TempDir;
use sslab::protocol::read_results;

fn sslab(args: &[&str], dir: &Path) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_sslab")).args(args).current_dir(dir).output().unwrap();
    assert!(out.status.success(), "sslab {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

fn config(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/gallery").join(name).display().to_string()
}

#[test]
fn every_gallery_example_runs_and_gives_what_its_comment_promises() {
    let dir = TempDir::new("gallery");
    let out = dir.0.display().to_string();
    for name in ["sweep_labels", "sweep_parameter", "test_set", "tuning"] {
        sslab(&["run", &config(&format!("{name}.toml")), "--out", &out, "--quiet"], &dir.0);
    }
    let rows = read_results(&dir.0.join("gallery_sweep_labels/results.csv")).unwrap();
    let sizes: Vec<&str> = rows
        .iter()
        .filter(|r| r.split == 0 && r.method == "LS-SVM")
        .map(|r| r.swept[0].1.as_str())
        .collect();
    assert_eq!(sizes, ["2", "5", "10"]);
    assert!(rows.iter().all(|r| r.n_labeled == 2 * r.swept[0].1.parse::<usize>().unwrap()));
    let csv = dir.0.join("gallery_sweep_labels/results.csv").display().to_string();
    sslab(&["plot-curve", &csv, "--x", "labeled_per_class", "--out", "curve.png"], &dir.0);
    assert!(dir.0.join("curve.png").exists());

    let rows = read_results(&dir.0.join("gallery_sweep_parameter/results.csv")).unwrap();
    assert_eq!(rows.len(), 2 * 5 * 3);
    assert_eq!(
        rows[0].swept.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
        ["dim", "mean_norm", "alpha_u"]
    );
    let csv = dir.0.join("gallery_sweep_parameter/results.csv").display().to_string();
    sslab(&["table", &csv, "--name", "by_alpha", "--rows", "alpha_u", "--out", &out], &dir.0);
    let table = std::fs::read_to_string(dir.0.join("by_alpha.md")).unwrap();
    assert!(table.contains("| dim=10, mean_norm=1.5, alpha_u=0.0 |"), "{table}");

    assert!(dir.0.join("gallery-tuning/tuning.csv").exists());

    let rows = read_results(&dir.0.join("gallery_test_set/results.csv")).unwrap();
    assert!(rows.iter().all(|r| r.test_error.is_some() && r.test_prbep.is_some()));

    sslab(&["study", &config("study.toml")], &dir.0);
    let csv = std::fs::read_to_string(dir.0.join("out/gallery_study/proportions.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 3, "{csv}");
}

/// A file of the repository as text.
fn repo_file(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

#[test]
fn the_gallery_page_shows_every_gallery_file_as_it_is() {
    let page = repo_file("docs/gallery.md");
    for entry in
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/gallery")).unwrap()
    {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(page.contains(&text), "docs/gallery.md lacks {} as it is", path.display());
    }
}

#[test]
fn the_readme_first_study_runs_as_shown() {
    let readme = repo_file("README.md");
    let start = readme.find("```toml\n").expect("README has a TOML block") + "```toml\n".len();
    let end = start + readme[start..].find("```").unwrap();
    let dir = TempDir::new("readme-first-study");
    std::fs::write(dir.0.join("first.toml"), &readme[start..end]).unwrap();
    sslab(&["validate", "first.toml"], &dir.0);
    let command = readme.lines().find(|l| l.starts_with("sslab run first.toml")).unwrap();
    let args: Vec<&str> = command.split('#').next().unwrap().split_whitespace().skip(1).collect();
    assert_eq!(args, ["run", "first.toml", "-o", "out"], "the first study writes under out/");
    sslab(&[&args[..], &["--quiet"]].concat(), &dir.0);
    let rows = read_results(&dir.0.join("out/first-study/results.csv")).unwrap();
    assert_eq!(rows.len(), 2 * 20);
    let mean = |m: &str| {
        let e: Vec<f64> = rows.iter().filter(|r| r.method == m).map(|r| r.error).collect();
        e.iter().sum::<f64>() / e.len() as f64
    };
    // The README's summary: QLDS(th) well below LS-SVM on this mixture.
    assert!(mean("QLDS(th)") < mean("LS-SVM") - 0.05, "{rows:?}");
    sslab(
        &["plot-scores", "first.toml", "--method", "QLDS(th)", "--theory", "--out", "s.png"],
        &dir.0,
    );
    assert!(dir.0.join("s.png").exists());
}

#[test]
fn a_study_config_names_the_line_of_a_bad_option() {
    let dir = TempDir::new("gallery-study-error");
    let bad = dir.0.join("bad.toml");
    std::fs::write(&bad, "[study]\ncommand = \"proportions\"\ndim = 10\nshares = [\"x\"]\n")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sslab"))
        .args(["study", &bad.display().to_string()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("bad.toml:4:") && err.contains("shares"),
        "{err}"
    );
    std::fs::write(&bad, "[study]\ncommand = \"run\"\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sslab"))
        .args(["study", &bad.display().to_string()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "bad.toml:2: study.command: expected one of phase-diagram, proportions, theory-check"
        ),
        "{err}"
    );
}
