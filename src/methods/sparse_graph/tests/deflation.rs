//! Deflated CG (`deflation.rs`) against plain CG on the same systems, and the aggregates it
//! deflates on (`aggregates.rs`).

use super::super::deflation::deflated_cg;
use super::super::operator::Operator;
use super::*;
use crate::linalg::block_cg;

/// The systems of Poisson learning (singular: z = √d spans the null space) and of Laplace
/// learning (the unlabeled block) on the kNN graph of two overlapping blobs of 1,000 points.
#[test]
fn deflated_cg_equals_plain_cg_in_fewer_steps_on_any_number_of_threads() {
    let g = KnnSpec::default().build(blobs(1000, 5, 0.5).view()).unwrap();
    let (n, c) = (g.n(), 3);
    let d = g.degrees();
    let s: Vec<f64> = d.iter().map(|d| 1.0 / d.sqrt()).collect();
    let labeled: Vec<bool> = (0..n).map(|i| i % 97 == 0).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut source: Vec<f64> = (0..n * c).map(|_| rng.random::<f64>() - 0.5).collect();
    for k in 0..c {
        let mean = (0..n).map(|i| source[i * c + k]).sum::<f64>() / n as f64;
        (0..n).for_each(|i| source[i * c + k] -= mean);
    }
    let poisson_b: Vec<f64> = (0..n * c).map(|e| s[e / c] * source[e]).collect();
    let laplace_b: Vec<f64> =
        (0..n * c).map(|e| if labeled[e / c] { 0.0 } else { poisson_b[e] }).collect();
    let poisson_a = Operator::scaled_laplacian(&g, &s, |_| true, vec![1.0; n]);
    let diag = (0..n).map(|i| if labeled[i] { 0.0 } else { d[i] * s[i] * s[i] }).collect();
    let laplace_a = Operator::scaled_laplacian(&g, &s, |i| !labeled[i], diag);
    let z_all: Vec<f64> = d.iter().map(|d| d.sqrt()).collect();
    let z_unl: Vec<f64> = (0..n).map(|i| if labeled[i] { 0.0 } else { z_all[i] }).collect();
    let agg = g.aggregates();
    assert!(agg.count >= 50, "{} aggregates", agg.count);
    let cg = CgSettings { tol: 1e-10, max_iter: 10_000 };
    for (a, b, z) in [(&poisson_a, &poisson_b, &z_all), (&laplace_a, &laplace_b, &z_unl)] {
        let (plain, plain_report) = block_cg(b, c, cg.tol, cg.max_iter, a).unwrap();
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| deflated_cg(a, agg, z, b, c, (cg.tol, cg.max_iter)).unwrap())
        };
        let (x, report) = run(1);
        assert_eq!((x.clone(), report), run(2));
        assert!(report.iterations < plain_report.iterations, "{report:?} vs {plain_report:?}");
        // Its own residual, recomputed: ‖b − Ax‖_F ≤ tol.
        let mut ax = vec![0.0; n * c];
        a.apply(c, &x, &mut ax);
        let r = ax.iter().zip(b).map(|(ax, b)| (b - ax).powi(2)).sum::<f64>().sqrt();
        assert!(r <= 1.01 * cg.tol, "residual {r}");
        let scale = plain.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for (p, q) in plain.iter().zip(&x) {
            assert!((p - q).abs() <= 1e-7 * scale, "{p} vs {q}");
        }
    }
}

#[test]
fn aggregates_partition_each_component_into_connected_groups() {
    let g = KnnSpec { k: 4, ..KnnSpec::default() }.build(blobs(400, 9, 3.0).view()).unwrap();
    let (parts, component) = g.components();
    assert_eq!(parts, 2);
    let agg = g.aggregates();
    let mut members = vec![Vec::new(); agg.count];
    for (i, &q) in agg.group.iter().enumerate() {
        members[q as usize].push(i);
    }
    // Numbered in order of their first node, none empty, none across components.
    let firsts: Vec<usize> = members.iter().map(|m| m[0]).collect();
    assert!(firsts.windows(2).all(|w| w[0] < w[1]));
    for m in &members {
        assert!(m.iter().all(|&i| component[i] == component[m[0]]));
        // Connected within itself: a search from its first node reaches all of it.
        let mut seen = vec![m[0]];
        let mut next = 0;
        while next < seen.len() {
            let i = seen[next];
            next += 1;
            for &j in g.row(i).0 {
                let j = j as usize;
                if agg.group[j] == agg.group[i] && !seen.contains(&j) {
                    seen.push(j);
                }
            }
        }
        assert_eq!(seen.len(), m.len(), "group of node {} is not connected", m[0]);
    }
    assert!(agg.count >= 2 * parts && agg.count <= 800 / 8, "{} aggregates", agg.count);
}
