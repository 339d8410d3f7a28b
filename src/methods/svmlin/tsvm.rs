//! Transductive l2-SVM with multiple label switching (Sindhwani & Keerthi 2006): labels of
//! the unlabeled rows are optimised with w under a fixed positive count, while the
//! unlabeled cost is annealed from λ₀ = 1e-5 up to λ_u.

use super::design::Design;
use super::examples::Examples;
use super::inner::{Inner, InnerReport, InnerWork};

/// First unlabeled cost and its growth factor per round.
const LAMBDA_0: f64 = 1e-5;
const ANNEALING_RATE: f64 = 1.5;

/// TSVM settings: the design's first `y_l.len()` rows are labeled, the rest unlabeled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TsvmOptions {
    pub lambda: f64,
    pub lambda_u: f64,
    /// Pairs swapped per round at most (S).
    pub switches: usize,
    /// Number of unlabeled rows labeled +1 (round(r·u)).
    pub positives: usize,
}

/// What a TSVM run did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TsvmReport {
    /// Calls of the inner solver (retrainings, with the first).
    pub solves: usize,
    /// Newton steps and CG iterations (MFN) or epochs (dual CD) over all calls.
    pub newton_steps: usize,
    pub cg_iterations: usize,
    pub epochs: usize,
    /// Rounds that switched at least one pair, and pairs switched in all.
    pub switch_rounds: usize,
    pub pairs_switched: usize,
    /// Final objective ½λ‖w‖² + (1/2l)Σ l2(y o) + (λ_u/2u)Σ l2(ŷ o).
    pub objective: f64,
}

impl TsvmReport {
    /// Accounts for one inner call (its objective becomes the current one).
    fn add(&mut self, m: &InnerReport) {
        self.solves += 1;
        self.newton_steps += m.newton_steps;
        self.cg_iterations += m.cg_iterations;
        self.epochs += m.epochs;
        self.objective = m.objective;
    }
}

/// Runs TSVM; returns the weights (bias last), the unlabeled labels ŷ and a report. With no
/// unlabeled row it is the first solve, the l2-SVM of the labeled rows (costs 1/l).
///
/// Switching checks that both candidate lists have an s-th element before reading it (the
/// public release can read past the end of one of them).
pub fn tsvm(
    x: &Design,
    y_l: &[f64],
    opts: &TsvmOptions,
    inner: &Inner,
) -> (Vec<f64>, Vec<f64>, TsvmReport) {
    let (l, u) = (y_l.len(), x.nrows() - y_l.len());
    let mut work = InnerWork::new(inner);
    let mut report = TsvmReport::default();
    let mut w = vec![0.0; x.ncols()];
    let mut ex = Examples::with_capacity(l + u, l + u);
    for (i, &y) in y_l.iter().enumerate() {
        ex.push(i, y, 1.0 / l as f64);
    }
    report.add(&work.solve(x, &ex, opts.lambda, &mut w));
    if u == 0 {
        // No unlabeled row: the supervised problem is solved.
        return (w, Vec::new(), report);
    }
    for j in 0..u {
        ex.push(l + j, -1.0, 0.0);
    }
    initial_labels(&work.outputs()[l..], opts.positives, &mut ex.y[l..]);
    let (mut pos, mut neg) = (Vec::new(), Vec::new());
    let mut lambda_0 = LAMBDA_0.min(opts.lambda_u);
    loop {
        ex.c[l..].fill(lambda_0 / u as f64);
        report.add(&work.solve(x, &ex, opts.lambda, &mut w));
        // Each switch lowers the objective at fixed w and each retraining lowers it further,
        // so this loop ends; the cap only guards against rounding-level cycles.
        for _ in 0..u.max(100) {
            let swapped = switch_labels(
                &work.outputs()[l..],
                &mut ex.y[l..],
                opts.switches,
                &mut pos,
                &mut neg,
            );
            if swapped == 0 {
                break;
            }
            report.switch_rounds += 1;
            report.pairs_switched += swapped;
            report.add(&work.solve(x, &ex, opts.lambda, &mut w));
        }
        if lambda_0 >= opts.lambda_u {
            break;
        }
        lambda_0 = (ANNEALING_RATE * lambda_0).min(opts.lambda_u);
    }
    // The work vectors go before the labels are copied out.
    drop(work);
    (w, ex.y.split_off(l), report)
}

/// Sets `labels` to +1 for the `positives` largest outputs, −1 for the rest (ties broken by
/// index).
pub fn initial_labels(o: &[f64], positives: usize, labels: &mut [f64]) {
    let at = |j: u32| o[j as usize];
    let mut order: Vec<u32> = (0..o.len() as u32).collect();
    order.sort_by(|&a, &b| at(b).total_cmp(&at(a)).then(a.cmp(&b)));
    labels.fill(-1.0);
    for &j in order.iter().take(positives) {
        labels[j as usize] = 1.0;
    }
}

/// One switching round: positives with o < 1 by increasing o, negatives with −o < 1 by
/// increasing −o; pair s swaps while s < S, both lists have an s-th element and
/// o_pos[s] < o_neg[s] (then the swap lowers the loss). Returns the number of pairs.
pub fn switch_labels(
    o: &[f64],
    y: &mut [f64],
    max_pairs: usize,
    pos: &mut Vec<u32>,
    neg: &mut Vec<u32>,
) -> usize {
    pos.clear();
    neg.clear();
    for (j, (&oj, &yj)) in (0u32..).zip(o.iter().zip(y.iter())) {
        if yj > 0.0 && oj < 1.0 {
            pos.push(j);
        } else if yj < 0.0 && -oj < 1.0 {
            neg.push(j);
        }
    }
    let at = |j: u32| o[j as usize];
    pos.sort_by(|&a, &b| at(a).total_cmp(&at(b)));
    neg.sort_by(|&a, &b| at(b).total_cmp(&at(a)));
    let mut s = 0;
    while s < max_pairs && s < pos.len() && s < neg.len() && at(pos[s]) < at(neg[s]) {
        y[pos[s] as usize] = -1.0;
        y[neg[s] as usize] = 1.0;
        s += 1;
    }
    s
}
