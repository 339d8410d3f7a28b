//! `qlds` entries with `select`: keys parse into the checked type; bad ones name line and key.

use crate::methods::qlds::LambdaPolicy;
use crate::methods::qlds::selection::{Grid, Policy, SelectQlds};
use crate::methods::qlds::theory::Scale;

const CONFIG: &str = r#"
[experiment]
name = "sel"
seed = 1
splits = 2

[[datasets]]
name = "g"
kind = "synthetic"
dim = 10
mean_norm = 1.5
labeled_per_class = 6
unlabeled_per_class = 40

[[methods]]
kind = "qlds"
select = "cv"
grid = 6
folds = 3
"#;

fn config_error(src: &str) -> String {
    crate::config::parse(src, std::path::Path::new("c.toml")).unwrap_err().to_string()
}

#[test]
fn select_keys_parse_and_bad_ones_name_line_and_key() {
    let e = crate::config::parse(CONFIG, std::path::Path::new("c.toml")).unwrap();
    let want = SelectQlds::new(
        Policy::CrossValidation { folds: 3 },
        Grid::uniform(6).unwrap(),
        LambdaPolicy::default(),
    )
    .unwrap();
    assert_eq!(e.methods[0].method.as_any().downcast_ref::<SelectQlds>(), Some(&want));
    assert_eq!(e.methods[0].name, "QLDS(cv)");
    let msg = config_error(&CONFIG.replace("select = \"cv\"", "select = \"xx\""));
    assert!(msg.starts_with("c.toml:17:") && msg.contains("methods[0].select"), "{msg}");
    let msg = config_error(&CONFIG.replace("grid = 6", "grid = 1"));
    assert!(msg.starts_with("c.toml:18:") && msg.contains("methods[0].grid"), "{msg}");
    let msg = config_error(&CONFIG.replace("select = \"cv\"", "select = \"th\""));
    assert!(
        msg.starts_with("c.toml:19:") && msg.contains("folds") && msg.contains("\"cv\""),
        "{msg}"
    );
    let msg = config_error(&CONFIG.replace("select = \"cv\"", "alpha_l = 1.0\nalpha_u = 0.5"));
    assert!(msg.contains("methods[0].grid") && msg.contains("only used with `select`"), "{msg}");
    let msg = config_error(&CONFIG.replace("folds = 3", "alpha_l = 0.5"));
    assert!(msg.starts_with("c.toml:19:") && msg.contains("alpha_l"), "{msg}");
    let msg = config_error(&CONFIG.replace("kind = \"qlds\"", "kind = \"ls_svm\""));
    assert!(
        msg.contains("methods[0].select") && msg.contains("not a parameter of `ls_svm`"),
        "{msg}"
    );
    let th = CONFIG
        .replace("select = \"cv\"", "select = \"th\"")
        .replace("folds = 3", "theory_scale = \"none\"");
    let e = crate::config::parse(&th, std::path::Path::new("c.toml")).unwrap();
    assert!(
        matches!(e.methods[0].method.as_any().downcast_ref::<SelectQlds>(), Some(s) if s.policy == Policy::Theory { scale: Scale::None })
    );
}

#[test]
fn select_keys_are_rejected_on_other_kinds() {
    let spectral = CONFIG.replace("kind = \"qlds\"", "kind = \"spectral\"");
    let msg = config_error(&spectral);
    assert!(msg.contains("methods[0].select: not a parameter of `spectral`"), "{msg}");
    let spectral = CONFIG.replace("kind = \"qlds\"\nselect = \"cv\"", "kind = \"spectral\"");
    let msg = config_error(&spectral);
    assert!(msg.contains("methods[0].grid: not a parameter of `spectral`"), "{msg}");
}

#[test]
fn grid_values_replace_an_axis_and_bad_ones_name_line_and_key() {
    let lists = CONFIG.replace("grid = 6", "alpha_l = [0, 1, 10, 1e3]\nalpha_u = [0, 0.5, 2]");
    let e = crate::config::parse(&lists, std::path::Path::new("c.toml")).unwrap();
    let s = e.methods[0].method.as_any().downcast_ref::<SelectQlds>().unwrap();
    assert_eq!(
        (s.grid.alphas_l.as_slice(), s.grid.alphas_u.as_slice()),
        (&[0.0, 1.0, 10.0, 1000.0][..], &[0.0, 0.5, 2.0][..])
    );
    assert_eq!(
        e.methods[0].method.params(),
        "select=cv folds=3 alpha_l=0/1/10/1000 alpha_u=0/0.5/2"
    );
    // One axis given: `grid` sets the other.
    let one = CONFIG.replace("grid = 6", "grid = 3\nalpha_l = [0.5, 100]");
    let e = crate::config::parse(&one, std::path::Path::new("c.toml")).unwrap();
    let s = e.methods[0].method.as_any().downcast_ref::<SelectQlds>().unwrap();
    assert_eq!(
        (s.grid.alphas_l.as_slice(), s.grid.alphas_u.as_slice()),
        (&[0.5, 100.0][..], &[0.0, 0.5, 1.0][..])
    );
    let uniform = crate::config::parse(CONFIG, std::path::Path::new("c.toml")).unwrap();
    assert_eq!(uniform.methods[0].method.params(), "select=cv folds=3 grid=6");
    let bad = |with: &str| config_error(&CONFIG.replace("grid = 6", with));
    let msg = bad("alpha_l = [0, 10, 1]");
    assert!(
        msg.starts_with("c.toml:18:")
            && msg.contains("methods[0].alpha_l")
            && msg.contains("ascending"),
        "{msg}"
    );
    let msg = bad("grid = 4\nalpha_u = [-1, 0]");
    assert!(
        msg.starts_with("c.toml:19:") && msg.contains("methods[0].alpha_u") && msg.contains("≥ 0"),
        "{msg}"
    );
    let msg = bad("alpha_u = []");
    assert!(msg.starts_with("c.toml:18:") && msg.contains("methods[0].alpha_u"), "{msg}");
    let msg = bad("grid = 4\nalpha_l = [1]\nalpha_u = [0]");
    assert!(
        msg.starts_with("c.toml:18:")
            && msg.contains("methods[0].grid")
            && msg.contains("both lists"),
        "{msg}"
    );
    let msg = bad("alpha_l = [0]\nalpha_u = [0]");
    assert!(
        msg.starts_with("c.toml:18:")
            && msg.contains("methods[0].alpha_l")
            && msg.contains("(0, 0)"),
        "{msg}"
    );
    let msg = bad("alpha_l = [\"a\"]");
    assert!(msg.starts_with("c.toml:18:"), "{msg}");
}

#[test]
fn theory_key_chooses_the_general_theory_only_with_select_th() {
    let th = CONFIG.replace("select = \"cv\"", "select = \"th\"").replace("folds = 3", "");
    let parse = |src: &str| crate::config::parse(src, std::path::Path::new("c.toml"));
    let policy = |src: &str| {
        parse(src).unwrap().methods[0].method.as_any().downcast_ref::<SelectQlds>().unwrap().policy
    };
    assert_eq!(policy(&th), Policy::Theory { scale: Scale::LabeledWithin });
    let general = th.replace("grid = 6", "grid = 6\ntheory = \"general\"");
    assert_eq!(policy(&general), Policy::GeneralTheory);
    assert!(parse(&general).unwrap().methods[0].method.params().contains("theory=general"));
    let isotropic = th.replace("grid = 6", "grid = 6\ntheory = \"isotropic\"");
    assert_eq!(policy(&isotropic), Policy::Theory { scale: Scale::LabeledWithin });
    let msg = config_error(&th.replace("grid = 6", "grid = 6\ntheory = \"bogus\""));
    assert!(msg.contains("theory") && msg.contains("bogus"), "{msg}");
    let msg = config_error(&CONFIG.replace("folds = 3", "theory = \"general\""));
    assert!(msg.contains("theory") && msg.contains("only used with select = \"th\""), "{msg}");
    let msg = config_error(&general.replace("grid = 6", "grid = 6\ntheory_scale = \"none\""));
    assert!(msg.contains("theory_scale"), "{msg}");
}
