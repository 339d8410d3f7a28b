//! Deterministic annealing S3VM (Sindhwani & Keerthi 2006): the unlabeled labels are relaxed
//! to probabilities p_j of being positive, with an entropy term at temperature T that is
//! lowered geometrically; w-steps are weighted l2-SVM solves ([`Inner`]: MFN or dual CD) and
//! p-steps have a closed form up to the multiplier ν of the mean constraint mean(p) = r.

use super::design::Design;
use super::examples::{Examples, l2, objective, s3vm_objective};
use super::inner::{Inner, InnerWork};
use super::p_step::{mean_entropy, mean_kl, p_step};
use crate::error::Result;

/// Schedule constants of the public release.
const START_TEMPERATURE_FACTOR: f64 = 10.0;
const ANNEALING_RATE: f64 = 1.5;
const MAX_OUTER: usize = 30;
const MAX_INNER: usize = 100;
const ENTROPY_STOP: f64 = 1e-6;
const KL_STOP: f64 = 1e-6;

/// DA settings: the design's first `y_l.len()` rows are labeled, the rest unlabeled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DaOptions {
    pub lambda: f64,
    pub lambda_u: f64,
    /// Mean of p, in (0, 1).
    pub r: f64,
}

/// The state at the end of one temperature.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DaStep {
    pub temperature: f64,
    /// The annealed objective at this temperature (with the entropy term).
    pub annealed_objective: f64,
    /// The S3VM objective of the current w (what the best point minimises).
    pub objective: f64,
    pub mean_entropy: f64,
    /// p-step/w-step alternations at this temperature.
    pub inner_iterations: usize,
}

/// What a DA run did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DaReport {
    pub path: Vec<DaStep>,
    /// Calls of the inner solver (w-steps).
    pub solves: usize,
    /// The lowest S3VM objective seen along the path (that of the returned w).
    pub best_objective: f64,
}

/// Runs DA; returns the w (bias last) of the lowest S3VM objective seen after any w-step
/// (not the last one) and a report. With no unlabeled row it is the first w-step, the l2-SVM
/// of the labeled rows (costs 1/l).
pub fn da(
    x: &Design,
    y_l: &[f64],
    opts: &DaOptions,
    inner: &Inner,
) -> Result<(Vec<f64>, DaReport)> {
    let (l, u) = (y_l.len(), x.nrows() - y_l.len());
    let cu = opts.lambda_u / u as f64;
    let mut ex = Examples::with_capacity(l, l + 2 * u);
    for (i, &y) in y_l.iter().enumerate() {
        ex.push(i, y, 1.0 / l as f64);
    }
    let mut p = vec![opts.r; u];
    for &pj in &p {
        ex.push_pair(cu * pj, cu * (1.0 - pj));
    }
    let mut work = InnerWork::new(inner);
    let mut w = vec![0.0; x.ncols()];
    let mut report = DaReport::default();
    work.solve(x, &ex, opts.lambda, &mut w);
    report.solves += 1;
    let mut best_w = w.clone();
    report.best_objective = s3vm_objective(opts.lambda, opts.lambda_u, &w, y_l, work.outputs());
    if u == 0 {
        // No unlabeled row: the first w-step is the supervised problem's solution.
        return Ok((w, report));
    }
    let mut p_new = vec![0.0; u];
    let mut temperature = START_TEMPERATURE_FACTOR * opts.lambda_u;
    for _ in 0..MAX_OUTER {
        if mean_entropy(&p) <= ENTROPY_STOP {
            break;
        }
        let mut inner_iterations = 0;
        for _ in 0..MAX_INNER {
            inner_iterations += 1;
            let o_u = &work.outputs()[l..];
            p_step(
                |j| opts.lambda_u * (l2(o_u[j]) - l2(-o_u[j])),
                temperature,
                opts.r,
                &mut p_new,
            )?;
            let kl = mean_kl(&p_new, &p);
            std::mem::swap(&mut p, &mut p_new);
            for (j, &pj) in p.iter().enumerate() {
                ex.c[l + 2 * j] = cu * pj;
                ex.c[l + 2 * j + 1] = cu * (1.0 - pj);
            }
            work.solve(x, &ex, opts.lambda, &mut w);
            report.solves += 1;
            let f = s3vm_objective(opts.lambda, opts.lambda_u, &w, y_l, work.outputs());
            if f < report.best_objective {
                report.best_objective = f;
                best_w.copy_from_slice(&w);
            }
            if kl <= KL_STOP {
                break;
            }
        }
        report.path.push(DaStep {
            temperature,
            annealed_objective: objective(opts.lambda, &w, &ex, work.outputs())
                - 0.5 * temperature * mean_entropy(&p),
            objective: s3vm_objective(opts.lambda, opts.lambda_u, &w, y_l, work.outputs()),
            mean_entropy: mean_entropy(&p),
            inner_iterations,
        });
        temperature /= ANNEALING_RATE;
    }
    Ok((best_w, report))
}
