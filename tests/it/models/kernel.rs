//! The RKHS graph kinds' kernel expansion: the model of each binary kind with an expansion
//! (RLS, SVM, Lap-RLS, Lap-SVM, TV-RLS, TV-SVM, under each decision rule; with the Nyström
//! kernel over its landmarks) and of each native multi-class kind (one column per class)
//! scores the test rows of the fit, reads back from its file with the same bits, and scores
//! the fit's unlabeled rows as the solve to rounding (binary TV: to the splitting's
//! convergence); the expansion against an explicit Σ aᵢ K(xᵢ, x) + b; the pointwise
//! decision rules; a one-vs-rest model of mixed kinds.

use std::path::Path;
use std::sync::Arc;

use ndarray::{Array1, Array2, array};
use sslab::config::parse;
use sslab::data::Features;
use sslab::engine::{KernelExpansion, Model, PointRule, Scores};
use sslab::methods::graph::Decision;
use sslab::protocol::{derive_seed, draw};

use super::{binary, per_class, same_bits};
use crate::common::{self, TempDir};

const KINDS: &str = r#"
[experiment]
name = "kx"
seed = 4
splits = 2

[[datasets]]
name = "g"
kind = "synthetic"
dim = 4
mean_norm = 2.0
labeled_per_class = 4
unlabeled = 60
test = { per_class = 15 }

[[methods]]
kind = "rls"
[[methods]]
kind = "svm"
[[methods]]
kind = "lap_rls"
[[methods]]
kind = "lap_rls"
name = "lap zero_mean"
decision = "zero_mean"
laplacian = "symmetric"
[[methods]]
kind = "lap_svm"
decision = "class_mass"
[[methods]]
kind = "lap_svm"
name = "lap balance"
decision = "balance"
[[methods]]
kind = "tv_rls"
[[methods]]
kind = "tv_svm"
[[methods]]
kind = "tv_svm"
name = "tv zero_mean"
decision = "zero_mean"
[[methods]]
kind = "rls"
name = "RLS low"
kernel_rank = 20
[[methods]]
kind = "lap_rls"
name = "Lap-RLS low"
kernel_rank = 20
decision = "zero_mean"
[[methods]]
kind = "tv_rls"
name = "TV-RLS low"
kernel_rank = 20
[[methods]]
kind = "tv_rls"
name = "TV-RLS fhg"
tv_project = "fhg"
iterations = 300
[[methods]]
kind = "tv_rls"
name = "TV-RLS low fhg"
tv_project = "fhg"
iterations = 300
kernel_rank = 20
"#;

#[test]
fn every_expanded_kind_scores_test_rows_through_its_model_and_survives_a_file() {
    let exp = parse(KINDS, Path::new("kx.toml")).unwrap();
    let saving = KINDS.replace("splits = 2", "splits = 2\nsave_models = true");
    assert!(parse(&saving, Path::new("kx.toml")).is_ok(), "every kind here saves its model");
    let spec = &exp.datasets[0];
    let dir = TempDir::new("kernel-models");
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
            let Model::Kernel(k) = model else { panic!("{}: not a kernel expansion", m.name) };
            // The support: the 8 labeled rows (RLS, SVM), all 68 rows, or the Nyström kernel's
            // 20 landmarks, rows ⌊68 j / 20⌋ of the fit's rows (labeled first).
            let x = ndarray::concatenate(
                ndarray::Axis(0),
                &[p.x_l.to_dense().view(), p.x_u.to_dense().view()],
            )
            .unwrap();
            let support: Vec<usize> = match (m.name.contains("low"), m.kind.as_str()) {
                (true, _) => (0..20).map(|j| j * 68 / 20).collect(),
                (false, "rls" | "svm") => (0..8).collect(),
                (false, _) => (0..68).collect(),
            };
            assert_eq!(*k.rows, x.select(ndarray::Axis(0), &support), "{}", m.name);
            let on_test = model.score(test).unwrap();
            assert!(same_bits(binary(&on_test), binary(f.test.as_ref().unwrap())), "{}", m.name);
            let path = dir.0.join(format!("{split}-{}.npz", m.name.replace(['(', ')', ' '], "_")));
            model.save(&path).unwrap();
            let back = Model::load(&path).unwrap();
            assert_eq!(&back, model, "{}: read back", m.name);
            assert!(same_bits(binary(&back.score(test).unwrap()), binary(&on_test)), "{}", m.name);
            // The fit's unlabeled rows: the solve's scores, to rounding (Nyström: Z w against
            // Σ_j (W w)_j K(l_j, x); TV: the RKHS variable f of the last f-step against the
            // scores g, close at convergence).
            let scored = model.score(&p.x_u).unwrap();
            let (ours, fit) = (binary(&scored), binary(&f.scores));
            let scale = fit.iter().fold(1e-300f64, |a, v| a.max(v.abs()));
            let gap = (ours - fit).iter().fold(0.0f64, |a, v| a.max(v.abs())) / scale;
            // Measured: 3.5e-14 (Lap-SVM), 1.2e-14 (Nyström Lap-RLS), 8e-3 (TV-SVM, 30
            // iterations) and 3.3e-4 (TV-RLS fhg, 300 iterations) at most.
            let tolerance = if m.kind.starts_with("tv_") { 0.02 } else { 1e-12 };
            assert!(gap <= tolerance, "{}: unlabeled rows differ by {gap:e} of the scale", m.name);
            let signs = ours.iter().zip(fit).filter(|(a, b)| (**a >= 0.0) != (**b >= 0.0)).count();
            assert!(signs <= usize::from(m.kind.starts_with("tv_")), "{}: {signs} signs", m.name);
        }
    }
}

#[test]
fn cheeger_leaves_no_model_and_refuses_save_models() {
    let exp = parse(KINDS, Path::new("kx.toml")).unwrap();
    let spec = &exp.datasets[0];
    let drawn = draw(spec, exp.seed, 0).unwrap();
    let (a, b) = (Default::default(), Default::default());
    let test = &drawn.test.as_ref().unwrap().x;
    let view = common::split(&drawn.problem, &spec.source, (&a, &b), Some(test), 1, 0);
    for kind in ["cheeger_rls", "cheeger_svm"] {
        let text = KINDS.split("[[methods]]").next().unwrap().to_string()
            + &format!("[[methods]]\nkind = \"{kind}\"\n");
        let one = parse(&text, Path::new("one.toml")).unwrap();
        let f = one.methods[0].method.fit(&view).unwrap();
        assert!(f.model.is_none() && f.test.is_none(), "{kind}");
        let saving = text.replace("splits = 2", "splits = 2\nsave_models = true");
        let err = parse(&saving, Path::new("one.toml")).unwrap_err().to_string();
        assert!(err.contains("leaves no model"), "{kind}: {err}");
    }
}

/// exp(−‖x − y‖² / (2 s²)) by explicit differences.
fn rbf(x: &[f64], y: &[f64], s: f64) -> f64 {
    let d2: f64 = x.iter().zip(y).map(|(a, b)| (a - b) * (a - b)).sum();
    (-d2 / (2.0 * s * s)).exp()
}

#[test]
fn the_expansion_is_the_dense_k_a_plus_b_then_the_pointwise_rule() {
    let support = array![[0.0, 1.0], [2.0, -1.0], [0.5, 0.5]];
    let coef = array![[0.7, -0.2], [-1.1, 0.4], [0.3, 0.9]];
    let new = array![[0.1, 0.9], [3.0, 3.0], [-1.0, 0.2], [2.0, -1.0]];
    let (width, bias) = (0.8, array![0.05, -0.3]);
    // Dense K (new × support) by explicit differences, then K a + b.
    let k = Array2::from_shape_fn((4, 3), |(i, j)| {
        rbf(new.row(i).as_slice().unwrap(), support.row(j).as_slice().unwrap(), width)
    });
    let want = k.dot(&coef) + &bias;
    let model = |c: Array2<f64>, b: Array1<f64>, rule| {
        Model::Kernel(KernelExpansion::new(Arc::new(support.clone()), c, b, width, rule).unwrap())
    };
    let plain = model(coef.clone(), bias.clone(), PointRule::Plain);
    let Scores::PerClass(got) = plain.score(&Features::Dense(new.clone())).unwrap() else {
        panic!("two columns")
    };
    assert!((&got - &want).iter().all(|d| d.abs() < 1e-14), "{got} vs {want}");
    // Binary: one column; each rule as its formula on the raw score.
    let raw = want.column(0).to_owned();
    let score = |rule| {
        let m = model(
            coef.column(0).to_owned().insert_axis(ndarray::Axis(1)),
            bias.slice(ndarray::s![..1]).to_owned(),
            rule,
        );
        binary(&m.score(&Features::Dense(new.clone())).unwrap()).clone()
    };
    let offset = score(PointRule::Offset(array![0.25]));
    assert!(offset.iter().zip(&raw).all(|(o, r)| (o - (r - 0.25)).abs() < 1e-14));
    let mass = score(PointRule::ClassMass(array![2.0, 0.5]));
    for (o, r) in mass.iter().zip(&raw) {
        let want = 2.0 * (0.5 * (1.0 + r)).max(0.0) - 0.5 * (0.5 * (1.0 - r)).max(0.0);
        assert!((o - want).abs() < 1e-14, "{o} vs {want}");
    }
    // A model of other widths is refused; so are parameters the rule does not take.
    let bad = KernelExpansion::new(
        Arc::new(support.clone()),
        coef.clone(),
        bias.clone(),
        0.0,
        PointRule::Plain,
    );
    assert!(bad.is_err());
    let bad =
        KernelExpansion::new(Arc::new(support), coef, bias, 1.0, PointRule::Offset(array![1.0]));
    assert!(bad.unwrap_err().to_string().contains("decision parameters"));
}

#[test]
fn per_class_cuts_place_a_point_where_the_greedy_would() {
    // The fit's greedy on six points; each point alone through the cuts: the same class.
    let s0 = array![
        [0.9, 0.1, 0.0],
        [0.8, 0.2, 0.0],
        [0.7, 0.0, 0.3],
        [0.6, 0.4, 0.0],
        [0.5, 0.0, 0.5],
        [0.4, 0.3, 0.3]
    ];
    let mut s = s0.clone();
    let cuts = Decision::Balance.per_class(&mut s, &[0, 1, 2]).unwrap();
    assert_eq!(cuts, PointRule::Cuts(array![0.8, 0.3, 0.3]));
    for (i, row) in s0.rows().into_iter().enumerate() {
        let mut one = row.to_vec();
        cuts.apply(&mut one);
        assert_eq!(one, s.row(i).to_vec(), "point {i}");
    }
    // Cuts 0.8 (class 0 filled at 0.8), −∞ (class 1 never filled), 0.5 (class 2).
    let rule = PointRule::Cuts(array![0.8, f64::NEG_INFINITY, 0.5]);
    for (s, class) in [
        ([0.9, 0.1, 0.0], 0), // above class 0's cut
        ([0.7, 0.1, 0.6], 2), // class 0 was full at 0.7; class 2 not yet at 0.6
        ([0.7, 0.1, 0.4], 1), // both full: the class that never filled
    ] {
        let mut s = s;
        rule.apply(&mut s);
        let hot: Vec<usize> = (0..3).filter(|&k| s[k] == 1.0).collect();
        assert_eq!((hot, s.iter().sum::<f64>()), (vec![class], 1.0), "{s:?}");
    }
}

#[test]
fn a_one_vs_rest_model_of_mixed_kinds_scores_by_columns_and_survives_a_file() {
    // Class 0 a kernel expansion, class 1 a linear model, class 2 a neighbours model.
    let support = array![[0.0, 1.0], [2.0, -1.0], [0.5, 0.5], [1.0, 1.0]];
    let kernel = KernelExpansion::new(
        Arc::new(support.clone()),
        array![[0.7], [-1.1], [0.3], [0.2]],
        array![0.05],
        0.8,
        PointRule::Offset(array![0.1]),
    )
    .unwrap();
    let linear = sslab::engine::Linear::affine(array![0.5, -2.0], 0.25);
    let scores = array![[1.0], [-1.0], [0.5], [0.0]];
    let neighbours =
        sslab::engine::Neighbours::new(Arc::new(support), scores, 2, Default::default()).unwrap();
    let classes = vec![Model::Kernel(kernel), Model::Linear(linear), Model::Neighbours(neighbours)];
    let model = Model::OneVsRest(sslab::engine::OneVsRest::new(classes.clone()).unwrap());
    let x = Features::Dense(array![[0.1, 0.9], [3.0, 3.0], [-1.0, 0.2], [2.0, -1.0]]);
    let Scores::PerClass(got) = model.score(&x).unwrap() else { panic!("three columns") };
    for (k, class) in classes.iter().enumerate() {
        assert!(same_bits(&got.column(k).to_owned(), binary(&class.score(&x).unwrap())), "{k}");
    }
    let dir = TempDir::new("mixed-one-vs-rest");
    let path = dir.0.join("m.npz");
    model.save(&path).unwrap();
    assert_eq!(Model::load(&path).unwrap(), model);
    // Class k's arrays carry the prefix `class{k}_` (stored uncompressed: names in the bytes).
    let text = std::fs::read(&path).unwrap();
    assert!(text.windows(14).any(|w| w == b"class0_support"));
}

#[test]
fn multi_class_kinds_leave_an_expansion_of_one_column_per_class() {
    // The kinds of KINDS with a multi-class version (dense kernel and no `tv_project`: the
    // low-rank kernel and the option are for two classes only) and Cheeger.
    let exp = parse(&format!("{KINDS}[[methods]]\nkind = \"cheeger_rls\"\n"), Path::new("kx.toml"))
        .unwrap();
    let mixture = sslab::data::ClassMixture::orthogonal(6, 3, 2.5).unwrap();
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(8);
    let p = mixture.sample_problem(&[4; 3], &[40; 3], &mut rng).unwrap();
    let test = Features::Dense(
        mixture.sample_problem(&[1; 3], &[10; 3], &mut rng).unwrap().x_u.to_dense().into_owned(),
    );
    let dir = TempDir::new("kernel-models-3");
    let binary_only = |name: &str| name.contains("low") || name.contains("fhg");
    for m in exp.methods.iter().filter(|m| m.multiclass && !binary_only(&m.name)) {
        let (a, b) = (Default::default(), Default::default());
        let view = common::split(&p, &exp.datasets[0].source, (&a, &b), Some(&test), 3, 0);
        let f = sslab::engine::fit(m.method.as_ref(), true, &view).unwrap();
        if m.kind.starts_with("cheeger") {
            assert!(f.model.is_none() && f.test.is_none(), "{}", m.name);
            continue;
        }
        let Some(Model::Kernel(k)) = &f.model else { panic!("{}: no kernel expansion", m.name) };
        assert_eq!((k.rows.nrows(), k.coef.ncols()), (132, 3), "{}", m.name);
        assert!(k.bias.iter().all(|b| *b == 0.0), "{}", m.name);
        let model = f.model.as_ref().unwrap();
        let on_test = per_class(&model.score(&test).unwrap()).clone();
        assert!(on_test.iter().zip(per_class(f.test.as_ref().unwrap())).all(|(a, b)| a == b));
        let path = dir.0.join(format!("{}.npz", m.name.replace(['(', ')', ' '], "_")));
        model.save(&path).unwrap();
        let back = Model::load(&path).unwrap();
        assert_eq!(&back, model, "{}: read back", m.name);
        // The fit's unlabeled rows: the solve's scores F = K a, to rounding (measured: 2.8e-13
        // of the largest score at most, Lap-SVM; per-class balance: one-hot through the cuts, the
        // fit's classes).
        let (ours, fit) = (per_class(&model.score(&p.x_u).unwrap()).clone(), per_class(&f.scores));
        let scale = fit.iter().fold(1e-300f64, |a, v| a.max(v.abs()));
        let gap = (&ours - fit).iter().fold(0.0f64, |a, v| a.max(v.abs())) / scale;
        assert!(gap <= 1e-12, "{}: unlabeled rows differ by {gap:e} of the scale", m.name);
    }
}
