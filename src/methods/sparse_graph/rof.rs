//! Graph ROF with a fidelity weight per node on the sparse graph:
//! min_u γ Σ_{i<j} w_ij |u_i − u_j| + ½ Σ_i a_i (u_i − b_i)², a_i > 0. The algorithm of the
//! graph family's `solvers/rof.rs`: accelerated Chambolle–Pock (2011, Algorithm 2) with
//! (Du)_e = w_e (u_i − u_j), p_e ∈ [−γ, γ], στ‖D‖² ≤ 1 from ‖D‖² ≤ 2 max_i Σ_j w_ij²,
//! stopped when the primal–dual gap is at most `tol` × the primal value (checked every 10
//! steps) or at the cap, returning the primal point b − Dᵀp/a of the dual iterate when it
//! is the better one. Its single μ becomes a_i in the primal step, and the acceleration uses
//! min_i a_i. The dual variable of edge {i, j} is stored in both rows of the CSR graph
//! (p_ji = −p_ij, which the updates keep exactly), so that a step is one pass over the rows
//! in fixed parallel chunks and the result does not depend on the number of threads.

use rayon::prelude::*;

use super::Graph;
use crate::error::{Error, Result};
use crate::methods::graph::{RofReport, RofSettings};

/// Rows per parallel task.
const CHUNK: usize = 2048;

/// One problem: per-node fidelity weights `a` (> 0) and data `b`, TV weight `gamma` ≥ 0.
#[derive(Debug, Clone, Copy)]
pub struct RofProblem<'a> {
    pub a: &'a [f64],
    pub b: &'a [f64],
    pub gamma: f64,
}

/// The dual variables, one per stored entry of the graph (8 bytes each); kept between
/// solves on the same graph as a warm start.
#[derive(Debug, Clone)]
pub struct RofDual {
    p: Vec<f64>,
}

impl RofDual {
    /// Zero dual variables for `g`.
    pub fn new(g: &Graph) -> Self {
        RofDual { p: vec![0.0; g.nnz()] }
    }

    /// Sets every dual variable back to zero (a cold start).
    pub fn reset(&mut self) {
        self.p.fill(0.0);
    }
}

/// Solves for u, warm-started from its content and from `dual`. Fails on a graph that is
/// not symmetric or on inputs of the wrong length.
pub fn solve_rof(
    g: &Graph,
    problem: RofProblem,
    u: &mut [f64],
    dual: &mut RofDual,
    settings: RofSettings,
) -> Result<RofReport> {
    let n = g.n();
    if !g.is_symmetric() {
        return Err(Error::Data("the graph ROF needs a symmetric graph".into()));
    }
    if problem.a.len() != n || problem.b.len() != n || u.len() != n || dual.p.len() != g.nnz() {
        return Err(Error::Data(format!("graph ROF: inputs do not match a graph of {n} nodes")));
    }
    let RofProblem { a, b, gamma } = problem;
    let norm_sq = 2.0 * (0..n).map(|i| g.row(i).1.iter().map(|&w| sq(w)).sum()).fold(0.0, f64::max);
    if norm_sq == 0.0 {
        u.copy_from_slice(b);
        return Ok(RofReport { iterations: 0, gap: 0.0, converged: true });
    }
    let a_min = a.iter().copied().fold(f64::INFINITY, f64::min);
    let l = norm_sq.sqrt();
    let (mut sigma, mut tau) = (1.0 / l, 1.0 / l);
    dual.p.iter_mut().for_each(|p| *p = p.clamp(-gamma, gamma));
    let mut u_bar = u.to_vec();
    let (mut u_next, mut dtp, mut u_dual) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let mut report = RofReport { iterations: 0, gap: f64::INFINITY, converged: false };
    for iteration in 1..=settings.max_iter {
        let theta = 1.0 / (1.0 + 2.0 * a_min * tau).sqrt();
        let step = Step { sigma, tau, theta, gamma };
        step.run(g, problem, &mut dual.p, u, &u_bar, &mut u_next, &mut dtp);
        std::mem::swap(&mut u_bar, &mut u_next);
        tau *= theta;
        sigma /= theta;
        if iteration % 10 == 0 || iteration == settings.max_iter {
            let (p_iter, p_dual, dual_value) = gap_terms(g, problem, u, &dtp, &mut u_dual);
            let primal = p_iter.min(p_dual);
            let gap = primal - dual_value;
            let converged = gap <= settings.tol * primal.max(f64::MIN_POSITIVE);
            if converged || iteration == settings.max_iter {
                if p_dual < p_iter {
                    u.copy_from_slice(&u_dual);
                }
                report = RofReport { iterations: iteration, gap, converged };
                break;
            }
        }
    }
    Ok(report)
}

/// Σ_{i<j} w_ij |u_i − u_j| (half the sum over the stored entries, in fixed chunks).
pub fn total_variation(g: &Graph, u: &[f64]) -> f64 {
    0.5 * chunk_sums(g.n(), |i| {
        let (cols, ws) = g.row(i);
        cols.iter().zip(ws).map(|(&j, &w)| w as f64 * (u[i] - u[j as usize]).abs()).sum()
    })
}

fn sq(w: f32) -> f64 {
    w as f64 * w as f64
}

/// The step sizes of one primal–dual step, its extrapolation θ and the TV weight.
#[derive(Clone, Copy)]
struct Step {
    sigma: f64,
    tau: f64,
    theta: f64,
    gamma: f64,
}

impl Step {
    /// Row by row: p_ij ← clamp(p_ij + σ w_ij (ū_i − ū_j), ±γ) for the row's entries,
    /// (Dᵀp)_i = Σ_j w_ij p_ij, u_i ← (u_i − τ(Dᵀp)_i + τ a_i b_i)/(1 + τ a_i) and
    /// ū_i = u_i + θ(u_i − u_i^old) into `u_next`. Every p update reads the previous ū.
    #[allow(clippy::too_many_arguments)]
    fn run(
        self,
        g: &Graph,
        problem: RofProblem,
        p: &mut [f64],
        u: &mut [f64],
        u_bar: &[f64],
        u_next: &mut [f64],
        dtp: &mut [f64],
    ) {
        let Step { sigma, tau, theta, gamma } = self;
        let indptr = g.csr().0;
        row_chunks(g, p)
            .into_par_iter()
            .zip(u.par_chunks_mut(CHUNK))
            .zip(u_next.par_chunks_mut(CHUNK).zip(dtp.par_chunks_mut(CHUNK)))
            .enumerate()
            .for_each(|(t, ((p, u), (u_next, dtp)))| {
                let base = indptr[t * CHUNK];
                for r in 0..u.len() {
                    let i = t * CHUNK + r;
                    let (cols, ws) = g.row(i);
                    let p = &mut p[indptr[i] - base..indptr[i + 1] - base];
                    let ui = u_bar[i];
                    let mut acc = 0.0;
                    for ((pe, &j), &w) in p.iter_mut().zip(cols).zip(ws) {
                        let w = w as f64;
                        let x = (*pe + sigma * w * (ui - u_bar[j as usize])).clamp(-gamma, gamma);
                        *pe = x;
                        acc += w * x;
                    }
                    dtp[r] = acc;
                    let (old, ta) = (u[r], tau * problem.a[i]);
                    let new = (old - tau * acc + ta * problem.b[i]) / (1.0 + ta);
                    u[r] = new;
                    u_next[r] = new + theta * (new - old);
                }
            });
    }
}

/// `p` cut into the entries of each chunk of CHUNK rows.
fn row_chunks<'a>(g: &Graph, p: &'a mut [f64]) -> Vec<&'a mut [f64]> {
    let (n, indptr) = (g.n(), g.csr().0);
    let mut rest = p;
    let mut out = Vec::with_capacity(n.div_ceil(CHUNK));
    for start in (0..n).step_by(CHUNK) {
        let end = (start + CHUNK).min(n);
        let (head, tail) = std::mem::take(&mut rest).split_at_mut(indptr[end] - indptr[start]);
        out.push(head);
        rest = tail;
    }
    out
}

/// The primal values at u and at u(p) = b − Dᵀp/a (left in `u_dual`), and the dual value
/// Σ_i (Dᵀp)_i b_i − (Dᵀp)_i²/(2a_i).
fn gap_terms(
    g: &Graph,
    RofProblem { a, b, gamma }: RofProblem,
    u: &[f64],
    dtp: &[f64],
    u_dual: &mut [f64],
) -> (f64, f64, f64) {
    u_dual.par_iter_mut().enumerate().for_each(|(i, v)| *v = b[i] - dtp[i] / a[i]);
    let n = g.n();
    let dual = chunk_sums(n, |i| dtp[i] * b[i] - dtp[i] * dtp[i] / (2.0 * a[i]));
    let fidelity = |v: &[f64]| chunk_sums(n, |i| a[i] * (v[i] - b[i]) * (v[i] - b[i]));
    let primal = |v: &[f64]| gamma * total_variation(g, v) + 0.5 * fidelity(v);
    (primal(u), primal(u_dual), dual)
}

/// Σ_i term(i) over fixed chunks of rows, the chunks added in order.
fn chunk_sums(n: usize, term: impl Fn(usize) -> f64 + Sync) -> f64 {
    let parts: Vec<f64> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|t| (t * CHUNK..((t + 1) * CHUNK).min(n)).map(&term).sum())
        .collect();
    parts.iter().sum()
}
