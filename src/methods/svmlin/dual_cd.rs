//! Dual coordinate descent for the l2-SVM (Hsieh, Chang, Lin, Keerthi & Sundararajan,
//! ICML 2008: the algorithm of LIBLINEAR's `-s 1`), with its shrinking heuristic.
//!
//! The primal ½λ‖w‖² + ½ Σ_i max(0, 1 − y_i x_iᵀw)² is ½‖w‖² + C Σ_i ξ_i² with C = 1/(2λ)
//! scaled by λ; its dual is min ½αᵀ(Q + λI)α − Σα, α ≥ 0, with Q_ij = y_i y_j x_iᵀx_j and
//! w = Σ y_i α_i x_i (the bias is the design's constant feature). Each step minimises over
//! one α_i exactly (one gather and, when α_i moves, one scatter of row i), rows in a random
//! order per epoch from a fixed seed. Rows whose α_i = 0 has a gradient above the last
//! epoch's largest projected gradient leave the active set; the run stops when the spread
//! of projected gradients over the active set is ≤ ε, after one more check over all rows.

use rand::SeedableRng;
use rand::seq::SliceRandom;

use super::design::Design;
use crate::data::Column;

/// Stopping rule and order of [`dual_cd`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DualCdOptions {
    /// Stop when max − min of the projected gradients is ≤ epsilon (LIBLINEAR's `-e`).
    pub epsilon: f64,
    /// Epochs (passes over the active rows) at most.
    pub max_epochs: usize,
    /// Seed of the rows' order.
    pub seed: u64,
}

impl Default for DualCdOptions {
    fn default() -> Self {
        DualCdOptions { epsilon: 0.1, max_epochs: 1000, seed: 0 }
    }
}

/// How a dual coordinate descent run ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DualCdReport {
    /// The stopping rule was met over all rows (else the epoch cap stopped it).
    pub converged: bool,
    pub epochs: usize,
}

/// Minimises ½λ‖w‖² + ½ Σ_i max(0, 1 − y_i x_iᵀw)² over the rows of `x` (labels `y`, ±1)
/// from w = 0; returns w (bias last) and a report.
pub fn dual_cd(
    x: &Design,
    y: &[f64],
    lambda: f64,
    opts: &DualCdOptions,
) -> (Vec<f64>, DualCdReport) {
    if x.narrow() { solve::<u16>(x, y, lambda, opts) } else { solve::<u32>(x, y, lambda, opts) }
}

/// [`dual_cd`] with the design's column indices read as `I` (the width picked once).
fn solve<I: Column>(
    x: &Design,
    y: &[f64],
    lambda: f64,
    opts: &DualCdOptions,
) -> (Vec<f64>, DualCdReport) {
    let n = x.nrows();
    assert_eq!(y.len(), n, "dual_cd: one label per row");
    let mut w = vec![0.0; x.ncols()];
    let mut alpha = vec![0.0; n];
    // Q_ii + λ: the row's squared norm with its bias 1.
    let diag: Vec<f64> = (0..n).map(|i| x.row_norm2_as::<I>(i) + lambda).collect();
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(opts.seed);
    // α has no upper bound (the squared hinge), so only α_i = 0 rows are ever shrunk.
    let (mut active, mut pg_max_old) = (n, f64::INFINITY);
    for epoch in 1..=opts.max_epochs {
        order[..active].shuffle(&mut rng);
        let (mut pg_max, mut pg_min) = (f64::NEG_INFINITY, f64::INFINITY);
        let mut s = 0;
        while s < active {
            let i = order[s] as usize;
            let g = y[i] * x.dot_as::<I>(i, &w) - 1.0 + lambda * alpha[i];
            let pg = if alpha[i] == 0.0 {
                if g > pg_max_old {
                    active -= 1;
                    order.swap(s, active);
                    continue;
                }
                g.min(0.0)
            } else {
                g
            };
            pg_max = pg_max.max(pg);
            pg_min = pg_min.min(pg);
            if pg.abs() > 1e-12 {
                let old = alpha[i];
                alpha[i] = (old - g / diag[i]).max(0.0);
                x.add_row_as::<I>(i, (alpha[i] - old) * y[i], &mut w);
            }
            s += 1;
        }
        if pg_max - pg_min <= opts.epsilon {
            if active == n {
                return (w, DualCdReport { converged: true, epochs: epoch });
            }
            // Check once more over every row before stopping.
            (active, pg_max_old) = (n, f64::INFINITY);
            continue;
        }
        pg_max_old = if pg_max <= 0.0 { f64::INFINITY } else { pg_max };
    }
    (w, DualCdReport { converged: false, epochs: opts.max_epochs })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{Csr, Features};
    use crate::methods::svmlin::{Examples, MfnOptions, MfnWork, mfn, objective, with_bias};
    use rand::{Rng, SeedableRng};

    /// On random sparse data, the dual solution's primal objective meets MFN's to 1e-9
    /// relative at a tight ε, and the KKT conditions hold: λw = Σ_i y_i c_i max(0, 1 − y_i o_i) x_i.
    #[test]
    fn reaches_the_mfn_optimum_and_its_optimality_condition() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let (n, d) = (300, 40);
        let (mut indptr, mut indices, mut values, mut y) = (vec![0], vec![], vec![], vec![]);
        for _ in 0..n {
            let label = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
            for j in 0..d {
                if rng.random_bool(0.2) {
                    indices.push(j as u32);
                    values
                        .push(rng.random_range(-1.0..1.0) + if j < 5 { 0.6 * label } else { 0.0 });
                }
            }
            indptr.push(indices.len());
            y.push(label);
        }
        let f = Features::Sparse(Csr::new(d, indptr, indices, values).unwrap());
        let x = with_bias(&[&f]).unwrap();
        let mut ex = Examples::default();
        for (i, &yi) in y.iter().enumerate() {
            ex.push(i, yi, 1.0);
        }
        for lambda in [1.0, 0.01] {
            let opts = DualCdOptions { epsilon: 1e-8, max_epochs: 100_000, seed: 0 };
            let (w, rep) = dual_cd(&x, &y, lambda, &opts);
            assert!(rep.converged, "{rep:?}");
            let mut o = vec![0.0; n];
            x.mul_vec(&w, &mut o);
            let mut w_mfn = vec![0.0; d + 1];
            let mut work = MfnWork::default();
            mfn(&x, &ex, lambda, &MfnOptions::default(), &mut w_mfn, &mut work);
            let (f_cd, f_mfn) =
                (objective(lambda, &w, &ex, &o), objective(lambda, &w_mfn, &ex, work.outputs()));
            assert!((f_cd - f_mfn).abs() <= 1e-9 * f_mfn, "λ = {lambda}: {f_cd} against {f_mfn}");
            // Gradient of the primal at w: λw − Σ y_i max(0, 1 − y_i o_i) x_i.
            let mut g = w.iter().map(|v| lambda * v).collect::<Vec<_>>();
            for i in 0..n {
                let slack = (1.0 - y[i] * o[i]).max(0.0);
                x.add_row(i, -y[i] * slack, &mut g);
            }
            assert!(g.iter().all(|v| v.abs() < 1e-6), "λ = {lambda}: gradient {g:?}");
        }
    }

    /// The same seed gives the same bits; a loose ε stops sooner.
    #[test]
    fn deterministic_and_looser_tolerances_stop_sooner() {
        let x = Csr::new(
            2,
            vec![0, 2, 3, 5, 6],
            vec![0, 1, 0, 0, 1, 1],
            vec![1.0, 0.5, 2.0, -1.0, -0.5, -2.0],
        );
        let f = Features::Sparse(x.unwrap());
        let x = with_bias(&[&f]).unwrap();
        let y = [1.0, 1.0, -1.0, -1.0];
        let tight = DualCdOptions { epsilon: 1e-10, ..DualCdOptions::default() };
        let (a, ra) = dual_cd(&x, &y, 0.5, &tight);
        let (b, _) = dual_cd(&x, &y, 0.5, &tight);
        assert_eq!(a, b);
        let (_, loose) = dual_cd(&x, &y, 0.5, &DualCdOptions { epsilon: 0.5, ..tight });
        assert!(ra.converged && loose.converged && loose.epochs < ra.epochs, "{ra:?} {loose:?}");
    }
}
