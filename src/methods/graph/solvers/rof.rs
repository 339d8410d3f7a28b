//! Graph ROF: min_u γ Σ_{i<j} w_ij |u_i − u_j| + (μ/2)‖u − f‖², by the accelerated
//! first-order primal–dual method of Chambolle & Pock (2011, Algorithm 2), stopped on the
//! relative primal–dual gap with an iteration cap.

use crate::error::{Error, Result};
use crate::methods::graph::SymGraph;

/// Solver settings: stop when gap ≤ `tol` × primal value, checked every 10 steps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RofSettings {
    pub tol: f64,
    pub max_iter: usize,
}

impl Default for RofSettings {
    fn default() -> Self {
        RofSettings { tol: 1e-4, max_iter: 500 }
    }
}

/// The graph as an edge list with ‖D‖² bound, built once per run. Edge e = (i, j), i < j,
/// sorted by (i, j): node i's edges are `first[i]..first[i + 1]`, their far ends `to`.
#[derive(Debug, Clone)]
pub struct EdgeOperator {
    first: Vec<usize>,
    to: Vec<u32>,
    w: Vec<f64>,
    /// L² ≥ ‖D‖², with (Du)_e = w_e (u_i − u_j): 2 max_i Σ_j w_ij².
    norm_sq: f64,
}

/// Caller-owned buffers of the solver; the dual variable is kept as a warm start.
#[derive(Debug, Clone)]
pub struct RofWorkspace {
    p: Vec<f64>,
    u_dual: Vec<f64>,
    u_bar: Vec<f64>,
    dtp: Vec<f64>,
}

/// How a solve ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RofReport {
    pub iterations: usize,
    /// Last computed primal–dual gap (an upper bound on the primal suboptimality).
    pub gap: f64,
    pub converged: bool,
}

/// The parameters of one primal–dual step: step sizes σ and τ, the weights γ and μ of the
/// problem, and the extrapolation θ.
#[derive(Debug, Clone, Copy)]
struct Step {
    sigma: f64,
    gamma: f64,
    tau: f64,
    mu: f64,
    theta: f64,
}

impl EdgeOperator {
    /// The operator of a weight graph (at most 2³² nodes).
    pub fn new(graph: &SymGraph) -> Result<Self> {
        let n = graph.n();
        if u32::try_from(n).is_err() {
            return Err(Error::Data(format!(
                "graph of {n} nodes: the edge operator takes at most 2^32"
            )));
        }
        let norm_sq =
            2.0 * (0..n).map(|i| graph.row(i).map(|(_, w)| w * w).sum::<f64>()).fold(0.0, f64::max);
        let (mut first, mut to, mut w) = (Vec::with_capacity(n + 1), Vec::new(), Vec::new());
        first.push(0);
        for i in 0..n {
            for (j, wij) in graph.row(i).filter(|(j, _)| *j > i) {
                to.push(j as u32);
                w.push(wij);
            }
            first.push(to.len());
        }
        Ok(EdgeOperator { first, to, w, norm_sq })
    }

    fn n(&self) -> usize {
        self.first.len() - 1
    }

    /// Fresh buffers (zero dual variable) for this graph.
    pub fn workspace(&self) -> RofWorkspace {
        let n = self.n();
        RofWorkspace {
            p: vec![0.0; self.to.len()],
            u_dual: vec![0.0; n],
            u_bar: vec![0.0; n],
            dtp: vec![0.0; n],
        }
    }

    /// Σ_e w_e |u_i − u_j|.
    pub fn tv(&self, u: &[f64]) -> f64 {
        let mut sum = 0.0;
        for i in 0..self.n() {
            let r = self.first[i]..self.first[i + 1];
            for (&j, &w) in self.to[r.clone()].iter().zip(&self.w[r]) {
                sum += w * (u[i] - u[j as usize]).abs();
            }
        }
        sum
    }

    /// Solves for u (warm-started from its content) with data `f`, γ ≥ 0 and μ > 0.
    pub fn solve(
        &self,
        f: &[f64],
        gamma: f64,
        mu: f64,
        u: &mut [f64],
        work: &mut RofWorkspace,
        settings: RofSettings,
    ) -> RofReport {
        crate::linalg::clear_upper_simd();
        let l = self.norm_sq.sqrt().max(f64::MIN_POSITIVE);
        let (mut tau, mut sigma) = (1.0 / l, 1.0 / l);
        for pe in work.p.iter_mut() {
            *pe = pe.clamp(-gamma, gamma);
        }
        work.u_bar.copy_from_slice(u);
        let mut gap = f64::INFINITY;
        for iteration in 1..=settings.max_iter {
            let theta = 1.0 / (1.0 + 2.0 * mu * tau).sqrt();
            self.step(Step { sigma, gamma, tau, mu, theta }, f, u, work);
            tau *= theta;
            sigma /= theta;
            if iteration % 10 == 0 || iteration == settings.max_iter {
                let (best_gap, primal, from_dual) = self.best_primal(f, gamma, mu, u, work);
                gap = best_gap;
                let converged = gap <= settings.tol * primal.max(f64::MIN_POSITIVE);
                if converged || iteration == settings.max_iter {
                    if from_dual {
                        u.copy_from_slice(&work.u_dual);
                    }
                    return RofReport { iterations: iteration, gap, converged };
                }
            }
        }
        RofReport { iterations: settings.max_iter, gap, converged: false }
    }

    /// One primal–dual step, node by node in edge order: p_e ← clamp(p_e + σ w_e (ū_i − ū_j),
    /// ±γ) for node i's edges, Dᵀp (complete for i once its own edges are added, the
    /// lower ones having been scattered before), u_i ← (u_i − τ(Dᵀp)_i + τμ f_i)/(1 + τμ)
    /// and ū_i = u_i + θ(u_i − u_i^old). Additions into Dᵀp are in edge order.
    fn step(&self, step: Step, f: &[f64], u: &mut [f64], work: &mut RofWorkspace) {
        let Step { sigma, gamma, tau, mu, theta } = step;
        work.dtp.fill(0.0);
        for i in 0..u.len() {
            let (ui, mut dtp) = (work.u_bar[i], work.dtp[i]);
            let r = self.first[i]..self.first[i + 1];
            for ((pe, &j), &w) in
                work.p[r.clone()].iter_mut().zip(&self.to[r.clone()]).zip(&self.w[r])
            {
                let j = j as usize;
                *pe = (*pe + sigma * w * (ui - work.u_bar[j])).clamp(-gamma, gamma);
                dtp += w * *pe;
                work.dtp[j] -= w * *pe;
            }
            work.dtp[i] = dtp;
            let old = u[i];
            u[i] = (old - tau * dtp + tau * mu * f[i]) / (1.0 + tau * mu);
            work.u_bar[i] = u[i] + theta * (u[i] - old);
        }
    }

    /// Compares the iterate u with the primal point of the dual iterate, u(p) = f − Dᵀp/μ
    /// (exact once p is optimal; left in `work.u_dual`): (smaller gap, its primal value,
    /// whether u(p) is the better one). Needs `work.dtp` = Dᵀp.
    fn best_primal(
        &self,
        f: &[f64],
        gamma: f64,
        mu: f64,
        u: &[f64],
        work: &mut RofWorkspace,
    ) -> (f64, f64, bool) {
        let dual: f64 = work.dtp.iter().zip(f).map(|(d, f)| d * f - d * d / (2.0 * mu)).sum();
        let primal_of = |v: &[f64]| gamma * self.tv(v) + 0.5 * mu * dist_sq(v, f);
        for ((ud, f), d) in work.u_dual.iter_mut().zip(f).zip(&work.dtp) {
            *ud = f - d / mu;
        }
        let (p_iter, p_dual) = (primal_of(u), primal_of(&work.u_dual));
        if p_dual < p_iter { (p_dual - dual, p_dual, true) } else { (p_iter - dual, p_iter, false) }
    }
}

fn dist_sq(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(graph: &SymGraph, f: &[f64], gamma: f64, mu: f64) -> (Vec<f64>, RofReport) {
        let op = EdgeOperator::new(graph).unwrap();
        let mut work = op.workspace();
        let mut u = f.to_vec();
        let report = op.solve(
            f,
            gamma,
            mu,
            &mut u,
            &mut work,
            RofSettings { tol: 1e-12, max_iter: 100_000 },
        );
        (u, report)
    }

    #[test]
    fn two_nodes_closed_form() {
        // u = (a − γw/μ, b + γw/μ) when a − b > 2γw/μ, else both (a + b)/2.
        let g = SymGraph::from_edges(2, [(0, 1, 2.0)]).unwrap();
        let (u, r) = solve(&g, &[1.0, -1.0], 0.1, 2.0);
        assert!(r.converged);
        assert!((u[0] - 0.9).abs() < 1e-5 && (u[1] + 0.9).abs() < 1e-5, "{u:?}");
        let (u, r) = solve(&g, &[1.0, -1.0], 2.0, 2.0);
        assert!(r.converged);
        assert!(u[0].abs() < 1e-5 && u[1].abs() < 1e-5, "{u:?}");
    }

    #[test]
    fn chain_step_shrinks_by_known_amount() {
        // A step f = (0,0,0,1,1,1) on a unit-weight chain: the solution stays a step with
        // each plateau moved by γ/(3μ) towards the other (while the jump survives).
        let g = SymGraph::from_edges(6, (0..5).map(|i| (i, i + 1, 1.0))).unwrap();
        let f = [0.0, 0.0, 0.0, 1.0, 1.0, 1.0];
        let (gamma, mu) = (0.3, 1.0);
        let (u, r) = solve(&g, &f, gamma, mu);
        assert!(r.converged && r.gap >= -1e-12);
        let shift = gamma / (3.0 * mu);
        for k in 0..3 {
            assert!((u[k] - shift).abs() < 1e-5 && (u[k + 3] - 1.0 + shift).abs() < 1e-5, "{u:?}");
        }
    }

    #[test]
    fn iteration_cap_reports_no_convergence() {
        let g = SymGraph::from_edges(3, [(0, 1, 1.0), (1, 2, 1.0)]).unwrap();
        let op = EdgeOperator::new(&g).unwrap();
        let mut work = op.workspace();
        let mut u = vec![0.0; 3];
        let r = op.solve(
            &[3.0, -1.0, 2.0],
            10.0,
            1.0,
            &mut u,
            &mut work,
            RofSettings { tol: 1e-14, max_iter: 3 },
        );
        assert!(!r.converged && r.iterations == 3);
    }
}
