//! Label spreading (Zhou et al. 2004) and label propagation (Zhu & Ghahramani 2002) as
//! scikit-learn's `LabelSpreading` and `LabelPropagation` compute them (`kernel="knn"`,
//! whose graph is this crate's `symmetrise = "none"`, binary weights, k = n_neighbors − 1):
//! F starts at the one-hot labels Y and is iterated until Σ|F − F_prev| < tol (checked before
//! each step) or `max_iter` steps; the scores are F with rows normalised to sum 1.
//! - spreading: F ← α S F + (1 − α) Y with S = D^{-1/2} W D^{-1/2}, D the column sums of W
//!   (a node with none counts 1);
//! - propagation: F ← T F, T = (I + W) row-normalised (each node is its own neighbour of
//!   weight 1, as scikit-learn's graphs include it), rows normalised, labeled rows reset to Y.

use rayon::prelude::*;

use super::operator::Operator;
use super::{Graph, Seeds};
use crate::linalg::{Kernel, widest};

/// Rows per parallel task of the passes over the scores.
const ROWS: usize = 4096;

/// Iteration settings (scikit-learn's defaults: spreading α = 0.2, 30 steps; propagation
/// 1,000 steps; tol = 10⁻³).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IterSettings {
    pub tol: f64,
    pub max_iter: usize,
}

/// Label spreading's normalised class scores (n × c row-major) and the steps taken.
pub fn label_spreading(
    g: &Graph,
    seeds: &Seeds,
    alpha: f64,
    it: IterSettings,
) -> (Vec<f64>, usize) {
    let (n, c) = (g.n(), seeds.n_classes);
    let y = seeds.one_hot(n);
    let w: Vec<f64> =
        g.column_sums().iter().map(|&d| if d > 0.0 { d.sqrt() } else { 1.0 }).collect();
    let mut values = Vec::with_capacity(g.nnz());
    for i in 0..n {
        let (cols, ws) = g.row(i);
        values.extend(cols.iter().zip(ws).map(|(&j, &wij)| wij as f64 / w[i] / w[j as usize]));
    }
    let s = Operator::new(g, None, values);
    let fixed: Vec<f64> = y.iter().map(|v| v * (1.0 - alpha)).collect();
    iterate(n, c, y, it, |f, out| {
        s.apply(c, f, out);
        out.par_chunks_mut(ROWS * c).zip(fixed.par_chunks(ROWS * c)).for_each(|(out, fixed)| {
            out.iter_mut().zip(fixed).for_each(|(o, b)| *o = alpha * *o + b);
        });
    })
}

/// Label propagation's normalised class scores (n × c row-major) and the steps taken.
pub fn label_propagation(g: &Graph, seeds: &Seeds, it: IterSettings) -> (Vec<f64>, usize) {
    let (n, c) = (g.n(), seeds.n_classes);
    let y = seeds.one_hot(n);
    let labeled = seeds.mask(n);
    let rows: Vec<f64> = g.degrees().iter().map(|d| 1.0 + d).collect();
    let t = Operator::new(g, Some(vec![1.0; n]), g.csr().2.iter().map(|&w| w as f64).collect());
    iterate(n, c, y.clone(), it, |f, out| {
        t.apply(c, f, out);
        out.par_chunks_mut(ROWS * c).enumerate().for_each(|(b, out)| {
            let first = b * ROWS;
            widest(Propagated {
                out,
                c,
                y: &y[first * c..],
                labeled: &labeled[first..],
                rows: &rows[first..],
            });
        });
    })
}

/// Label propagation's step after the product on a chunk of rows: labeled rows reset to
/// their labels, the others divided by 1 + d_i and normalised.
struct Propagated<'a> {
    out: &'a mut [f64],
    c: usize,
    y: &'a [f64],
    labeled: &'a [bool],
    rows: &'a [f64],
}

impl Kernel for Propagated<'_> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let rows = self.out.chunks_exact_mut(self.c).zip(self.y.chunks_exact(self.c));
        for ((out, y), (&labeled, &d)) in rows.zip(self.labeled.iter().zip(self.rows)) {
            if labeled {
                out.copy_from_slice(y);
            } else {
                out.iter_mut().for_each(|x| *x /= d);
                normalise(out);
            }
        }
    }
}

/// Runs `step(f, out)` from f = `start` until Σ|f − f_prev| < tol or `max_iter` steps, then
/// normalises the rows; returns the scores and the steps taken.
fn iterate(
    n: usize,
    c: usize,
    start: Vec<f64>,
    it: IterSettings,
    mut step: impl FnMut(&[f64], &mut [f64]),
) -> (Vec<f64>, usize) {
    let mut f = start;
    let mut prev = vec![0.0; n * c];
    let mut steps = 0;
    while steps < it.max_iter && abs_diff(&f, &prev) >= it.tol {
        std::mem::swap(&mut f, &mut prev);
        step(&prev, &mut f);
        steps += 1;
    }
    f.par_chunks_mut(ROWS * c).for_each(|b| b.chunks_mut(c).for_each(normalise));
    (f, steps)
}

/// Scales a row to sum 1 (a zero row stays zero).
#[inline(always)]
fn normalise(row: &mut [f64]) {
    let s: f64 = row.iter().sum();
    if s != 0.0 {
        row.iter_mut().for_each(|x| *x /= s);
    }
}

/// Σ|a − b| over fixed chunks added in order.
fn abs_diff(a: &[f64], b: &[f64]) -> f64 {
    let parts: Vec<f64> = a
        .par_chunks(1 << 14)
        .zip(b.par_chunks(1 << 14))
        .map(|(a, b)| a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum())
        .collect();
    parts.iter().sum()
}
