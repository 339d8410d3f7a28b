//! Graph ROF: min_u γ Σ_{i<j} w_ij |u_i − u_j| + (μ/2)‖u − f‖², by the accelerated
//! first-order primal–dual method of Chambolle & Pock (2011, Algorithm 2), stopped on the
//! relative primal–dual gap with an iteration cap. Up to L problems on the same graph
//! (one per class) run in lockstep, their entries side by side, so that one pass over the
//! edges serves all of them; each problem's arithmetic is that of its solve alone.

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
    pub(super) first: Vec<usize>,
    pub(super) to: Vec<u32>,
    pub(super) w: Vec<f64>,
    /// L² ≥ ‖D‖², with (Du)_e = w_e (u_i − u_j): 2 max_i Σ_j w_ij².
    pub(super) norm_sq: f64,
}

/// Caller-owned buffers of the solver for `L` problems in lockstep (entry i of problem k at
/// `[i][k]`); the dual variable is kept as a warm start.
#[derive(Debug, Clone)]
pub struct RofWorkspace<const L: usize = 1> {
    pub(super) p: Vec<[f64; L]>,
    pub(super) f: Vec<[f64; L]>,
    pub(super) u: Vec<[f64; L]>,
    pub(super) u_dual: Vec<[f64; L]>,
    pub(super) u_bar: Vec<[f64; L]>,
    pub(super) dtp: Vec<[f64; L]>,
    /// The dual variables and solutions of the problems that have stopped.
    pub(super) p_done: Vec<[f64; L]>,
    pub(super) u_done: Vec<[f64; L]>,
}

/// How a solve ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RofReport {
    pub iterations: usize,
    /// Last computed primal–dual gap (an upper bound on the primal suboptimality).
    pub gap: f64,
    pub converged: bool,
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

    pub(super) fn n(&self) -> usize {
        self.first.len() - 1
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
