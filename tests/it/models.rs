//! Every family that leaves a model scores its unlabeled and test rows through it (one
//! scoring path): the model's scores of the training rows are the fit's, bit for bit; those
//! of the QLDS kinds are the closed form's own scorer's (`FittedQlds::scores`, the arithmetic
//! of the fits before models); a saved model read back scores the same bits; an explicit
//! loop over rows agrees to rounding. The graph-only kinds' neighbours model
//! (`neighbours`): the same checks, two and three classes, and its rule against a
//! brute-force computation. The RKHS graph kinds' kernel expansion (`kernel`): its test
//! rows, its file, its fit rows to rounding, its formula and decision rules.

mod kernel;
mod neighbours;

use std::path::Path;
use std::process::Command;

use ndarray::{Array1, Array2};
use sslab::config::parse;
use sslab::data::Features;
use sslab::engine::{Linear, Model, Scores};
use sslab::methods::qlds::Qlds;
use sslab::protocol::{derive_seed, draw};

use crate::common;

const CONFIG: &str = r#"
[experiment]
name = "models"
seed = 11
splits = 2

[[datasets]]
name = "g"
kind = "synthetic"
dim = 7
mean_norm = 1.3
labeled_per_class = 6
unlabeled = 120
test = { per_class = 25 }

[[methods]]
kind = "qlds"
alpha_l = 1.0
alpha_u = 0.5
[[methods]]
kind = "ls_svm"
[[methods]]
kind = "gb_ssl"
[[methods]]
kind = "spectral"
[[methods]]
kind = "qlds"
select = "th"
[[methods]]
kind = "qlds"
select = "cv"
[[methods]]
kind = "ls_svm"
lambda = "cv"
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
kind = "lap_rls"
[[methods]]
kind = "laplace"
"#;

pub(crate) fn binary(s: &Scores) -> &Array1<f64> {
    match s {
        Scores::Binary(v) => v,
        Scores::PerClass(_) => panic!("two classes give one column"),
    }
}

pub(crate) fn per_class(s: &Scores) -> &Array2<f64> {
    match s {
        Scores::PerClass(v) => v,
        Scores::Binary(_) => panic!("more classes give one column per class"),
    }
}

/// The same bits (NaN never arises here).
pub(crate) fn same_bits(a: &Array1<f64>, b: &Array1<f64>) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// (x·w − c·w)/s + b by an explicit loop over rows and features (a different order of
/// sums from ndarray's dot).
fn by_loop(m: &Linear, x: &Array2<f64>) -> Array1<f64> {
    let w = m.weights.column(0);
    let shift: f64 = m.center.as_ref().map_or(0.0, |c| c.iter().zip(w).map(|(a, b)| a * b).sum());
    x.rows()
        .into_iter()
        .map(|r| (r.iter().zip(w).map(|(a, b)| a * b).sum::<f64>() - shift) / m.scale + m.bias[0])
        .collect()
}

#[test]
fn linear_models_score_the_split_as_the_fit_and_survive_a_file() {
    let exp = parse(CONFIG, Path::new("models.toml")).unwrap();
    let spec = &exp.datasets[0];
    let dir = tempfile_dir("fit");
    let mut with_model = 0;
    for split in 0..exp.splits {
        let drawn = draw(spec, exp.seed, split).unwrap();
        let (p, test) = (&drawn.problem, &drawn.test.as_ref().unwrap().x);
        let (a, b) = (Default::default(), Default::default());
        let view = common::split(
            p,
            &spec.source,
            (&a, &b),
            Some(test),
            derive_seed(exp.seed, &spec.name, split),
            split,
        );
        for m in &exp.methods {
            let f = m.method.fit(&view).unwrap();
            let model = f.model.as_ref().unwrap_or_else(|| panic!("{}: no model", m.name));
            if let Model::Kernel(_) = model {
                // Scores of the fit rows to rounding only: checked in `kernel`.
                assert_eq!(m.kind, "lap_rls");
                continue;
            }
            with_model += 1;
            let scored = model.score(&p.x_u).unwrap();
            assert!(same_bits(binary(&scored), binary(&f.scores)), "{}: unlabeled", m.name);
            let on_test = model.score(test).unwrap();
            assert!(same_bits(binary(&on_test), binary(f.test.as_ref().unwrap())), "{}", m.name);
            let path = dir.join(format!("{split}-{}.npz", m.name.replace(['(', ')', ' '], "_")));
            model.save(&path).unwrap();
            let back = Model::load(&path).unwrap();
            assert_eq!(&back, model, "{}: read back", m.name);
            assert!(same_bits(binary(&back.score(test).unwrap()), binary(&on_test)), "{}", m.name);
            let Model::Linear(lin) = model else {
                assert_eq!(m.kind, "laplace");
                continue;
            };
            let reference = by_loop(lin, &test.to_dense());
            let scale = reference.iter().fold(1e-300f64, |a, v| a.max(v.abs()));
            let diff = (binary(&on_test) - &reference).iter().fold(0.0f64, |a, v| a.max(v.abs()));
            assert!(diff <= 1e-12 * scale, "{}: loop differs by {diff:e}", m.name);
        }
        // QLDS: the closed form's own scorer, the fits' arithmetic before models.
        let qlds = exp.methods[0].method.as_any().downcast_ref::<Qlds>().unwrap();
        let old = Qlds::fit(qlds, p).unwrap().scores(p.x_u.to_dense().view());
        let f = exp.methods[0].method.fit(&view).unwrap();
        assert!(same_bits(&old, binary(&f.scores)), "QLDS before and after models");
    }
    assert_eq!(with_model, 2 * 14);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_model_refuses_rows_of_another_width_and_a_file_that_is_no_model() {
    let model = Model::Linear(Linear::affine(Array1::from(vec![1.0, 2.0]), 0.5));
    let err = model.score(&Features::Dense(Array2::zeros((3, 4)))).unwrap_err().to_string();
    assert!(err.contains("4 features") && err.contains("expects 2"), "{err}");
    let dir = tempfile_dir("refuse");
    let path = dir.join("not-a-model.npz");
    std::fs::write(&path, b"PK not a zip").unwrap();
    let err = Model::load(&path).unwrap_err().to_string();
    assert!(err.contains("not-a-model.npz"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// numpy alone (np.load, X @ weights, X @ coef.T) gives a saved model's scores.
#[test]
fn numpy_alone_scores_a_saved_model() {
    let Some(py) = common::python(false) else {
        return eprintln!("SKIPPED: no Python with numpy (set SSLAB_PYTHON)");
    };
    let exp = parse(CONFIG, Path::new("models.toml")).unwrap();
    let spec = &exp.datasets[0];
    let drawn = draw(spec, exp.seed, 0).unwrap();
    let test = drawn.test.as_ref().unwrap().x.to_dense().into_owned();
    let dir = tempfile_dir("numpy");
    let x = dir.join("x.npy");
    sslab::data::npy::write_f64(&x, &[test.nrows(), test.ncols()], test.as_slice().unwrap())
        .unwrap();
    let (a, b) = (Default::default(), Default::default());
    let view = common::split(&drawn.problem, &spec.source, (&a, &b), None, 1, 0);
    // QLDS (centred, scaled) and TSVM (weights and a bias).
    for m in [&exp.methods[0], &exp.methods[10]] {
        let model = m.method.fit(&view).unwrap().model.unwrap();
        let path = dir.join("m.npz");
        model.save(&path).unwrap();
        let script = "import sys, numpy as np\n\
            m, x = np.load(sys.argv[1]), np.load(sys.argv[2])\n\
            c = m['center'] @ m['weights'] if 'center' in m else 0.0\n\
            exact = (x @ m['weights'] - c) / m['scale'] + m['bias']\n\
            sk = x @ m['coef'].T + m['intercept']\n\
            for a, b in zip(exact[:, 0], sk[:, 0]): print(repr(float(a)), repr(float(b)))\n";
        let out = Command::new(&py).args(["-c", script]).arg(&path).arg(&x).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let ours = model.score(&Features::Dense(test.clone())).unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let scale = binary(&ours).iter().fold(1e-300f64, |a, v| a.max(v.abs()));
        for (line, want) in text.lines().zip(binary(&ours)) {
            for v in line.split(' ').map(|v| v.parse::<f64>().unwrap()) {
                assert!((v - want).abs() <= 1e-12 * scale, "{}: numpy {v}, sslab {want}", m.name);
            }
        }
        assert_eq!(text.lines().count(), test.nrows());
    }
    std::fs::remove_dir_all(dir).unwrap();
}

fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sslab-models-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
