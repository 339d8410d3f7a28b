//! sslab's own families do not depend on the order of the unlabeled rows: every built-in
//! kind, fitted on a split whose unlabeled rows are grouped by class (as every generated
//! split and many datasets are) and on the same split with those rows in a random order,
//! predicts the same class for every row, with scores equal up to rounding (measured: at most
//! 1.2e-7 of the largest score apart for the iterative QP of TV-/Cheeger-SVM, which stop at a
//! tolerance, 7e-11 for Lap-RLS/SVM, 1e-15 for the direct solvers). So
//! cross-validation folds (stratified, labeled rows only), self-training's picks and
//! TSVM's switching do not see the class-grouped order; no family shuffles.
//!
//! TSVM and DA run here with `solver = "mfn"`: their default, dual CD, visits the rows in
//! order and stops at its ε, so it moves with the order (measured on split 0: DA 2 flipped
//! predictions and scores 0.24 of the largest apart, TSVM no flip and 1.2e-4).
//!
//! Not covered: exact distance ties. With the features of this test rounded to whole
//! numbers, every kNN-graph kind (graph/ and sparse_graph/) moves with the order (kNN ties
//! go to the lower row index; up to 19 of 160 predictions on one split), but measured over
//! 40 such splits the class-grouped order was no better than a random or the reversed one
//! (e.g. Lap-RLS 20.6 / 20.6 / 20.8 %, label propagation 29.8 / 29.0 / 29.5 %): no leak,
//! a tie-break. A loaded dataset's graph is built on the file's rows in file order, which
//! the split order does not change.

use std::path::Path;

use crate::common;
use ndarray::Array1;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use sslab::config::parse;
use sslab::data::Problem;
use sslab::engine::Scores;
use sslab::protocol::{derive_seed, draw};

const CONFIG: &str = r#"
[experiment]
name = "own-order"
seed = 4
splits = 2

[[datasets]]
name = "g"
kind = "synthetic"
dim = 8
mean_norm = 1.2
labeled_per_class = 6
unlabeled = 160

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
kind = "self_training"
[[methods]]
kind = "linear_rls"
lambda = 0.01
[[methods]]
kind = "linear_svm"
lambda = 0.01
[[methods]]
kind = "tsvm"
solver = "mfn"
lambda = 0.001
[[methods]]
kind = "da"
solver = "mfn"
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
eta = 100.0
lambda = 0.001
gamma = 1.0
[[methods]]
kind = "lap_svm"
lambda = 0.001
gamma = 1.0
[[methods]]
kind = "tv_rls"
eta = 100.0
gamma = 0.1
[[methods]]
kind = "cheeger_rls"
c = 0.1
[[methods]]
kind = "tv_svm"
gamma = 0.1
[[methods]]
kind = "cheeger_svm"
c = 0.1
[[methods]]
kind = "laplace"
[[methods]]
kind = "poisson"
[[methods]]
kind = "label_spreading"
[[methods]]
kind = "label_propagation"
[[methods]]
kind = "graph_lap_rls"
[[methods]]
kind = "graph_tv_rls"
[[methods]]
kind = "graph_cheeger_rls"
"#;

/// Scores of row `order[k]` given as row k, back in row order.
fn restore(s: &Scores, order: &[usize]) -> Scores {
    match s {
        Scores::Binary(v) => {
            let mut out = Array1::zeros(v.len());
            order.iter().enumerate().for_each(|(k, &r)| out[r] = v[k]);
            Scores::Binary(out)
        }
        Scores::PerClass(_) => unreachable!("two classes"),
    }
}

fn binary(s: &Scores) -> &Array1<f64> {
    match s {
        Scores::Binary(v) => v,
        Scores::PerClass(_) => unreachable!("two classes"),
    }
}

#[test]
fn every_family_predicts_the_same_in_any_unlabeled_order() {
    let exp = parse(CONFIG, Path::new("own.toml")).unwrap();
    let spec = &exp.datasets[0];
    let mut moved = Vec::new();
    for split in 0..exp.splits {
        let drawn = draw(spec, exp.seed, split).unwrap();
        let p = &drawn.problem;
        assert!(p.y_u.windows(2).into_iter().filter(|w| w[0] != w[1]).count() == 1, "grouped");
        let mut order: Vec<usize> = (0..p.n_unlabeled()).collect();
        order.shuffle(&mut ChaCha8Rng::seed_from_u64(split as u64));
        let shuffled = Problem {
            x_u: p.x_u.select_rows(&order),
            y_u: order.iter().map(|&r| p.y_u[r]).collect(),
            classes_u: order.iter().map(|&r| p.classes_u[r]).collect(),
            ..p.clone()
        };
        let seed = derive_seed(exp.seed, &spec.name, split);
        let fit = |problem: &Problem| {
            let (a, b) = (Default::default(), Default::default());
            let view = common::split(problem, &spec.source, (&a, &b), None, seed, split);
            exp.methods.iter().map(|m| m.method.fit(&view).unwrap().scores).collect::<Vec<_>>()
        };
        for ((m, grouped), random) in exp.methods.iter().zip(fit(p)).zip(fit(&shuffled)) {
            let (g, r) = (binary(&grouped).clone(), binary(&restore(&random, &order)).clone());
            let scale = g.iter().fold(0.0f64, |a, v| a.max(v.abs())).max(1e-300);
            let diff = g.iter().zip(&r).fold(0.0f64, |a, (x, y)| a.max((x - y).abs())) / scale;
            let flips = g.iter().zip(&r).filter(|(x, y)| (**x >= 0.0) != (**y >= 0.0)).count();
            // Laplace and Poisson learning stop at a residual tolerance, and their deflation
            // groups follow the node numbering: the iterates (not the solution) depend on the
            // row order, so their scores agree to the solver's tolerance, not to 1e-6.
            let tol = if matches!(m.kind.as_str(), "laplace" | "poisson") { 1e-3 } else { 1e-6 };
            if flips > 0 || diff > tol {
                moved.push(format!("{} split {split}: {flips} flips, rel diff {diff:.1e}", m.name));
            }
        }
    }
    assert!(moved.is_empty(), "order-dependent: {moved:#?}");
}
