//! Config validation: good configs parse, bad ones name the file, line and key.

use std::path::Path;

use super::*;
use crate::data::Sizes;
use crate::methods::qlds::Spectral;
use crate::methods::qlds::selection::SelectLambda;
use crate::methods::self_training::SelfTraining;

mod files;
mod graph;
mod qlds_select;
mod sparse_graph;
mod svmlin;
mod sweep;
mod tuning;

const GOOD: &str = r#"
[experiment]
name = "t"
seed = 3
splits = 4

[[datasets]]
name = "g"
kind = "synthetic"
dim = 10
mean_norm = 1.5
labeled_per_class = 5
unlabeled = 40

[[methods]]
kind = "ls_svm"

[[methods]]
kind = "qlds"
alpha_l = 0.5
alpha_u = 1
lambda = "max_eig_unlabeled"

[[methods]]
kind = "spectral"
"#;

fn err(src: &str) -> String {
    parse(src, Path::new("cfg.toml")).unwrap_err().to_string()
}

#[test]
fn good_config_parses_into_checked_types() {
    let e = parse(GOOD, Path::new("cfg.toml")).unwrap();
    assert_eq!((e.name.as_str(), e.seed, e.splits), ("t", 3, 4));
    assert_eq!(e.datasets[0].labeled, Sizes::PerClass(vec![5, 5]));
    assert_eq!(e.datasets[0].unlabeled, Sizes::Total(40));
    let names: Vec<_> = e.methods.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["LS-SVM", "QLDS(0.5,1)", "Spectral"]);
    assert!(e.methods[2].method.as_any().is::<Spectral>());
    assert_eq!(e.hash.len(), 16);
}

#[test]
fn hash_ignores_comments_and_layout_but_not_values() {
    let base = parse(GOOD, Path::new("a")).unwrap().hash;
    let commented = GOOD.replace("seed = 3", "seed   =   3 # the seed");
    assert_eq!(parse(&commented, Path::new("a")).unwrap().hash, base);
    let changed = GOOD.replace("seed = 3", "seed = 4");
    assert_ne!(parse(&changed, Path::new("a")).unwrap().hash, base);
}

#[test]
fn unknown_key_names_line_and_key() {
    let msg = err(&GOOD.replace("splits = 4", "splits = 4\nsplitz = 5"));
    assert!(msg.starts_with("cfg.toml:6:"), "{msg}");
    assert!(msg.contains("splitz"), "{msg}");
}

#[test]
fn out_of_range_values_name_line_and_key() {
    let msg = err(&GOOD.replace("alpha_u = 1", "alpha_u = 1.5"));
    assert!(msg.starts_with("cfg.toml:21:"), "{msg}");
    assert!(msg.contains("methods[1].alpha_u"), "{msg}");
    let msg = err(&GOOD.replace("splits = 4", "splits = 0"));
    assert!(msg.starts_with("cfg.toml:5:") && msg.contains("experiment.splits"), "{msg}");
    let msg = err(&GOOD.replace("mean_norm = 1.5", "mean_norm = -1"));
    assert!(msg.starts_with("cfg.toml:11:") && msg.contains("mean_norm"), "{msg}");
    let msg = err(&GOOD.replace("labeled_per_class = 5", "labeled_per_class = [5, 0]"));
    assert!(msg.starts_with("cfg.toml:12:") && msg.contains("labeled_per_class"), "{msg}");
}

#[test]
fn single_class_splits_are_refused_naming_the_dataset() {
    let msg = err(&GOOD.replace("labeled_per_class = 5", "labeled = 1"));
    assert!(
        msg.starts_with("cfg.toml:") && msg.contains("datasets[0]: a split would have 1/0 labeled"),
        "{msg}"
    );
}

#[test]
fn inconsistent_entries_are_errors() {
    assert!(
        err(&GOOD.replace("kind = \"spectral\"", "kind = \"spectral\"\nalpha_l = 1"))
            .contains("not a parameter")
    );
    assert!(err(&GOOD.replace("kind = \"ls_svm\"", "kind = \"lssvm\"")).contains("unknown kind"));
    assert!(
        err(&GOOD.replace("lambda = \"max_eig_unlabeled\"", "lambda = \"big\"")).contains("lambda")
    );
    assert!(
        err(&GOOD.replace("unlabeled = 40", "unlabeled = 40\nunlabeled_per_class = 3"))
            .contains("exactly one")
    );
    let dup = format!("{GOOD}\n[[methods]]\nkind = \"ls_svm\"\n");
    assert!(err(&dup).contains("used twice"));
    // A default name taken twice is blamed on the second entry's line, not on line 1.
    let msg = err(&dup);
    assert!(
        msg.starts_with("cfg.toml:28:")
            && msg.contains("methods[3]: name `LS-SVM` is used twice (also by methods[0]"),
        "{msg}"
    );
    assert!(err("[experiment]\nname = \"x\"\nseed = 1\n").contains("no [[datasets]]"));
    assert!(err("not toml [").starts_with("cfg.toml:1:"));
}

#[test]
fn self_training_entries_are_checked() {
    let st = |body: &str| format!("{GOOD}\n[[methods]]\nkind = \"self_training\"\n{body}\n");
    let e = parse(&st("policy = \"margin\"\ntheta = 1.5\nmax_rounds = 3"), Path::new("c")).unwrap();
    assert_eq!(e.methods[3].name, "ST(LS-SVM)");
    assert!(e.methods[3].method.as_any().is::<SelfTraining>());
    assert!(err(&st("step = 1.5")).contains("methods[3].step"));
    assert!(err(&st("policy = \"margin\"\nstep = 0.5")).contains("not used by this policy"));
    assert!(err(&st("policy = \"best\"")).contains("unknown policy"));
    assert!(err(&st("alpha_l = 1")).contains("not a parameter of `self_training`"));
    assert!(
        err(&GOOD.replace("kind = \"ls_svm\"", "kind = \"ls_svm\"\nstep = 0.1"))
            .contains("not a parameter of `ls_svm`")
    );
}

#[test]
fn lambda_by_cross_validation_on_the_corners() {
    let cv = GOOD.replace("kind = \"ls_svm\"", "kind = \"ls_svm\"\nlambda = \"cv\"\nfolds = 5");
    let e = parse(&cv, Path::new("c")).unwrap();
    assert_eq!(e.methods[0].name, "LS-SVM(cv λ)");
    assert!(
        matches!(e.methods[0].method.as_any().downcast_ref::<SelectLambda>(), Some(s) if s.folds == 5 && s.alpha_l == 1.0)
    );
    assert!(
        err(&GOOD.replace("kind = \"ls_svm\"", "kind = \"ls_svm\"\nfolds = 5"))
            .contains("only used with lambda = \"cv\"")
    );
    assert!(
        err(&GOOD.replace("kind = \"ls_svm\"", "kind = \"ls_svm\"\nlambda = \"cv\"\nfolds = 1"))
            .contains("methods[0].folds")
    );
}

#[test]
fn sizes_beyond_memory_or_reason_are_config_errors() {
    let msg = err(&GOOD.replace("dim = 10", "dim = 1000000000000"));
    assert!(
        msg.contains("datasets[0].dim: 1000000000000 needs about") && msg.contains("memory limit"),
        "{msg}"
    );
    let msg = err(&GOOD.replace("unlabeled = 40", "unlabeled = 1000000000000"));
    assert!(msg.contains("datasets[0]: a split of") && msg.contains("memory limit"), "{msg}");
    let msg = err(&GOOD.replace("splits = 4", "splits = 1000000000000"));
    assert!(msg.starts_with("cfg.toml:5: experiment.splits: at most 100000"), "{msg}");
    let msg =
        err(&GOOD
            .replace("kind = \"spectral\"", "kind = \"qlds\"\nselect = \"th\"\ngrid = 1000000000"));
    assert!(msg.contains("grid: needs 2 to 1000 points per axis"), "{msg}");
    let e = load(Path::new("/dev/zero")).unwrap_err().to_string();
    assert!(e.contains("not a regular file"), "{e}");
}
