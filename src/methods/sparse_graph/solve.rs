//! One entry point for every graph-only kind: the scores of all nodes from a graph and its
//! labeled nodes, as the engine (`method.rs`) and the benchmarks call it.

use super::{Graph, Seeds, SparseKind, SparseParams};
use super::{cheeger_rls, label_propagation, label_spreading, lap_rls, laplace, poisson, tv_rls};
use crate::error::Result;

/// Every node's scores and how the solver got there.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeScores {
    /// n × `columns` row-major: class scores (one column per class), or for the node RLS
    /// kinds one ±1 column for two classes and one per class (one against the rest) beyond.
    pub u: Vec<f64>,
    pub columns: usize,
    /// CG or fixed-point steps; for the ROF kinds, ROF steps over all solves.
    pub steps: usize,
    /// ROF kinds: the solves stopped by the step cap.
    pub capped: Option<usize>,
}

impl NodeScores {
    /// Node i's score of the first class against the second when there are two (one column,
    /// or the difference of two class columns); None with more classes.
    pub fn binary(&self, i: usize) -> Option<f64> {
        match self.columns {
            1 => Some(self.u[i]),
            2 => Some(self.u[2 * i] - self.u[2 * i + 1]),
            _ => None,
        }
    }

    /// Node i's predicted class (the first largest score; the sign of a ±1 column).
    pub fn class(&self, i: usize) -> usize {
        if let Some(s) = self.binary(i) {
            return usize::from(s < 0.0);
        }
        let row = &self.u[i * self.columns..(i + 1) * self.columns];
        (0..self.columns).fold(0, |best, k| if row[k] > row[best] { k } else { best })
    }
}

/// Solves `p.kind` on `g` from the labeled nodes of `seeds`.
pub fn node_scores(p: &SparseParams, g: &Graph, seeds: &Seeds) -> Result<NodeScores> {
    let c = seeds.n_classes;
    let cg = |(u, r): (Vec<f64>, crate::linalg::CgReport)| (u, r.iterations);
    let (u, steps) = match p.kind {
        SparseKind::Laplace => cg(laplace(g, seeds, p.cg_settings())?),
        SparseKind::Poisson => cg(poisson(g, seeds, p.cg_settings())?),
        SparseKind::LabelSpreading => label_spreading(g, seeds, p.alpha, p.iter_settings()),
        SparseKind::LabelPropagation => label_propagation(g, seeds, p.iter_settings()),
        SparseKind::GraphLapRls | SparseKind::GraphTvRls | SparseKind::GraphCheegerRls => {
            return on_nodes(p, g, seeds);
        }
    };
    Ok(NodeScores { u, columns: c, steps, capped: None })
}

/// Lap-RLS, TV-RLS or Cheeger-RLS on the nodes.
fn on_nodes(p: &SparseParams, g: &Graph, seeds: &Seeds) -> Result<NodeScores> {
    let labels = seeds.signed(g.n(), seeds.n_classes > 2)?;
    let columns = labels.columns;
    if p.kind == SparseKind::GraphLapRls {
        let (u, report) = lap_rls(g, &labels, p.rls_weights(), p.cg_settings())?;
        return Ok(NodeScores { u, columns, steps: report.iterations, capped: None });
    }
    let (u, reports) = match p.kind {
        SparseKind::GraphTvRls => tv_rls(g, &labels, p.rls_weights(), p.rof_settings())?,
        _ => cheeger_rls(g, &labels, p.cheeger_settings())?,
    };
    let steps = reports.iter().map(|r| r.iterations).sum();
    let capped = Some(reports.iter().filter(|r| !r.converged).count());
    Ok(NodeScores { u, columns, steps, capped })
}
