//! Laplace learning (harmonic functions; Zhu, Ghahramani & Lafferty 2003) as GraphLearning's
//! `laplace` computes it: one-hot labels fixed on the labeled nodes, L u = 0 on the others
//! (L = D − W), i.e. L_uu u_u = W_ul y_l, solved by conjugate gradients on
//! M L_uu M v = M W_ul y_l with M = diag(1/√(d_i + 10⁻¹⁰)), u_u = M v, deflated on the
//! graph's aggregates (`deflation.rs`, z = M⁻¹1 on the unlabeled nodes).

use super::deflation::deflated_cg;
use super::operator::Operator;
use super::{Graph, Seeds};
use crate::error::{Error, Result};
use crate::linalg::CgReport;

/// Conjugate-gradient settings: GraphLearning's `tol` (Frobenius norm of the preconditioned
/// residual block) and a cap on the steps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CgSettings {
    pub tol: f64,
    pub max_iter: usize,
}

/// Class scores u (n × c row-major, every node; the labeled rows are their one-hot labels).
pub fn laplace(g: &Graph, seeds: &Seeds, cg: CgSettings) -> Result<(Vec<f64>, CgReport)> {
    if !g.is_symmetric() {
        return Err(Error::Data("Laplace learning needs a symmetric graph".into()));
    }
    let (n, c) = (g.n(), seeds.n_classes);
    let labeled = seeds.mask(n);
    let y = seeds.one_hot(n);
    let degrees = g.degrees();
    let m: Vec<f64> = degrees.iter().map(|d| 1.0 / (d + 1e-10).sqrt()).collect();
    let mut b = vec![0.0; n * c];
    g.for_rows(c, &mut b, |i, cols, ws, out| {
        if !labeled[i] {
            for (&j, &w) in cols.iter().zip(ws) {
                let j = j as usize;
                if labeled[j] {
                    for k in 0..c {
                        out[k] += w as f64 * y[j * c + k];
                    }
                }
            }
            out.iter_mut().for_each(|o| *o *= m[i]);
        }
    });
    let diag: Vec<f64> =
        (0..n).map(|i| if labeled[i] { 0.0 } else { degrees[i] * m[i] * m[i] }).collect();
    let a = Operator::scaled_laplacian(g, &m, |i| !labeled[i], diag);
    let z: Vec<f64> = (0..n).map(|i| if labeled[i] { 0.0 } else { 1.0 / m[i] }).collect();
    let (v, report) = deflated_cg(&a, g.aggregates(), &z, &b, c, (cg.tol, cg.max_iter))?;
    let mut u = v;
    for i in 0..n {
        for k in 0..c {
            u[i * c + k] = if labeled[i] { y[i * c + k] } else { m[i] * u[i * c + k] };
        }
    }
    Ok((u, report))
}
