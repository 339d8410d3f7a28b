//! TV-RLS on the nodes against the optimality conditions of its convex problem on a small
//! hand-made graph: min_f γ Σ_{i<j} w_ij |f_i − f_j| + ½ Σ_i a_i (f_i − b_i)², optimal iff
//! there are edge duals p_e ∈ [−γw_e, γw_e], p_e = γ w_e sign(f_i − f_j) where f_i ≠ f_j,
//! with a_i (f_i − b_i) + (Bp)_i = 0 (B the ±1 incidence). The duals come from an
//! independent solver: accelerated projected gradient on the dual with restarts.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::methods::graph::RofSettings;
use crate::methods::sparse_graph::*;

/// A ring of 9 nodes with uneven weights and four chords.
fn ring() -> Graph {
    let ring = (0..9).map(|i| (i, (i + 1) % 9, 1.0 + 0.25 * (i % 3) as f32));
    let chords = [(0, 4, 0.5), (2, 6, 0.8), (1, 7, 0.3), (3, 8, 1.2)];
    Graph::from_directed(9, ring.chain(chords), Symmetrise::Max).unwrap()
}

/// The edges (i, j, w_ij), i < j.
fn edges(g: &Graph) -> Vec<(usize, usize, f64)> {
    let rows = (0..g.n()).flat_map(|i| {
        let (cols, ws) = g.row(i);
        cols.iter().zip(ws).map(move |(&j, &w)| (i, j as usize, w as f64))
    });
    rows.filter(|&(i, j, _)| i < j).collect()
}

fn objective(e: &[(usize, usize, f64)], gamma: f64, a: &[f64], b: &[f64], f: &[f64]) -> f64 {
    let tv: f64 = e.iter().map(|&(i, j, w)| w * (f[i] - f[j]).abs()).sum();
    let fit: f64 = (0..f.len()).map(|i| a[i] * (f[i] - b[i]) * (f[i] - b[i])).sum();
    gamma * tv + 0.5 * fit
}

/// (Bp)_i = Σ_{e = (i, ·)} p_e − Σ_{e = (·, i)} p_e.
fn incidence(e: &[(usize, usize, f64)], p: &[f64], n: usize) -> Vec<f64> {
    let mut q = vec![0.0; n];
    for (&(i, j, _), &pe) in e.iter().zip(p) {
        q[i] += pe;
        q[j] -= pe;
    }
    q
}

/// The dual min_p Σ_i (a_i b_i − (Bp)_i)² / (2a_i) over |p_e| ≤ γ w_e by FISTA with
/// gradient restarts; its primal point is f = b − Bp/a. Returns p.
fn dual_reference(e: &[(usize, usize, f64)], gamma: f64, a: &[f64], b: &[f64]) -> Vec<f64> {
    let n = a.len();
    let mut degree = vec![0.0; n];
    for &(i, j, _) in e {
        degree[i] += 1.0;
        degree[j] += 1.0;
    }
    let a_min = a.iter().copied().fold(f64::INFINITY, f64::min);
    let step = a_min / (2.0 * degree.iter().copied().fold(0.0, f64::max));
    let (mut p, mut z, mut t) = (vec![0.0; e.len()], vec![0.0; e.len()], 1.0f64);
    for _ in 0..400_000 {
        let q = incidence(e, &z, n);
        let u: Vec<f64> = (0..n).map(|i| b[i] - q[i] / a[i]).collect();
        let next: Vec<f64> = e
            .iter()
            .zip(&z)
            .map(|(&(i, j, w), &ze)| (ze + step * (u[i] - u[j])).clamp(-gamma * w, gamma * w))
            .collect();
        let t_next = (1.0 + (1.0 + 4.0 * t * t).sqrt()) / 2.0;
        // Restart when the step goes against the momentum.
        let against: f64 = (0..e.len()).map(|k| (z[k] - next[k]) * (next[k] - p[k])).sum();
        let (mom, t_new) = if against > 0.0 { (0.0, 1.0) } else { ((t - 1.0) / t_next, t_next) };
        z = (0..e.len()).map(|k| next[k] + mom * (next[k] - p[k])).collect();
        (p, t) = (next, t_new);
    }
    p
}

#[test]
fn graph_tv_rls_meets_the_optimality_conditions() {
    let g = ring();
    let e = edges(&g);
    let n = g.n();
    let (nodes, classes) = ([0, 4, 6], [0, 1, 0]);
    let labels = Seeds::new(&nodes, &classes, 2, n).unwrap().signed(n, false).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let (mut jumps, mut plateaus) = (0, 0);
    for (eta, lambda, gamma) in
        [(1.0, 0.1, 0.02), (1.0, 0.1, 0.15), (2.0, 0.5, 0.6), (1.0, 0.3, 3.0)]
    {
        let w = RlsWeights { eta, lambda, gamma };
        // The gap bounds the objective's error, whose square root bounds f's: run to the
        // cap, far past the default rule.
        let settings = RofSettings { tol: 1e-16, max_iter: 300_000 };
        let f = tv_rls(&g, &labels, w, settings).unwrap().0;
        let a = w.diagonal(&labels.labeled);
        let b: Vec<f64> = (0..n).map(|i| eta * labels.y[i] / a[i]).collect();
        // The independent solver's primal point is ours.
        let p = dual_reference(&e, gamma, &a, &b);
        let q = incidence(&e, &p, n);
        let reference: Vec<f64> = (0..n).map(|i| b[i] - q[i] / a[i]).collect();
        for (x, y) in f.iter().zip(&reference) {
            assert!((x - y).abs() < 1e-7, "γ = {gamma}: {x} vs {y}");
        }
        for i in 0..n {
            let stationarity = a[i] * (f[i] - b[i]) + q[i];
            assert!(stationarity.abs() < 1e-7, "γ = {gamma}, node {i}: {stationarity:e}");
        }
        // Edge duals in the box, at the bound with the sign of the jump where f jumps.
        for (&(i, j, we), &pe) in e.iter().zip(&p) {
            assert!(pe.abs() <= gamma * we * (1.0 + 1e-12));
            if (f[i] - f[j]).abs() > 1e-6 {
                jumps += 1;
                let bound = gamma * we * (f[i] - f[j]).signum();
                assert!((pe - bound).abs() < 1e-7, "γ = {gamma}, ({i}, {j}): {pe} vs {bound}");
            } else {
                plateaus += 1;
            }
        }
        if gamma == 0.6 {
            // Two levels: node 4 (label −1) against the rest, joined by edges of weight 2.75;
            // a plateau's value is (Σ a_i b_i ∓ γ·cut)/Σ a_i, here Σ a_i b_i = ±η per label.
            let rest = (2.0 * eta - gamma * 2.75) / (2.0 * (eta + lambda) + 6.0 * lambda);
            assert!((f[4] - (-eta + gamma * 2.75) / (eta + lambda)).abs() < 1e-7, "{f:?}");
            assert!((0..n).all(|i| i == 4 || (f[i] - rest).abs() < 1e-7), "{f:?}");
        }
        // No random perturbation lowers the objective.
        let best = objective(&e, gamma, &a, &b, &f);
        for trial in 0..500 {
            let scale = 10f64.powi(-(trial % 7));
            let moved: Vec<f64> =
                f.iter().map(|v| v + scale * rng.random_range(-1.0..1.0)).collect();
            let value = objective(&e, gamma, &a, &b, &moved);
            assert!(value >= best - 1e-13, "γ = {gamma}: {value} < {best}");
        }
    }
    // The cases cover both kinds of edge.
    assert!(jumps > 5 && plateaus > 5, "{jumps} jumps, {plateaus} plateau edges");
}
