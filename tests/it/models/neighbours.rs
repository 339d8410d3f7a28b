//! The graph-only kinds' neighbours model: on two and three classes every kind's model
//! scores the unlabeled rows as the fit, bit for bit, scores the test rows, and reads back
//! from its file with the same bits; the rule (weighted mean over the k nearest fit rows,
//! a fit row's own scores at distance 0) against a brute-force computation; a graph given
//! as a file refuses `save_models`.

use std::path::Path;
use std::sync::Arc;

use ndarray::{Array2, ArrayView1};
use sslab::config::parse;
use sslab::data::{Features, Problem};
use sslab::engine::{KnnWeights, Model, Neighbours, Scores};

use super::same_bits;
use crate::common::{self, TempDir};

const KINDS: &str = r#"
[experiment]
name = "nb"
seed = 1
splits = 1

[[datasets]]
name = "g"
kind = "synthetic"
dim = 3
mean_norm = 2.0
labeled_per_class = 2
unlabeled = 10

[[methods]]
kind = "laplace"
k = 4
[[methods]]
kind = "poisson"
k = 4
weighting = "self_tuning"
[[methods]]
kind = "label_spreading"
k = 4
weighting = "binary"
[[methods]]
kind = "label_propagation"
k = 5
[[methods]]
kind = "graph_lap_rls"
k = 4
[[methods]]
kind = "graph_tv_rls"
k = 4
[[methods]]
kind = "graph_cheeger_rls"
k = 4
"#;

/// A fixed scatter in [−1, 1) (golden-ratio steps), coordinate j of point i.
fn scatter(i: usize, j: usize) -> f64 {
    ((i * 7 + j * 13 + 1) as f64 * 0.618_033_988_749_894_9).fract() * 2.0 - 1.0
}

/// `n` points of `classes` clusters in 3 features (class of point i: i mod classes).
fn points(n: usize, classes: usize, from: usize) -> (Array2<f64>, Vec<usize>) {
    let centre = |c: usize, j: usize| if j == c % 3 { 3.0 } else { 0.0 };
    let class: Vec<usize> = (0..n).map(|i| i % classes).collect();
    let x = Array2::from_shape_fn((n, 3), |(i, j)| centre(class[i], j) + scatter(from + i, j));
    (x, class)
}

/// The bits of two score sets, any number of columns.
fn same(a: &Scores, b: &Scores) -> bool {
    let flat = |s: &Scores| match s {
        Scores::Binary(v) => v.clone(),
        Scores::PerClass(m) => m.iter().copied().collect(),
    };
    matches!(
        (a, b),
        (Scores::Binary(_), Scores::Binary(_)) | (Scores::PerClass(_), Scores::PerClass(_))
    ) && same_bits(&flat(a), &flat(b))
}

#[test]
fn every_graph_only_kind_scores_its_fit_rows_as_the_fit_and_survives_a_file() {
    let exp = parse(KINDS, Path::new("nb.toml")).unwrap();
    let spec = &exp.datasets[0];
    let dir = TempDir::new("neighbours");
    for classes in [2, 3] {
        let (x_l, c_l) = points(2 * classes, classes, 0);
        let (x_u, c_u) = points(40, classes, 100);
        let (test, _) = points(15, classes, 500);
        let sign = |c: &Vec<usize>| c.iter().map(|&c| if c == 0 { 1.0 } else { -1.0 }).collect();
        let problem = Problem {
            x_l: x_l.into(),
            y_l: sign(&c_l),
            x_u: x_u.into(),
            y_u: sign(&c_u),
            classes_l: c_l,
            classes_u: c_u,
            n_classes: classes,
        };
        let test = Features::Dense(test);
        let (a, b) = (Default::default(), Default::default());
        let view = common::split(&problem, &spec.source, (&a, &b), Some(&test), 1, 0);
        for m in &exp.methods {
            let f = m.method.fit(&view).unwrap();
            let model = f.model.as_ref().unwrap_or_else(|| panic!("{}: no model", m.name));
            assert!(matches!(model, Model::Neighbours(_)), "{}", m.name);
            let what = format!("{} on {classes} classes", m.name);
            assert!(same(&model.score(&problem.x_u).unwrap(), &f.scores), "{what}: unlabeled");
            let on_test = model.score(&test).unwrap();
            assert!(same(&on_test, f.test.as_ref().unwrap()), "{what}: test");
            let path = dir.0.join(format!("{classes}-{}.npz", m.kind));
            model.save(&path).unwrap();
            let back = Model::load(&path).unwrap();
            assert_eq!(&back, model, "{what}: read back");
            assert!(same(&back.score(&test).unwrap(), &on_test), "{what}: read back scores");
            assert!(same(&back.score(&problem.x_u).unwrap(), &f.scores), "{what}: read back");
        }
    }
}

/// Squared distance by differences.
fn d2(a: ArrayView1<f64>, b: ArrayView1<f64>) -> f64 {
    a.iter().zip(b).map(|(u, v)| (u - v) * (u - v)).sum()
}

/// The rule written out: the first equal row's scores, else the weighted mean over the k
/// nearest rows (ties by index) with d_k² of the point and of each row from a full sort.
fn brute(
    rows: &Array2<f64>,
    scores: &Array2<f64>,
    k: usize,
    w: KnnWeights,
    q: ArrayView1<f64>,
) -> Vec<f64> {
    let n = rows.nrows();
    if let Some(j) = (0..n).find(|&j| rows.row(j) == q) {
        return scores.row(j).to_vec();
    }
    let sorted = |mut v: Vec<(f64, usize)>| {
        v.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        v
    };
    let near = sorted((0..n).map(|j| (d2(q, rows.row(j)), j)).collect());
    let kq = near[k - 1].0;
    let kth_row = |j: usize| {
        sorted((0..n).filter(|&i| i != j).map(|i| (d2(rows.row(j), rows.row(i)), i)).collect())
            [k - 1]
            .0
    };
    let (mut num, mut den) = (vec![0.0; scores.ncols()], 0.0);
    for &(d, j) in &near[..k] {
        let weight = match w {
            KnnWeights::KnnGaussian => (-4.0 * d / kq).exp(),
            KnnWeights::SelfTuning => (-d / (kq * kth_row(j)).sqrt()).exp(),
            KnnWeights::Binary => 1.0,
        };
        den += weight;
        num.iter_mut().zip(scores.row(j)).for_each(|(a, s)| *a += weight * s);
    }
    num.iter().map(|a| a / den).collect()
}

#[test]
fn the_neighbours_rule_against_a_brute_force_computation() {
    let (mut rows, _) = points(14, 2, 40);
    // Rows 9 and 10 the same point: a point equal to both takes row 9's scores.
    let nine = rows.row(9).to_owned();
    rows.row_mut(10).assign(&nine);
    let (queries, _) = points(7, 3, 900);
    let mut queries = queries;
    queries.row_mut(3).assign(&rows.row(5));
    queries.row_mut(4).assign(&nine);
    let rows = Arc::new(rows);
    for columns in [1, 3] {
        let scores = Array2::from_shape_fn((14, columns), |(i, c)| scatter(i, c + 5) * 2.0);
        for w in KnnWeights::ALL {
            let model = Neighbours::new(rows.clone(), scores.clone(), 3, w).unwrap();
            let got = Model::Neighbours(model).score(&Features::Dense(queries.clone())).unwrap();
            let got: Array2<f64> = match got {
                Scores::Binary(v) => v.insert_axis(ndarray::Axis(1)),
                Scores::PerClass(m) => m,
            };
            for (q, row) in queries.rows().into_iter().zip(got.rows()) {
                let want = brute(&rows, &scores, 3, w, q);
                for (a, b) in row.iter().zip(&want) {
                    assert!((a - b).abs() <= 1e-12, "{w:?}, {columns} columns: {a} vs {b}");
                }
            }
            assert_eq!(got.row(3), scores.row(5), "a fit row's own scores");
            assert_eq!(got.row(4), scores.row(9), "the first of equal rows");
        }
    }
    let bad = Neighbours::new(rows.clone(), Array2::zeros((14, 1)), 14, KnnWeights::Binary);
    assert!(bad.unwrap_err().to_string().contains("k = 14"));
    let one = Model::Neighbours(
        Neighbours::new(rows, Array2::zeros((14, 1)), 2, KnnWeights::Binary).unwrap(),
    );
    assert!(one.score(&Features::Dense(Array2::zeros((1, 2)))).is_err(), "width 2 of 3");
}

#[test]
fn a_graph_file_refuses_save_models_saying_why() {
    let dir = TempDir::new("graph-file-model");
    std::fs::write(dir.0.join("w.npz"), b"not read when checking").unwrap();
    let config = KINDS.replace("splits = 1", "splits = 1\nsave_models = true")
        + "[[methods]]\nname = \"given\"\nkind = \"laplace\"\ngraph = \"w.npz\"\n";
    let err = parse(&config, &dir.0.join("nb.toml")).unwrap_err().to_string();
    assert!(err.contains("methods[7] (`given`)") && err.contains("leaves no model"), "{err}");
    assert!(err.contains("w.npz (no features"), "{err}");
    assert!(parse(&config.replace("save_models = true", ""), &dir.0.join("nb.toml")).is_ok());
}
