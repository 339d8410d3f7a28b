//! Relative paths in a config are relative to the config file's folder, whatever the working
//! folder: a run sharded from one folder merges from another (the run folder's config copy
//! reads the recorded folders, `config.base`), a missing relative file says what it was
//! relative to, and the size errors name the key's line, the entry and the maximum.

use std::path::Path;
use std::process::{Command, Output};

fn sslab(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sslab")).args(args).current_dir(cwd).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into()
}

/// 60 SVMlight rows of two classes (labels ±1, 30 each) in 3 features, no randomness.
fn svmlight() -> String {
    (0..60)
        .map(|i| {
            let (y, s) = if i % 2 == 0 { (1, 1.0) } else { (-1, -1.0) };
            let f = |k: usize| s + ((i * 7 + k * 3) % 11) as f64 / 10.0 - 0.5;
            format!("{y} 1:{} 2:{} 3:{}\n", f(1), f(2), f(3))
        })
        .collect()
}

/// The same rows as CSV (`x1,x2,x3,y`).
fn csv() -> String {
    let text = svmlight();
    let rows = text.lines().map(|l| {
        let mut f = l.split(' ');
        let y = f.next().unwrap().to_string();
        let x: Vec<&str> = f.map(|v| v.split_once(':').unwrap().1).collect();
        format!("{},{y}\n", x.join(","))
    });
    std::iter::once("x1,x2,x3,y\n".to_string()).chain(rows).collect()
}

const CONFIG: &str = "[experiment]\nname = \"paths\"\nseed = 4\nsplits = 4\n\n[[datasets]]\nname = \"mine\"\nkind = \"svmlight\"\npath = \"data/d.svm\"\nlabeled_per_class = 3\nunlabeled = \"rest\"\n\n[[methods]]\nkind = \"ls_svm\"\n";

#[test]
fn paths_are_relative_to_the_config_and_a_sharded_run_merges_from_anywhere() {
    sharded_from_one_folder_merged_from_another("svm", &svmlight(), CONFIG);
    // A csv entry reads the same way (it read from the working folder before issue 45).
    let csv_config = CONFIG.replace(
        "kind = \"svmlight\"\npath = \"data/d.svm\"",
        "kind = \"csv\"\npath = \"data/d.csv\"\nlabel = \"y\"",
    );
    sharded_from_one_folder_merged_from_another("csv", &csv(), &csv_config);
}

/// Writes `configs/data/d.EXT` and `configs/c.toml` (`config`) under a fresh folder, runs two
/// shards from that folder, merges and reads the status from another, reruns the copy there.
fn sharded_from_one_folder_merged_from_another(ext: &str, data: &str, config: &str) {
    let root = std::env::temp_dir().join(format!("sslab-paths-{ext}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (configs, elsewhere) = (root.join("configs"), root.join("elsewhere"));
    std::fs::create_dir_all(configs.join("data")).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(configs.join(format!("data/d.{ext}")), data).unwrap();
    // A decoy of the same name in the working folder, which must not be read.
    std::fs::create_dir_all(root.join("data")).unwrap();
    std::fs::write(root.join(format!("data/d.{ext}")), "not the data\n").unwrap();
    std::fs::write(configs.join("c.toml"), config).unwrap();
    // Sharded from the root (the config one folder down), merged from another folder.
    for shard in ["1/2", "2/2"] {
        let o = sslab(&["run", "configs/c.toml", "--shard", shard, "-o", "out", "-q"], &root);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let run = root.join("out/paths");
    let base = std::fs::read_to_string(run.join("config.base")).unwrap();
    assert!(base.contains(&format!("config_dir = \"{}\"", configs.display())), "{base}");
    let o = sslab(&["merge", run.to_str().unwrap()], &elsewhere);
    assert!(o.status.success(), "{}", stderr(&o));
    let results = std::fs::read_to_string(run.join("results.csv")).unwrap();
    assert_eq!(results.lines().count(), 1 + 4, "{results}");
    let o = sslab(&["status", run.to_str().unwrap()], &elsewhere);
    assert!(o.status.success(), "{}", stderr(&o));
    // The run folder's copy runs from anywhere too, and reads the same file.
    let copy = run.join("config.toml");
    let o = sslab(&["run", copy.to_str().unwrap(), "-o", "again", "-q"], &elsewhere);
    assert!(o.status.success(), "{}", stderr(&o));
    let again = std::fs::read_to_string(elsewhere.join("again/paths/results.csv")).unwrap();
    let strip = |s: &str| -> Vec<String> {
        s.lines().map(|l| l.rsplit_once(',').map_or(l, |(a, _)| a).to_string()).collect()
    };
    assert_eq!(strip(&again), strip(&results));
    // A missing relative file: the message says what it was relative to.
    let nope = format!("data/nope.{ext}");
    std::fs::write(configs.join("c.toml"), config.replace(&format!("data/d.{ext}"), &nope))
        .unwrap();
    let o = sslab(&["validate", "configs/c.toml"], &root);
    let e = stderr(&o);
    assert!(
        e.contains(&format!(
            "configs/c.toml:9: datasets[0].path: {}",
            configs.join(&nope).display()
        )) && e.contains(&format!("(`{nope}` is relative to the config's folder)")),
        "{e}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_split_too_large_names_the_key_the_entry_and_the_maximum() {
    let dir = std::env::temp_dir().join(format!("sslab-sizes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("d.svm"), svmlight()).unwrap();
    let config = CONFIG
        .replace("name = \"mine\"", "name = \"mine-m{labeled_per_class}\"")
        .replace("data/d.svm", "d.svm")
        .replace("labeled_per_class = 3", "labeled_per_class = { sweep = [3, 28] }")
        .replace("unlabeled = \"rest\"", "unlabeled_per_class = 5\ntest = { fraction = 0.1 }");
    std::fs::write(dir.join("c.toml"), config).unwrap();
    let o = sslab(&["run", "c.toml", "-o", "out", "-q"], &dir);
    let e = stderr(&o);
    // 30 rows per class: 3 test rows and 5 unlabeled leave at most 22 labeled.
    let want = "c.toml:10: datasets[1].labeled_per_class: `mine-m28` asks for 28 labeled + 5 unlabeled + 3 test rows of class `";
    let max = "`, which has only 30: labeled_per_class can be at most 22 here (at datasets[0].labeled_per_class, sweep value 2 of 2)";
    assert!(!o.status.success() && e.contains(want) && e.contains(max), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
