//! One-vs-rest: a binary kind on a split of three classes fits class k against the rest
//! for each k. Its per-class scores are, column by column, the binary fits of a
//! hand-written loop (labels +1 for class k, −1 for the others, a fresh store each), bit
//! for bit, for every binary family; its model (K linear models, or K kernel expansions)
//! scores the same and survives a file; and a
//! run of the CLI on a three-class CSV file gives per-class score rows and saves the
//! one-vs-rest model.

use std::path::Path;
use std::process::Command;

use ndarray::{Array1, Array2};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sslab::config::parse;
use sslab::data::{ClassMixture, DataSource, Problem};
use sslab::engine::{self, Fitted, Method, Model, Scores, Split, Store};
use sslab::methods::qlds::{LambdaPolicy, Qlds, QldsParams};

use crate::common::{self, TempDir};
use crate::models::per_class;

/// Every binary kind (each family and selection), on a synthetic dataset whose rows are
/// replaced below by a three-class problem.
const CONFIG: &str = r#"
[experiment]
name = "ovr"
seed = 4
splits = 1

[[datasets]]
name = "g"
kind = "synthetic"
dim = 6
mean_norm = 1.0
labeled_per_class = 4
unlabeled = 40

[[methods]]
kind = "qlds"
alpha_l = 1.0
alpha_u = 0.5
[[methods]]
kind = "qlds"
select = "th"
[[methods]]
kind = "qlds"
select = "or"
[[methods]]
kind = "qlds"
select = "cv"
folds = 3
[[methods]]
kind = "ls_svm"
[[methods]]
kind = "gb_ssl"
[[methods]]
kind = "spectral"
[[methods]]
kind = "self_training"
[[methods]]
kind = "linear_rls"
lambda = 0.01
[[methods]]
kind = "linear_svm"
lambda = 0.01
[[methods]]
kind = "tsvm"
lambda = 0.001
[[methods]]
kind = "da"
lambda = 0.001
[[methods]]
kind = "gradient"
loss = "logistic"
unlabeled = "quadratic_margin"
alpha_l = [1]
alpha_u = [0.5]
lambda_scale = [1.0]
[[methods]]
kind = "rls"
name = "kernel RLS"
[[methods]]
kind = "svm"
name = "kernel SVM"
"#;

/// Three orthogonal classes in 12 dimensions: 5 labeled and 60 unlabeled rows each, 10 test
/// rows each.
fn three_classes() -> (Problem, Array2<f64>) {
    let mixture = ClassMixture::orthogonal(12, 3, 3.0).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let p = mixture.sample_problem(&[5; 3], &[60; 3], &mut rng).unwrap();
    let test = mixture.sample_problem(&[1; 3], &[10; 3], &mut rng).unwrap();
    (p, test.x_u.to_dense().into_owned())
}

/// Class `k` against the rest, written out: +1 for class k, −1 for the others.
fn class_against_rest(p: &Problem, k: usize) -> Problem {
    let sign = |c: &usize| if *c == k { 1.0 } else { -1.0 };
    Problem::new(
        p.x_l.clone(),
        p.classes_l.iter().map(sign).collect(),
        p.x_u.clone(),
        p.classes_u.iter().map(sign).collect(),
    )
}

/// The fixed QLDS at the (α_l, α_u, λ) a fit reports.
fn at_point(f: &Fitted) -> Qlds {
    let (al, au) = (f.number("alpha_l").unwrap(), f.number("alpha_u").unwrap());
    let lambda = LambdaPolicy::Fixed(f.number("lambda").unwrap());
    QldsParams { alpha_l: al, alpha_u: au, lambda }.check().unwrap()
}

fn binary(s: &Scores) -> &Array1<f64> {
    match s {
        Scores::Binary(v) => v,
        Scores::PerClass(_) => panic!("a binary fit gives one column"),
    }
}

fn same_bits(a: impl IntoIterator<Item = f64>, b: impl IntoIterator<Item = f64>) -> bool {
    let (a, b): (Vec<f64>, Vec<f64>) = (a.into_iter().collect(), b.into_iter().collect());
    a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits())
}

#[test]
fn every_binary_kind_fits_three_classes_as_a_loop_over_its_binary_fits() {
    let exp = parse(CONFIG, Path::new("ovr.toml")).unwrap();
    let (p, test) = three_classes();
    let test = sslab::data::Features::Dense(test);
    let source = &exp.datasets[0].source;
    let dir = TempDir::new("one-vs-rest");
    for m in &exp.methods {
        assert!(!m.multiclass, "{} is a binary kind", m.name);
        let (a, b) = (Store::default(), Store::default());
        let view = common::split(&p, source, (&a, &b), Some(&test), 7, 0);
        let f = engine::fit(m.method.as_ref(), m.multiclass, &view).unwrap();
        let scores = per_class(&f.scores);
        let test_scores = f.test.as_ref().map(per_class);
        assert_eq!(scores.dim(), (180, 3), "{}", m.name);
        for k in 0..3 {
            let q = class_against_rest(&p, k);
            let (a, b) = (Store::default(), Store::default());
            let one = Split { problem: &q, dataset_store: &a, split_store: &b, ..view };
            // QLDS(cv) and QLDS(or) choose one point for all classes by the multi-class
            // error: their columns are the binary fits at that point.
            let fixed = match m.name.as_str() {
                "QLDS(cv)" | "QLDS(or)" => Some(at_point(&f)),
                _ => None,
            };
            let g =
                fixed.as_ref().map_or(m.method.as_ref(), |q| q as &dyn Method).fit(&one).unwrap();
            assert!(
                same_bits(scores.column(k).to_vec(), binary(&g.scores).to_vec()),
                "{} class {k}",
                m.name
            );
            match (test_scores, &g.test) {
                (Some(t), Some(g)) => {
                    let on_test = binary(g).to_vec();
                    assert!(same_bits(t.column(k).to_vec(), on_test), "{} test {k}", m.name);
                }
                (t, g) => assert!(t.is_none() && g.is_none(), "{}: test scores", m.name),
            }
        }
        // The argmax learns: below 1/2 (chance is 2/3) with 5 labels per class in 12
        // dimensions (RLS with λ = 0.01 overfits them: 0.28).
        assert!(f.scores.error(&p) < 0.5, "{}: error {}", m.name, f.scores.error(&p));
        // The model: K linear models, or K kernel expansions (RLS, SVM).
        let Some(Model::OneVsRest(ovr)) = &f.model else { panic!("{}: no model", m.name) };
        let kernel = matches!(m.kind.as_str(), "rls" | "svm");
        assert!(ovr.models.iter().all(|c| matches!(c, Model::Kernel(_)) == kernel), "{}", m.name);
        let model = f.model.as_ref().unwrap();
        let again = per_class(&model.score(&test).unwrap()).clone();
        let t = test_scores.expect("a model scores the test rows");
        assert!(same_bits(again.iter().copied(), t.iter().copied()), "{}", m.name);
        let path = dir.0.join("model.npz");
        model.save(&path).unwrap();
        assert_eq!(&Model::load(&path).unwrap(), model, "{}: read back", m.name);
    }
}

#[test]
fn a_selection_reports_its_choice_per_class_when_the_classes_differ() {
    let exp = parse(CONFIG, Path::new("ovr.toml")).unwrap();
    let p = three_classes().0;
    let (a, b) = (Store::default(), Store::default());
    let view = common::split(&p, &exp.datasets[0].source, (&a, &b), None, 7, 0);
    let theory = &exp.methods[1];
    let f = engine::fit(theory.method.as_ref(), false, &view).unwrap();
    // QLDS(th) picks by each class's binary theory: a value the classes share keeps its
    // column, values that differ go to NAME_per_class, in class order.
    let mut chosen = Vec::new();
    for k in 0..3 {
        let q = class_against_rest(&p, k);
        let (a, b) = (Store::default(), Store::default());
        let g = theory
            .method
            .fit(&Split { problem: &q, dataset_store: &a, split_store: &b, ..view })
            .unwrap();
        chosen.push(g.number("alpha_l").unwrap());
    }
    match chosen.iter().all(|a| *a == chosen[0]) {
        true => assert_eq!(f.number("alpha_l"), Some(chosen[0])),
        false => {
            let want: Vec<String> = chosen.iter().map(|a| a.to_string()).collect();
            assert_eq!(f.label("alpha_l_per_class"), Some(want.join(";").as_str()));
            assert_eq!(f.number("alpha_l"), None);
        }
    }
}

#[test]
fn a_run_on_a_three_class_file_gives_per_class_scores_and_predictions() {
    let dir = TempDir::new("one-vs-rest-run");
    let (p, _) = three_classes();
    let mut text = String::from("label");
    for j in 0..12 {
        text.push_str(&format!(",x{j}"));
    }
    text.push('\n');
    let (x_l, x_u) = (p.x_l.to_dense(), p.x_u.to_dense());
    let rows =
        x_l.rows().into_iter().zip(&p.classes_l).chain(x_u.rows().into_iter().zip(&p.classes_u));
    for (row, class) in rows {
        let values: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        text.push_str(&format!("c{class},{}\n", values.join(",")));
    }
    let csv = dir.0.join("three.csv");
    std::fs::write(&csv, text).unwrap();
    let config = dir.0.join("r.toml");
    std::fs::write(
        &config,
        format!(
            "[experiment]\nname = \"r\"\nseed = 2\nsplits = 2\nsave_scores = true\nsave_models = true\n\n\
             [[datasets]]\nname = \"three\"\nkind = \"csv\"\npath = \"{}\"\nlabel = \"label\"\n\
             labeled_per_class = 4\nunlabeled = \"rest\"\n\n\
             [[methods]]\nkind = \"qlds\"\nselect = \"th\"\n[[methods]]\nkind = \"tsvm\"\nlambda = 0.01\n\
             [[methods]]\nkind = \"lap_rls\"\n",
            csv.display()
        ),
    )
    .unwrap();
    let out = dir.0.join("out");
    let run = Command::new(env!("CARGO_BIN_EXE_sslab"))
        .args(["run", config.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"])
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let results = std::fs::read_to_string(out.join("r/results.csv")).unwrap();
    let ok = results.lines().skip(1).filter(|l| l.contains(",ok,")).count();
    assert_eq!(ok, 6, "{results}");
    // scores.csv: one line per (row, class) for every method, the binary kinds included.
    let mut reader = csv::Reader::from_path(out.join("r/scores.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let method = header.iter().position(|h| h == "method").unwrap();
    let class = header.iter().position(|h| h == "class").expect("a class column");
    let mut classes = std::collections::BTreeSet::new();
    for record in reader.records() {
        let r = record.unwrap();
        if &r[method] == "TSVM(S=10000, dual CD)" {
            classes.insert(r[class].to_string());
        }
    }
    assert_eq!(classes.len(), 3, "{classes:?}");
    let model = out.join("r/models/three/0/TSVM(S=10000, dual CD).npz");
    assert!(matches!(Model::load(&model).unwrap(), Model::OneVsRest(_)));
}

/// A split of `p` with fresh stores and no test rows.
fn fit_on(method: &dyn Method, multiclass: bool, p: &Problem, source: &DataSource) -> Fitted {
    let (a, b) = (Store::default(), Store::default());
    let view = common::split(p, source, (&a, &b), None, 7, 0);
    engine::fit(method, multiclass, &view).unwrap()
}

#[test]
fn native_qlds_is_the_label_matrix_fit_and_predicts_as_one_vs_rest_at_one_point() {
    let config = CONFIG.to_string()
        + "[[methods]]\nkind = \"qlds\"\nalpha_l = 1.0\nalpha_u = 0.5\nmulticlass = \"native\"\n\
           [[methods]]\nkind = \"qlds\"\nselect = \"th\"\nmulticlass = \"native\"\n";
    let exp = parse(&config, Path::new("native.toml")).unwrap();
    let n = exp.methods.len();
    let (fixed, th) = (&exp.methods[n - 2], &exp.methods[n - 1]);
    assert_eq!((fixed.name.as_str(), th.name.as_str()), ("QLDS(1,0.5)-native", "QLDS(th)-native"));
    let source = &exp.datasets[0].source;
    let p = three_classes().0;
    // The fixed point: Qlds::fit_multiclass's own scores, to rounding.
    let f = fit_on(fixed.method.as_ref(), fixed.multiclass, &p, source);
    let own = QldsParams::new(1.0, 0.5).check().unwrap().fit_multiclass(&p).unwrap();
    let want = own.scores(p.x_u.to_dense().view());
    let got = per_class(&f.scores);
    let scale = want.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    let diff = (got - &want).iter().fold(0.0f64, |a, v| a.max(v.abs()));
    assert!(diff <= 1e-12 * scale, "native scores differ by {diff:e}");
    // One-vs-rest at the same point: labels ±1 instead of 1 and −1/(K−1), i.e. a·y + b·1 with
    // a = K/(2(K−1)) > 0; the 1 adds one column to every class: the same argmax.
    let ovr = fit_on(&QldsParams::new(1.0, 0.5).check().unwrap(), false, &p, source);
    let (a, b) = (engine::argmax_rows(got), engine::argmax_rows(per_class(&ovr.scores)));
    assert_eq!(a, b);
    // QLDS(th) natively: the point of lowest predicted K-class error.
    let f = fit_on(th.method.as_ref(), th.multiclass, &p, source);
    let grid = sslab::methods::qlds::selection::Grid::default();
    let scale = sslab::methods::qlds::theory::Scale::LabeledWithin;
    let (al, au, e) = sslab::methods::qlds::selection::select_multiclass(
        &p,
        &grid,
        LambdaPolicy::default(),
        scale,
    )
    .unwrap();
    assert_eq!((f.number("alpha_l"), f.number("alpha_u")), (Some(al), Some(au)));
    assert_eq!(f.number("theory_error"), Some(e));
    // Two classes: the binary fit, bit for bit.
    let two = Problem::new(p.x_l.clone(), p.y_l.clone(), p.x_u.clone(), p.y_u.clone());
    let native = fit_on(fixed.method.as_ref(), fixed.multiclass, &two, source);
    let plain = fit_on(&QldsParams::new(1.0, 0.5).check().unwrap(), false, &two, source);
    assert!(same_bits(binary(&native.scores).to_vec(), binary(&plain.scores).to_vec()));
}
