//! TV-RLS on the graph's nodes (the TV-SVM paper's TV-RLS with f ∈ ℝᴺ in place of the RKHS
//! function): min_f (η/2)Σ_labeled (y_i − f_i)² + (λ/2)‖f‖² + γ Σ_{i<j} w_ij |f_i − f_j|.
//! Without a kernel this is one graph ROF problem with a fidelity weight per node,
//! min_f γ TV(f) + ½ Σ_i a_i (f_i − b_i)², a_i = η·[i labeled] + λ, b_i = η y_i / a_i
//! (`rof.rs`), solved once per label column (each column from a cold start).

use super::lap_rls::RlsWeights;
use super::rof::{RofDual, RofProblem, solve_rof};
use super::{Graph, SignedLabels};
use crate::error::Result;
use crate::methods::graph::{RofReport, RofSettings};

/// Scores f (n × columns row-major, every node) and the ROF report of each column.
pub fn tv_rls(
    g: &Graph,
    labels: &SignedLabels,
    w: RlsWeights,
    rof: RofSettings,
) -> Result<(Vec<f64>, Vec<RofReport>)> {
    let (n, c) = (g.n(), labels.columns);
    let a = w.diagonal(&labels.labeled);
    let mut dual = RofDual::new(g);
    let mut f = vec![0.0; n * c];
    let mut reports = Vec::with_capacity(c);
    for k in 0..c {
        let b: Vec<f64> = labels.column(k).iter().zip(&a).map(|(y, a)| w.eta * y / a).collect();
        let mut u = b.clone();
        dual.reset();
        let problem = RofProblem { a: &a, b: &b, gamma: w.gamma };
        reports.push(solve_rof(g, problem, &mut u, &mut dual, rof)?);
        u.iter().enumerate().for_each(|(i, v)| f[i * c + k] = *v);
    }
    Ok((f, reports))
}
