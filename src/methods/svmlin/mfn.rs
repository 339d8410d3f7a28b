//! l2-SVM-MFN (modified finite Newton, Keerthi & DeCoste 2005): minimise
//! ½λ‖w‖² + ½ Σ_k c_k max(0, 1 − y_k o_k)² by Newton steps on the active set
//! j(w) = {k : y_k o_k < 1}, each solved by CGLS and followed by the exact line search.

use super::cgls::{CglsOptions, CglsWork, Subset, cgls};
use super::design::Design;
use super::examples::{Examples, objective};
use super::line_search::line_search;

/// Stopping constants (the public release's defaults).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MfnOptions {
    /// Tolerance of the first stage (CGLS and active-set consistency).
    pub coarse_epsilon: f64,
    /// Tolerance of the second, final stage.
    pub epsilon: f64,
    /// Newton steps at most.
    pub max_newton: usize,
    /// CG iterations per Newton step at most.
    pub max_cg: usize,
    /// CG iterations of the first step when starting from w = 0.
    pub first_cg: usize,
    /// Stop when |F − F_old| < rel_stop·|F_old|.
    pub rel_stop: f64,
    /// CGLS with the diagonal preconditioner ([`CglsOptions::precondition`]).
    pub precondition: bool,
}

impl Default for MfnOptions {
    fn default() -> Self {
        MfnOptions {
            coarse_epsilon: 0.01,
            epsilon: 1e-6,
            max_newton: 50,
            max_cg: 10_000,
            first_cg: 10,
            rel_stop: 1e-9,
            precondition: false,
        }
    }
}

/// How an MFN run ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MfnReport {
    /// Optimal within the final tolerance (else stopped by the step cap or a stalled objective).
    pub converged: bool,
    pub newton_steps: usize,
    pub cg_iterations: usize,
    pub objective: f64,
}

/// Caller-provided workspace of [`mfn`] for one design; after a run, [`MfnWork::outputs`]
/// holds X w, and a next run from that same w (a warm start) reuses them.
#[derive(Debug, Clone, Default)]
pub struct MfnWork {
    o: Vec<f64>,
    o_bar: Vec<f64>,
    w_bar: Vec<f64>,
    active: Subset,
    cg: CglsWork,
    breaks: Vec<(f64, usize)>,
}

impl MfnWork {
    /// Outputs o = X w of every design row for the last solution.
    pub fn outputs(&self) -> &[f64] {
        &self.o
    }
}

/// Runs MFN from `w` (updated in place; all zeros for a cold start).
///
/// A cold start converges first at the coarse tolerance, then at the final one; a warm start
/// (w ≠ 0: TSVM's and DA's retrainings) runs at the final tolerance from its first step, as
/// the public release's seeded calls do (`ini = 1`), which skips a coarse step whose CGLS
/// usually stops at once and still costs three passes over the rows. Unlike the public
/// release, a stage that ends on an iteration cap does not leave the thresholds at the
/// coarse value for later calls.
pub fn mfn(
    x: &Design,
    ex: &Examples,
    lambda: f64,
    opts: &MfnOptions,
    w: &mut [f64],
    work: &mut MfnWork,
) -> MfnReport {
    let n = x.nrows();
    // The last run left its w in w_bar and X w in o.
    if work.o.len() != n || work.w_bar != w {
        work.o.resize(n, 0.0);
        x.mul_vec(w, &mut work.o);
    }
    work.o_bar.resize(n, 0.0);
    let mut f = objective(lambda, w, ex, &work.o);
    let cold = w.iter().all(|v| *v == 0.0);
    let mut epsilon = if cold { opts.coarse_epsilon } else { opts.epsilon };
    let mut cg_cap = if cold { opts.first_cg } else { opts.max_cg };
    let mut cg_iterations = 0;
    for step in 1..=opts.max_newton {
        active_subset(ex, &work.o, &mut work.active);
        work.w_bar.clear();
        work.w_bar.extend_from_slice(w);
        let (o, rows) = (&work.o, &work.active.rows);
        let rep = cgls(
            x,
            &work.active,
            lambda,
            &CglsOptions { epsilon, max_iter: cg_cap, precondition: opts.precondition },
            &mut work.w_bar,
            |k| o[rows[k] as usize],
            &mut work.o_bar,
            &mut work.cg,
        );
        cg_iterations += rep.iterations;
        cg_cap = opts.max_cg;
        x.mul_vec_other_rows(&work.active.rows, &work.w_bar, &mut work.o_bar);
        if rep.converged && consistent(ex, &work.o, &work.o_bar, epsilon) {
            w.copy_from_slice(&work.w_bar);
            std::mem::swap(&mut work.o, &mut work.o_bar);
            f = objective(lambda, w, ex, &work.o);
            if epsilon > opts.epsilon {
                epsilon = opts.epsilon;
                continue;
            }
            return MfnReport { converged: true, newton_steps: step, cg_iterations, objective: f };
        }
        let t = line_search(lambda, w, &work.w_bar, &work.o, &work.o_bar, ex, &mut work.breaks);
        for (wj, bj) in w.iter_mut().zip(&work.w_bar) {
            *wj += t * (bj - *wj);
        }
        for (oi, bi) in work.o.iter_mut().zip(&work.o_bar) {
            *oi += t * (bi - *oi);
        }
        work.w_bar.copy_from_slice(w);
        let f_old = f;
        f = objective(lambda, w, ex, &work.o);
        if (f - f_old).abs() < opts.rel_stop * f_old.abs() {
            return MfnReport { converged: false, newton_steps: step, cg_iterations, objective: f };
        }
    }
    MfnReport { converged: false, newton_steps: opts.max_newton, cg_iterations, objective: f }
}

/// The active examples at outputs `o`, merged per row: a row with active examples of total
/// cost C and cost-weighted label sum S enters with cost C and target S/C, so every row is
/// touched once per mat-vec.
fn active_subset(ex: &Examples, o: &[f64], sub: &mut Subset) {
    let active = |&(i, y, c): &(usize, f64, f64)| !(c <= 0.0 || y * o[i] >= 1.0);
    sub.clear();
    // Room for the active rows (at most one per active example), not for every row.
    sub.reserve_exact(ex.iter().filter(active).count().min(o.len()));
    for (i, y, c) in ex.iter().filter(active) {
        let i = i as u32;
        if sub.rows.last() == Some(&i) {
            let last = sub.rows.len() - 1;
            sub.cost[last] += c;
            sub.target[last] += c * y;
        } else {
            sub.rows.push(i);
            sub.cost.push(c);
            sub.target.push(c * y);
        }
    }
    for (t, c) in sub.target.iter_mut().zip(&sub.cost) {
        *t /= c;
    }
}

/// The active set of o is also that of ō within ε: active examples have y ō ≤ 1 + ε and
/// inactive ones y ō ≥ 1 − ε.
fn consistent(ex: &Examples, o: &[f64], o_bar: &[f64], epsilon: f64) -> bool {
    ex.iter().all(|(i, y, c)| {
        if c <= 0.0 {
            true
        } else if y * o[i] < 1.0 {
            y * o_bar[i] <= 1.0 + epsilon
        } else {
            y * o_bar[i] >= 1.0 - epsilon
        }
    })
}
