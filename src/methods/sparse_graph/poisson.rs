//! Poisson learning (Calder, Cook, Thorpe & Slepčev, ICML 2020) as GraphLearning's `poisson`
//! computes it with its default conjugate-gradient solver: L u = b with L = D − W and the
//! source b_i = y_i − ȳ on the labeled nodes (ȳ the mean one-hot label), 0 elsewhere; solved
//! as (I − D^{-1/2} W D^{-1/2}) v = D^{-1/2} b, u = D^{-1/2} v. A node without edges scores 0.
//! On a graph of several connected components, L u = b has a solution only where b sums to
//! zero over each component; the part of b that no u can meet (each component's sum, spread
//! in proportion to the degrees) is removed first, so that CG converges to the least-squares
//! solution (GraphLearning's CG diverges there). CG is deflated on the graph's aggregates
//! (`deflation.rs`, z = D^{1/2}1): the same stopping rule as GraphLearning's, several times
//! fewer steps.

use super::deflation::deflated_cg;
use super::laplace::CgSettings;
use super::operator::Operator;
use super::{Graph, Seeds};
use crate::error::{Error, Result};
use crate::linalg::CgReport;

/// Class scores u (n × c row-major, every node).
pub fn poisson(g: &Graph, seeds: &Seeds, cg: CgSettings) -> Result<(Vec<f64>, CgReport)> {
    if !g.is_symmetric() {
        return Err(Error::Data("Poisson learning needs a symmetric graph".into()));
    }
    let (n, c) = (g.n(), seeds.n_classes);
    let mut mean = vec![0.0; c];
    seeds.classes.iter().for_each(|&k| mean[k] += 1.0);
    mean.iter_mut().for_each(|m| *m /= seeds.nodes.len().max(1) as f64);
    let degrees = g.degrees();
    let s: Vec<f64> = degrees.iter().map(|&d| if d > 0.0 { 1.0 / d.sqrt() } else { 0.0 }).collect();
    let mut source = vec![0.0; n * c];
    for (&i, &class) in seeds.nodes.iter().zip(seeds.classes) {
        for k in 0..c {
            source[i * c + k] = f64::from(u8::from(k == class)) - mean[k];
        }
    }
    let (parts, component) = g.components();
    if parts > 1 {
        balance(&mut source, c, &degrees, parts, &component);
    }
    let b: Vec<f64> = (0..n * c).map(|e| s[e / c] * source[e]).collect();
    let a = Operator::scaled_laplacian(g, &s, |_| true, vec![1.0; n]);
    let z: Vec<f64> = degrees.iter().map(|d| d.sqrt()).collect();
    let (mut u, report) = deflated_cg(&a, g.aggregates(), &z, &b, c, (cg.tol, cg.max_iter))?;
    for i in 0..n {
        u[i * c..(i + 1) * c].iter_mut().for_each(|x| *x *= s[i]);
    }
    Ok((u, report))
}

/// Removes from each column of `source` its sum over each component, spread over the
/// component's nodes in proportion to their degrees.
fn balance(source: &mut [f64], c: usize, degrees: &[f64], parts: usize, component: &[u32]) {
    let mut sum = vec![0.0; parts * c];
    let mut volume = vec![0.0; parts];
    for (i, &p) in component.iter().enumerate() {
        volume[p as usize] += degrees[i];
        for k in 0..c {
            sum[p as usize * c + k] += source[i * c + k];
        }
    }
    for (i, &p) in component.iter().enumerate() {
        let p = p as usize;
        if volume[p] > 0.0 {
            for k in 0..c {
                source[i * c + k] -= sum[p * c + k] * degrees[i] / volume[p];
            }
        }
    }
}
