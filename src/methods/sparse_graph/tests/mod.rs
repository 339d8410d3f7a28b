//! Tests of the graph-only methods against dense computations on small graphs.

use ndarray::Array2;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;

mod deflation;
mod engine;
mod features;
mod node_rls;
mod tv_optimality;

/// Two uniform blobs in 3-d (cubes of side 2, centres `gap` apart on the diagonal), `n`
/// points each; class 0 first. A gap of 3 leaves the kNN graph in two components.
fn blobs(n: usize, seed: u64, gap: f64) -> Array2<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    Array2::from_shape_fn((2 * n, 3), |(i, _)| {
        let centre = if i < n { 0.0 } else { gap };
        centre + rng.random::<f64>() * 2.0 - 1.0
    })
}

/// The dense W of a graph.
fn dense(g: &Graph) -> Array2<f64> {
    let mut w = Array2::zeros((g.n(), g.n()));
    for i in 0..g.n() {
        let (cols, ws) = g.row(i);
        for (&j, &x) in cols.iter().zip(ws) {
            w[[i, j as usize]] = x as f64;
        }
    }
    w
}

/// Solves A x = b by Gaussian elimination with partial pivoting (small dense systems).
fn solve(mut a: Array2<f64>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for col in 0..n {
        let piv =
            (col..n).max_by(|&r, &s| a[[r, col]].abs().total_cmp(&a[[s, col]].abs())).unwrap();
        for j in 0..n {
            a.swap([col, j], [piv, j]);
        }
        b.swap(col, piv);
        for r in col + 1..n {
            let f = a[[r, col]] / a[[col, col]];
            for j in col..n {
                a[[r, j]] -= f * a[[col, j]];
            }
            b[r] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|j| a[[r, j]] * x[j]).sum();
        x[r] = (b[r] - s) / a[[r, r]];
    }
    x
}

fn graph(n: usize, seed: u64, symmetrise: Symmetrise) -> Graph {
    let spec = KnnSpec { k: 4, symmetrise, ..KnnSpec::default() };
    spec.build(blobs(n, seed, 0.5).view()).unwrap()
}

#[test]
fn symmetrisation_rules_on_a_hand_made_graph() {
    // 0 → 1 (0.5), 1 → 0 (0.25), 1 → 2 (1.0): one pair found from both sides, one from one.
    let edges = [(0, 1, 0.5f32), (1, 0, 0.25), (1, 2, 1.0)];
    let w = |rule| dense(&Graph::from_directed(3, edges, rule).unwrap());
    let mean = w(Symmetrise::Mean);
    assert_eq!((mean[[0, 1]], mean[[1, 0]], mean[[1, 2]], mean[[2, 1]]), (0.375, 0.375, 0.5, 0.5));
    let max = w(Symmetrise::Max);
    assert_eq!((max[[0, 1]], max[[2, 1]]), (0.5, 1.0));
    let mutual = w(Symmetrise::Mutual);
    assert_eq!((mutual[[0, 1]], mutual[[1, 0]], mutual[[1, 2]]), (0.25, 0.25, 0.0));
    let none = w(Symmetrise::None);
    assert_eq!((none[[0, 1]], none[[1, 0]], none[[1, 2]], none[[2, 1]]), (0.5, 0.25, 1.0, 0.0));
    assert!(Graph::from_directed(3, [(1, 1, 1.0)], Symmetrise::Mean).is_err());
    assert!(Graph::from_directed(3, [(0, 3, 1.0)], Symmetrise::Mean).is_err());
    assert!(Graph::from_directed(3, [(0, 1, f32::NAN)], Symmetrise::Mean).is_err());
}

#[test]
fn knn_gaussian_weights_match_a_brute_force_graph() {
    let x = blobs(15, 3, 3.0);
    let (n, k) = (x.nrows(), 4);
    let g = KnnSpec { k, ..KnnSpec::default() }.build(x.view()).unwrap();
    // Brute force: each row's k nearest others, GraphLearning's weights, (W + Wᵀ)/2.
    let d2 = |i: usize, j: usize| (0..3).map(|c| (x[[i, c]] - x[[j, c]]).powi(2)).sum::<f64>();
    let mut w = Array2::<f64>::zeros((n, n));
    for i in 0..n {
        let mut others: Vec<usize> = (0..n).filter(|&j| j != i).collect();
        others.sort_by(|&a, &b| d2(i, a).total_cmp(&d2(i, b)).then(a.cmp(&b)));
        let eps = d2(i, others[k - 1]);
        for &j in &others[..k] {
            w[[i, j]] = (-4.0 * d2(i, j) / eps).exp();
        }
    }
    let expected = (&w + &w.t()) / 2.0;
    let got = dense(&g);
    for (a, b) in got.iter().zip(expected.iter()) {
        assert!((a - b).abs() < 1e-6, "{a} vs {b}");
    }
    assert!(g.is_symmetric() && got == got.t());
}

#[test]
fn csr_input_and_induced_subgraph_keep_the_weights() {
    let g = graph(10, 5, Symmetrise::Mean);
    let (indptr, indices, weights) = g.csr();
    let again = Graph::from_csr(indptr, indices, weights, Symmetrise::Max).unwrap();
    assert_eq!(again, g);
    assert!(Graph::from_csr(&[0, 2], &[0], &[1.0], Symmetrise::Max).is_err());
    let nodes = [3, 0, 7];
    let sub = dense(&g.induced(&nodes).unwrap());
    let full = dense(&g);
    for a in 0..3 {
        for b in 0..3 {
            assert_eq!(sub[[a, b]], full[[nodes[a], nodes[b]]]);
        }
    }
}

#[test]
fn a_breadth_first_renumbering_is_a_permutation_keeping_every_edge() {
    let g = graph(30, 29, Symmetrise::Mean);
    let order = g.breadth_first();
    let mut sorted = order.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..g.n()).collect::<Vec<_>>());
    let (p, w) = (dense(&g.permuted(&order)), dense(&g));
    for a in 0..g.n() {
        for b in 0..g.n() {
            assert_eq!(p[[a, b]], w[[order[a], order[b]]]);
        }
    }
}

#[test]
fn laplace_learning_equals_a_dense_solve_of_the_unlabeled_block() {
    let g = graph(20, 7, Symmetrise::Mean);
    let (nodes, classes) = ([0, 5, 25, 33], [0, 0, 1, 1]);
    let seeds = Seeds::new(&nodes, &classes, 2, g.n()).unwrap();
    let (u, report) = laplace(&g, &seeds, CgSettings { tol: 1e-12, max_iter: 1000 }).unwrap();
    assert!(report.residual <= 1e-12);
    let w = dense(&g);
    let unl: Vec<usize> = (0..g.n()).filter(|i| !nodes.contains(i)).collect();
    let d: Vec<f64> = (0..g.n()).map(|i| w.row(i).sum()).collect();
    let a = Array2::from_shape_fn((unl.len(), unl.len()), |(r, s)| {
        let (i, j) = (unl[r], unl[s]);
        if i == j { d[i] } else { -w[[i, j]] }
    });
    for class in 0..2 {
        let b: Vec<f64> = unl
            .iter()
            .map(|&i| {
                nodes
                    .iter()
                    .zip(&classes)
                    .filter(|(_, c)| **c == class)
                    .map(|(&j, _)| w[[i, j]])
                    .sum()
            })
            .collect();
        let x = solve(a.clone(), b);
        for (r, &i) in unl.iter().enumerate() {
            assert!(
                (u[2 * i + class] - x[r]).abs() < 1e-9,
                "node {i}: {} vs {}",
                u[2 * i + class],
                x[r]
            );
        }
    }
    // Labeled nodes keep their one-hot labels; a harmonic solution sums to 1 per node.
    assert_eq!((u[0], u[1], u[50], u[51]), (1.0, 0.0, 0.0, 1.0));
    assert!((0..g.n()).all(|i| (u[2 * i] + u[2 * i + 1] - 1.0).abs() < 1e-9));
}

/// Per node i, (L u − b)_i for one class column of two-class Poisson scores u, with b the
/// source y_i − ȳ on the labeled `nodes` and 0 elsewhere (dense, from the graph's W); and
/// the degrees.
fn poisson_residual(
    g: &Graph,
    u: &[f64],
    nodes: &[usize],
    classes: &[usize],
    class: usize,
) -> (Vec<f64>, Vec<f64>) {
    let w = dense(g);
    let n = g.n();
    let d: Vec<f64> = (0..n).map(|i| w.row(i).sum()).collect();
    let mean = classes.iter().filter(|&&c| c == class).count() as f64 / nodes.len() as f64;
    let r = (0..n)
        .map(|i| {
            let lu =
                d[i] * u[2 * i + class] - (0..n).map(|j| w[[i, j]] * u[2 * j + class]).sum::<f64>();
            let b = match nodes.iter().position(|&j| j == i) {
                Some(p) => f64::from(u8::from(classes[p] == class)) - mean,
                None => 0.0,
            };
            lu - b
        })
        .collect();
    (r, d)
}

#[test]
fn poisson_learning_solves_its_linear_system_with_zero_weighted_mean() {
    let g = graph(15, 11, Symmetrise::Mean);
    let (nodes, classes) = ([1, 16, 20], [0, 1, 1]);
    let seeds = Seeds::new(&nodes, &classes, 2, g.n()).unwrap();
    let (u, _) = poisson(&g, &seeds, CgSettings { tol: 1e-13, max_iter: 1000 }).unwrap();
    for class in 0..2 {
        let (r, d) = poisson_residual(&g, &u, &nodes, &classes, class);
        // (L u)_i = b_i: the source y_i − ȳ on labeled nodes, 0 elsewhere.
        for (i, r) in r.iter().enumerate() {
            assert!(r.abs() < 1e-9, "node {i}: L u − b = {r}");
        }
        // Started from zero, CG stays in the range: Σ d_i u_i = 0 (the minimum-norm solution).
        let dm: f64 = (0..g.n()).map(|i| d[i] * u[2 * i + class]).sum();
        assert!(dm.abs() < 1e-9, "{dm}");
    }
}

#[test]
fn poisson_learning_on_two_components_gives_the_least_squares_solution() {
    let spec = KnnSpec { k: 4, ..KnnSpec::default() };
    let g = spec.build(blobs(15, 23, 3.0).view()).unwrap();
    let (parts, component) = g.components();
    assert_eq!(parts, 2);
    assert!(component[..15].iter().all(|&p| p == 0) && component[15..].iter().all(|&p| p == 1));
    // Both labels in the first blob, one in the second: neither column sums to zero there.
    let (nodes, classes) = ([1, 2, 20], [0, 1, 1]);
    let seeds = Seeds::new(&nodes, &classes, 2, g.n()).unwrap();
    let (u, _) = poisson(&g, &seeds, CgSettings { tol: 1e-12, max_iter: 1000 }).unwrap();
    for class in 0..2 {
        let (r, d) = poisson_residual(&g, &u, &nodes, &classes, class);
        // Least squares for the normalised system: (L u − b)_i / d_i is constant per component.
        let r: Vec<f64> = r.iter().zip(&d).map(|(r, d)| r / d).collect();
        for part in [&r[..15], &r[15..]] {
            assert!(part.iter().all(|x| (x - part[0]).abs() < 1e-9), "{part:?}");
        }
    }
}

#[test]
fn label_spreading_converges_to_the_closed_form() {
    let g = graph(12, 13, Symmetrise::None);
    let (nodes, classes) = ([0, 13, 20], [0, 1, 2]);
    let seeds = Seeds::new(&nodes, &classes, 3, g.n()).unwrap();
    let alpha = 0.6;
    let it = IterSettings { tol: 1e-14, max_iter: 10_000 };
    let (f, steps) = label_spreading(&g, &seeds, alpha, it);
    assert!(steps < 10_000);
    // (1 − α)(I − αS)⁻¹ Y, S = D^{-1/2} W D^{-1/2} with D the column sums, rows normalised.
    let w = dense(&g);
    let n = g.n();
    let col: Vec<f64> = (0..n).map(|j| w.column(j).sum().sqrt()).collect();
    let a = Array2::from_shape_fn((n, n), |(i, j)| {
        f64::from(u8::from(i == j)) - alpha * w[[i, j]] / col[i] / col[j]
    });
    let y = seeds.one_hot(n);
    let mut closed = vec![0.0; n * 3];
    for c in 0..3 {
        let x = solve(a.clone(), (0..n).map(|i| (1.0 - alpha) * y[i * 3 + c]).collect());
        (0..n).for_each(|i| closed[i * 3 + c] = x[i]);
    }
    for i in 0..n {
        let s: f64 = closed[i * 3..i * 3 + 3].iter().sum();
        for c in 0..3 {
            assert!((f[i * 3 + c] - closed[i * 3 + c] / s).abs() < 1e-9);
        }
    }
}

#[test]
fn label_propagation_reaches_its_fixed_point_with_labels_clamped() {
    let g = graph(12, 17, Symmetrise::None);
    let (nodes, classes) = ([2, 15], [0, 1]);
    let seeds = Seeds::new(&nodes, &classes, 2, g.n()).unwrap();
    let (f, steps) = label_propagation(&g, &seeds, IterSettings { tol: 1e-13, max_iter: 100_000 });
    assert!(steps < 100_000);
    let w = dense(&g);
    for i in 0..g.n() {
        if let Some(p) = nodes.iter().position(|&j| j == i) {
            assert_eq!(f[2 * i + classes[p]], 1.0);
            continue;
        }
        // f_i ∝ f_i + Σ_j w_ij f_j, normalised.
        let t: Vec<f64> = (0..2)
            .map(|c| f[2 * i + c] + (0..g.n()).map(|j| w[[i, j]] * f[2 * j + c]).sum::<f64>())
            .collect();
        let s = t[0] + t[1];
        assert!((f[2 * i] - t[0] / s).abs() < 1e-9);
    }
}

#[test]
fn results_do_not_depend_on_the_number_of_threads() {
    let x = blobs(3000, 19, 3.0);
    let g = KnnSpec::default().build(x.view()).unwrap();
    let nodes: Vec<usize> = (0..6000).step_by(500).collect();
    let classes: Vec<usize> = nodes.iter().map(|&i| usize::from(i >= 3000)).collect();
    let seeds = Seeds::new(&nodes, &classes, 2, g.n()).unwrap();
    let run = |threads| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let cg = CgSettings { tol: 1e-5, max_iter: 10_000 };
            let it = IterSettings { tol: 1e-3, max_iter: 30 };
            (
                laplace(&g, &seeds, cg).unwrap().0,
                poisson(&g, &seeds, cg).unwrap().0,
                label_spreading(&g, &seeds, 0.2, it).0,
            )
        })
    };
    assert_eq!(run(1), run(3));
}

#[test]
fn parameters_are_checked() {
    let mut p = SparseParams::new(SparseKind::Laplace);
    p.graph.symmetrise = Symmetrise::None;
    assert!(p.check().is_err());
    let mut p = SparseParams::new(SparseKind::LabelSpreading);
    p.alpha = 1.0;
    assert!(p.check().is_err());
    let mut p = SparseParams::new(SparseKind::Poisson);
    p.tol = 0.0;
    assert!(p.check().is_err());
    assert!(Seeds::new(&[0, 0], &[0, 1], 2, 3).is_err());
    assert!(Seeds::new(&[0], &[2], 2, 3).is_err());
}
