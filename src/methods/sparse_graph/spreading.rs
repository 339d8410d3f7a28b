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

use super::{Graph, Seeds};

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
    let fixed: Vec<f64> = y.iter().map(|v| v * (1.0 - alpha)).collect();
    iterate(n, c, y, it, |f, out| {
        g.for_rows(c, out, |i, cols, ws, out| {
            out.fill(0.0);
            for (&j, &wij) in cols.iter().zip(ws) {
                let j = j as usize;
                let s = wij as f64 / w[i] / w[j];
                for k in 0..c {
                    out[k] += s * f[j * c + k];
                }
            }
            for k in 0..c {
                out[k] = alpha * out[k] + fixed[i * c + k];
            }
        })
    })
}

/// Label propagation's normalised class scores (n × c row-major) and the steps taken.
pub fn label_propagation(g: &Graph, seeds: &Seeds, it: IterSettings) -> (Vec<f64>, usize) {
    let (n, c) = (g.n(), seeds.n_classes);
    let y = seeds.one_hot(n);
    let labeled = seeds.mask(n);
    let rows: Vec<f64> = g.degrees().iter().map(|d| 1.0 + d).collect();
    iterate(n, c, y.clone(), it, |f, out| {
        g.for_rows(c, out, |i, cols, ws, out| {
            if labeled[i] {
                out.copy_from_slice(&y[i * c..(i + 1) * c]);
                return;
            }
            out.copy_from_slice(&f[i * c..(i + 1) * c]);
            for (&j, &wij) in cols.iter().zip(ws) {
                let j = j as usize;
                for k in 0..c {
                    out[k] += wij as f64 * f[j * c + k];
                }
            }
            out.iter_mut().for_each(|x| *x /= rows[i]);
            normalise(out);
        })
    })
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
    f.par_chunks_mut(4096 * c).for_each(|b| b.chunks_mut(c).for_each(normalise));
    (f, steps)
}

/// Scales a row to sum 1 (a zero row stays zero).
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
