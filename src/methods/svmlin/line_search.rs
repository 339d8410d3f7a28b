//! Exact line search of l2-SVM-MFN: along w + t(w̄ − w) the objective is a convex piecewise
//! quadratic in t; its derivative is piecewise linear and increasing, with a breakpoint
//! wherever an example enters or leaves the active set. Sorting the breakpoints and walking
//! them finds where the derivative crosses zero.

use super::examples::Examples;

/// The minimiser t ≥ 0 of ½λ‖w + t(w̄−w)‖² + ½ Σ_k c_k max(0, 1 − y_k(o + t(ō−o))_{row k})².
/// `o`, `o_bar` are the outputs of w and w̄ on every design row; `breaks` is workspace.
pub fn line_search(
    lambda: f64,
    w: &[f64],
    w_bar: &[f64],
    o: &[f64],
    o_bar: &[f64],
    ex: &Examples,
    breaks: &mut Vec<(f64, usize)>,
) -> f64 {
    // φ'(t) = slope + t·curvature on the current segment.
    let (mut slope, mut curvature) = (0.0, 0.0);
    for (wj, bj) in w.iter().zip(w_bar) {
        let dj = bj - wj;
        slope += lambda * wj * dj;
        curvature += lambda * dj * dj;
    }
    // Example k's error e0 at t = 0, its rate s and whether it is active at t = 0 (+).
    let at = |(i, y, _): (usize, f64, f64)| {
        let e0 = 1.0 - y * o[i];
        let s = y * (o_bar[i] - o[i]);
        (e0, s, e0 > 0.0 || (e0 == 0.0 && s < 0.0))
    };
    let mut count = 0;
    for (i, y, c) in ex.iter().filter(|e| e.2 != 0.0) {
        let (e0, s, active) = at((i, y, c));
        if active {
            slope -= c * e0 * s;
            curvature += c * s * s;
        }
        count += usize::from((active && s > 0.0) || (!active && s < 0.0));
    }
    if slope >= 0.0 || curvature <= 0.0 {
        return 0.0;
    }
    // A second pass collects the breakpoints into exactly the room they need.
    breaks.clear();
    breaks.reserve_exact(count);
    for (k, e) in ex.iter().enumerate().filter(|(_, e)| e.2 != 0.0) {
        let (e0, s, active) = at(e);
        if (active && s > 0.0) || (!active && s < 0.0) {
            breaks.push((e0 / s, k));
        }
    }
    breaks.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    for &(t, k) in breaks.iter() {
        if slope + t * curvature >= 0.0 {
            break;
        }
        let (i, y, c) = ex.get(k);
        let e0 = 1.0 - y * o[i];
        let s = y * (o_bar[i] - o[i]);
        // s > 0: the example leaves the active set; s < 0: it enters.
        let sign = if s > 0.0 { -1.0 } else { 1.0 };
        slope -= sign * c * e0 * s;
        curvature += sign * c * s * s;
    }
    if curvature <= 0.0 { 0.0 } else { -slope / curvature }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::svmlin::cgls::dot;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The objective along the segment at `t`, computed directly.
    fn along(
        lambda: f64,
        w: &[f64],
        w_bar: &[f64],
        o: &[f64],
        o_bar: &[f64],
        ex: &Examples,
        t: f64,
    ) -> f64 {
        let wt: Vec<f64> = w.iter().zip(w_bar).map(|(a, b)| a + t * (b - a)).collect();
        let ot: Vec<f64> = o.iter().zip(o_bar).map(|(a, b)| a + t * (b - a)).collect();
        0.5 * lambda * dot(&wt, &wt) + ex.loss(&ot)
    }

    #[test]
    fn finds_the_one_dimensional_minimum_of_a_fine_grid() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut breaks = Vec::new();
        for trial in 0..50 {
            let (n, d) = (30, 4);
            let lambda = 0.1 + trial as f64 * 0.05;
            let w: Vec<f64> = (0..d).map(|_| rng.random_range(-1.0..1.0)).collect();
            let w_bar: Vec<f64> = (0..d).map(|_| rng.random_range(-2.0..2.0)).collect();
            let o: Vec<f64> = (0..n).map(|_| rng.random_range(-2.0..2.0)).collect();
            let o_bar: Vec<f64> = (0..n).map(|_| rng.random_range(-3.0..3.0)).collect();
            let mut ex = Examples::default();
            for i in 0..n {
                // Some rows carry both labels, as in deterministic annealing.
                ex.push(
                    i,
                    if rng.random_bool(0.5) { 1.0 } else { -1.0 },
                    rng.random_range(0.0..1.0),
                );
                if i % 3 == 0 {
                    ex.push(i, -ex.y[ex.len() - 1], rng.random_range(0.0..1.0));
                }
            }
            let t = line_search(lambda, &w, &w_bar, &o, &o_bar, &ex, &mut breaks);
            let f = |t: f64| along(lambda, &w, &w_bar, &o, &o_bar, &ex, t);
            let grid_min = (0..=40_000).map(|k| f(k as f64 * 1e-4)).fold(f64::INFINITY, f64::min);
            assert!(t >= 0.0);
            assert!(f(t) <= grid_min + 1e-12, "trial {trial}: f({t}) = {} > grid {grid_min}", f(t));
            // Optimality: no better point just beside t.
            assert!(f(t) <= f(t + 1e-6) && (t == 0.0 || f(t) <= f(t - 1e-6)));
        }
    }
}
