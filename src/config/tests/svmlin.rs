//! SVMlin kinds and the `sparse_text` dataset: defaults, and errors that name the line.

use std::path::Path;

use crate::config::parse;
use crate::data::DataSource;
use crate::methods::svmlin::{Kind, PositiveFraction, SvmSolver, Svmlin};

const GOOD: &str = r#"
[experiment]
name = "t"
seed = 1
splits = 2

[[datasets]]
name = "text"
kind = "sparse_text"
dim = 300
nnz_per_doc = 10
labeled = 20
unlabeled = 100

[[methods]]
kind = "linear_svm"
lambda = 0.5

[[methods]]
kind = "tsvm"
switches = 1
r = 0.4

[[methods]]
kind = "da"
lambda_u = 2
r = "truth"
"#;

fn err(src: &str) -> String {
    parse(src, Path::new("cfg.toml")).unwrap_err().to_string()
}

#[test]
fn svmlin_kinds_and_sparse_text_parse_with_defaults() {
    let exp = parse(GOOD, Path::new("cfg.toml")).unwrap();
    assert!(matches!(exp.datasets[0].source, DataSource::Generated(ref t) if t.dim() == 300));
    let params: Vec<_> = exp
        .methods
        .iter()
        .map(|m| *m.method.as_any().downcast_ref::<Svmlin>().expect("an SVMlin method").params())
        .collect();
    let names: Vec<&str> = exp.methods.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["SVM(dual CD)", "TSVM(S=1, dual CD)", "DA(dual CD)"]);
    let solvers: Vec<_> = params.iter().map(|p| p.svm_solver).collect();
    let cd = |epsilon| SvmSolver::DualCd { epsilon };
    assert_eq!(solvers, [cd(0.1), cd(1e-3), cd(1e-3)], "dual CD is the default");
    assert_eq!((params[0].kind, params[0].lambda), (Kind::Svm, 0.5));
    assert_eq!(
        (params[1].kind, params[1].r),
        (Kind::Tsvm { switches: 1 }, PositiveFraction::Fixed(0.4))
    );
    assert_eq!(
        (params[2].lambda, params[2].lambda_u, params[2].r),
        (1.0, 2.0, PositiveFraction::Truth)
    );
}

#[test]
fn bad_svmlin_keys_name_the_line() {
    let e = err(&GOOD.replace("switches = 1", "switches = 0"));
    assert!(e.starts_with("cfg.toml:21: methods[1].switches: must be ≥ 1"), "{e}");
    let e = err(&GOOD.replace("r = 0.4", "r = 1.5"));
    assert!(e.starts_with("cfg.toml:22: methods[1].r: must lie in (0, 1)"), "{e}");
    let e = err(&GOOD.replace("lambda = 0.5", "lambda = 0.5\nswitches = 3"));
    assert!(e.contains("methods[0].switches: not a parameter of `linear_svm`"), "{e}");
    let e = err(&GOOD.replace("lambda_u = 2", "lambda_u = -2"));
    assert!(e.starts_with("cfg.toml:26: methods[2].lambda_u: must be finite and > 0"), "{e}");
    let e = err(&GOOD
        .replace("kind = \"linear_svm\"", "kind = \"qlds\"\nalpha_l = 1\nalpha_u = 0\nr = 0.5"));
    assert!(e.contains("methods[0].r: not a parameter of `qlds`"), "{e}");
    let e = err(&GOOD.replace("nnz_per_doc = 10", "nnz_per_doc = 200"));
    assert!(e.starts_with("cfg.toml:7: datasets[0]: sparse text: nnz_per_doc"), "{e}");
    let e = err(&GOOD.replace("nnz_per_doc = 10", "mean_norm = 1.0"));
    assert!(e.contains("datasets[0].mean_norm: not a key of a `sparse_text` dataset"), "{e}");
}

#[test]
fn linear_svm_takes_dual_cd_with_its_epsilon() {
    let exp =
        parse(&GOOD.replace("lambda = 0.5", "lambda = 0.5\nsolver = \"dual_cd\""), Path::new("c"))
            .unwrap();
    let m = exp.methods[0].method.as_any().downcast_ref::<Svmlin>().expect("SVMlin");
    assert_eq!(m.params().svm_solver, SvmSolver::DualCd { epsilon: 0.1 });
    assert_eq!(exp.methods[0].name, "SVM(dual CD)");
    assert_eq!(exp.methods[0].method.params(), "lambda=0.5 solver=dual_cd epsilon=0.1");
    let e = err(&GOOD.replace("lambda = 0.5", "lambda = 0.5\nsolver = \"mfn\"\nepsilon = 0.01"));
    assert!(e.contains("methods[0].epsilon: is a dual_cd setting"), "{e}");
    let exp = parse(&GOOD.replace("lambda = 0.5", "solver = \"mfn\""), Path::new("c")).unwrap();
    let m = exp.methods[0].method.as_any().downcast_ref::<Svmlin>().expect("SVMlin");
    assert_eq!(m.params().svm_solver, SvmSolver::Mfn);
    assert_eq!(
        (exp.methods[0].name.as_str(), exp.methods[0].method.params()),
        ("SVM", "lambda=1".into())
    );
    let e = err(&GOOD.replace("lambda = 0.5", "lambda = 0.5\nsolver = \"sgd\""));
    assert!(e.contains("methods[0].solver: expected \"mfn\" or \"dual_cd\""), "{e}");
    let e = err(&GOOD.replace("lambda = 0.5", "solver = \"dual_cd\"\nepsilon = -1"));
    assert!(e.contains("methods[0].epsilon: must be finite and > 0"), "{e}");
}

#[test]
fn tsvm_and_da_take_dual_cd_with_a_tighter_default_epsilon() {
    let src = GOOD
        .replace("switches = 1", "switches = 1\nsolver = \"dual_cd\"")
        .replace("kind = \"da\"", "kind = \"da\"\nsolver = \"dual_cd\"\nepsilon = 0.01");
    let exp = parse(&src, Path::new("c")).unwrap();
    let solver = |k: usize| {
        let m = exp.methods[k].method.as_any().downcast_ref::<Svmlin>().expect("SVMlin");
        m.params().svm_solver
    };
    assert_eq!(solver(1), SvmSolver::DualCd { epsilon: 1e-3 });
    assert_eq!(solver(2), SvmSolver::DualCd { epsilon: 0.01 });
    assert_eq!(exp.methods[1].name, "TSVM(S=1, dual CD)");
    assert_eq!(exp.methods[2].name, "DA(dual CD)");
    assert!(exp.methods[1].method.params().ends_with(" solver=dual_cd epsilon=0.001"));
    let e = err(&GOOD.replace("switches = 1", "switches = 1\nsolver = \"dual_cd\"\nepsilon = 0"));
    assert!(e.contains("methods[1].epsilon: must be finite and > 0"), "{e}");
    let e =
        err(&GOOD
            .replace("switches = 1", "switches = 1\nsolver = \"dual_cd\"\nprecondition = true"));
    assert!(e.contains("methods[1].precondition: is a setting of the CGLS solvers"), "{e}");
}

#[test]
fn the_cgls_solvers_take_the_preconditioner() {
    let src = GOOD
        .replace("lambda = 0.5", "lambda = 0.5\nsolver = \"mfn\"\nprecondition = true")
        .replace("switches = 1", "switches = 1\nprecondition = false");
    let exp = parse(&src, Path::new("c")).unwrap();
    let pre: Vec<bool> = exp
        .methods
        .iter()
        .map(|m| m.method.as_any().downcast_ref::<Svmlin>().expect("SVMlin").params().precondition)
        .collect();
    assert_eq!(pre, [true, false, false]);
    assert_eq!(exp.methods[0].method.params(), "lambda=0.5 precondition=true");
    let e = err(&GOOD.replace("lambda = 0.5", "precondition = \"yes\""));
    assert!(e.contains("methods[0].precondition"), "{e}");
    for solver in ["solver = \"dual_cd\"\n", ""] {
        let e = err(&GOOD.replace("lambda = 0.5", &format!("{solver}precondition = true")));
        assert!(e.contains("methods[0].precondition: is a setting of the CGLS solvers"), "{e}");
    }
}
