//! Dual coordinate descent over weighted examples, warm-started across calls: the solver of
//! `solver = "dual_cd"`, for `linear_svm` (with LIBLINEAR's shrinking) and as the inner
//! solver of TSVM's retrainings and DA's w-steps.
//!
//! The primal ½λ‖w‖² + ½ Σ_k c_k max(0, 1 − y_k o_k)² has the dual
//! min ½βᵀQβ + ½ Σ_k (λ/c_k) β_k² − Σ_k β_k, β ≥ 0, with Q_kl = y_k y_l x_kᵀx_l and
//! w = Σ_k β_k y_k x_k (Hsieh et al., ICML 2008, with per-example costs). The workspace keeps
//! β and the labels it was computed for between calls: an example whose label flipped leaves
//! w (β_k = 0) and is swept alone first, one whose cost changed keeps β_k, so a retraining
//! starts from the last solution. Rows are visited in a fresh random order per epoch (a fixed
//! order converges far more slowly here: the bias column makes Q nearly rank-one-dominated);
//! the examples of one row are updated together (one gather and at most one scatter).

use rand::SeedableRng;
use rand::seq::SliceRandom;

use super::design::{Design, Span};
use super::examples::Examples;
use super::kernels;
use crate::data::Column;

/// Stopping rule, order and shrinking of [`weighted_cd`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WeightedCdOptions {
    /// Stop when every projected dual gradient is within ±epsilon (margin units).
    pub epsilon: f64,
    /// Epochs (passes over the rows) at most per call.
    pub max_epochs: usize,
    /// Seed of the rows' order.
    pub seed: u64,
    /// LIBLINEAR's shrinking: a row whose examples all have β = 0 and a gradient above the
    /// last epoch's largest projected gradient leaves the epochs until the rule is met on the
    /// others; then every row is checked once more.
    pub shrinking: bool,
}

impl Default for WeightedCdOptions {
    fn default() -> Self {
        WeightedCdOptions { epsilon: 1e-3, max_epochs: 1000, seed: 0, shrinking: false }
    }
}

/// How a call ended.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct WeightedCdReport {
    pub converged: bool,
    pub epochs: usize,
}

/// The examples of one design row, updated together.
#[derive(Debug, Clone, Copy)]
struct Unit {
    span: Span,
    /// The row's examples are `first..first + count`.
    first: u32,
    count: u32,
    /// ‖x_i‖² with the bias.
    norm2: f64,
}

impl Unit {
    /// The row's examples.
    fn range(&self) -> std::ops::Range<usize> {
        self.first as usize..(self.first + self.count) as usize
    }
}

/// One example's dual variable with the label it was computed for and λ/c (infinite at c = 0),
/// side by side so that a step reads one cache line.
#[derive(Debug, Clone, Copy, Default)]
struct Dual {
    beta: f64,
    y: f64,
    d: f64,
}

/// Workspace of [`weighted_cd`], kept between the calls of one TSVM or DA run.
/// It takes about 44 bytes per row (record, order, output) and 24 per example.
#[derive(Debug, Clone, Default)]
pub struct WeightedCdWork {
    duals: Vec<Dual>,
    /// One per row that carries examples.
    units: Vec<Unit>,
    order: Vec<u32>,
    /// Units with an example whose label flipped since the last call.
    changed: Vec<u32>,
    /// X w after the last call.
    o: Vec<f64>,
    rng: Option<rand_chacha::ChaCha8Rng>,
}

impl WeightedCdWork {
    /// Outputs o = X w of every design row for the last solution.
    pub fn outputs(&self) -> &[f64] {
        &self.o
    }
}

/// Minimises ½λ‖w‖² + the examples' loss from the workspace's last dual solution and
/// updates `w` and the outputs. Between calls on one workspace the design stays the same,
/// examples are only appended and `w` is the last call's (zero with a fresh workspace).
pub fn weighted_cd(
    x: &Design,
    ex: &Examples,
    lambda: f64,
    opts: &WeightedCdOptions,
    w: &mut [f64],
    work: &mut WeightedCdWork,
) -> WeightedCdReport {
    if x.narrow() {
        solve::<u16>(x, ex, lambda, opts, w, work)
    } else {
        solve::<u32>(x, ex, lambda, opts, w, work)
    }
}

/// Sweeps at most over the rows whose labels flipped, before the first epoch over all rows.
const CHANGED_SWEEPS: usize = 10;

fn solve<I: Column>(
    x: &Design,
    ex: &Examples,
    lambda: f64,
    opts: &WeightedCdOptions,
    w: &mut [f64],
    work: &mut WeightedCdWork,
) -> WeightedCdReport {
    let m = ex.len();
    // New examples (appended since the last call) start at β = 0.
    if work.duals.len() != m {
        work.duals.resize(m, Dual::default());
        // One unit per run of examples of the same row, counted first: the room they need.
        let rows = 1 + ex.iter().zip(ex.iter().skip(1)).filter(|(a, b)| a.0 != b.0).count();
        work.units = Vec::with_capacity(rows.min(m));
        let mut last = usize::MAX;
        for (k, (i, _, _)) in ex.iter().enumerate() {
            if i == last {
                work.units.last_mut().expect("a unit per row").count += 1;
            } else {
                let (span, norm2) = (x.span(i), x.row_norm2_as::<I>(i));
                work.units.push(Unit { span, first: k as u32, count: 1, norm2 });
                last = i;
            }
        }
        work.order = (0..work.units.len() as u32).collect();
    }
    let rng = work.rng.get_or_insert_with(|| rand_chacha::ChaCha8Rng::seed_from_u64(opts.seed));
    // Examples whose label flipped or whose cost is 0 leave w.
    work.changed.clear();
    let mut u = 0;
    for (k, (i, y, c)) in ex.iter().enumerate() {
        while k >= work.units[u].range().end {
            u += 1;
        }
        let e = &mut work.duals[k];
        if e.beta != 0.0 && (y != e.y || c <= 0.0) {
            x.add_row_as::<I>(i, -e.beta * e.y, w);
            e.beta = 0.0;
            if work.changed.last() != Some(&(u as u32)) {
                work.changed.push(u as u32);
            }
        }
        e.y = y;
        e.d = if c > 0.0 { lambda / c } else { f64::INFINITY };
    }
    let mut report = WeightedCdReport::default();
    let (units, duals) = (&work.units, &mut work.duals);
    for _ in 0..CHANGED_SWEEPS.min(opts.max_epochs) {
        if work.changed.is_empty() {
            break;
        }
        work.changed.shuffle(rng);
        let mut all = work.changed.len();
        if sweep::<I>(x, units, (&mut work.changed, &mut all), f64::INFINITY, duals, w).0
            <= opts.epsilon
        {
            break;
        }
    }
    let (mut active, mut shrink_above) = (units.len(), f64::INFINITY);
    for epoch in 1..=opts.max_epochs {
        work.order[..active].shuffle(rng);
        report.epochs = epoch;
        let (pg_abs, pg_max) =
            sweep::<I>(x, units, (&mut work.order, &mut active), shrink_above, duals, w);
        if pg_abs <= opts.epsilon {
            if active == units.len() {
                report.converged = true;
                break;
            }
            (active, shrink_above) = (units.len(), f64::INFINITY);
        } else if opts.shrinking {
            shrink_above = if pg_max > 0.0 { pg_max } else { f64::INFINITY };
        }
    }
    work.o.resize(x.nrows(), 0.0);
    x.mul_vec(w, &mut work.o);
    report
}

/// One step on each of the first `active` units of `order`, in that order, moving a unit
/// that shrinks (every example at β = 0 with a gradient above `shrink_above`) behind them;
/// returns the largest |projected gradient| and the largest projected gradient seen (before
/// each step) on the units kept.
fn sweep<I: Column>(
    x: &Design,
    units: &[Unit],
    (order, active): (&mut [u32], &mut usize),
    shrink_above: f64,
    duals: &mut [Dual],
    w: &mut [f64],
) -> (f64, f64) {
    // A step waits on memory: the unit records 16 steps ahead, their examples 8 ahead and
    // their rows 4 ahead are fetched early.
    let (mut pg_abs, mut pg_max) = (0.0f64, f64::NEG_INFINITY);
    let mut s = 0;
    while s < *active {
        if let Some(&v) = order[..*active].get(s + 16) {
            kernels::prefetch(std::slice::from_ref(&units[v as usize]));
        }
        if let Some(&v) = order[..*active].get(s + 8) {
            kernels::prefetch(&duals[units[v as usize].range()]);
        }
        if let Some(&v) = order[..*active].get(s + 4) {
            x.prefetch_span_as::<I>(units[v as usize].span);
        }
        let unit = units[order[s] as usize];
        let q = unit.norm2;
        let mut dot = x.dot_span_as::<I>(unit.span, w);
        let (mut scale, mut shrinks) = (0.0, true);
        for e in &mut duals[unit.range()] {
            if e.d == f64::INFINITY {
                continue;
            }
            let g = e.y * dot - 1.0 + e.d * e.beta;
            if e.beta == 0.0 && g > shrink_above {
                continue;
            }
            shrinks = false;
            let pg = if e.beta == 0.0 { g.min(0.0) } else { g };
            pg_abs = pg_abs.max(pg.abs());
            pg_max = pg_max.max(pg);
            if pg != 0.0 {
                let new = (e.beta - g / (q + e.d)).max(0.0);
                let delta = (new - e.beta) * e.y;
                e.beta = new;
                dot += delta * q;
                scale += delta;
            }
        }
        if scale != 0.0 {
            x.add_span_as::<I>(unit.span, scale, w);
        }
        if shrinks && shrink_above < f64::INFINITY {
            *active -= 1;
            order.swap(s, *active);
        } else {
            s += 1;
        }
    }
    (pg_abs, pg_max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{Csr, Features};
    use crate::methods::svmlin::{MfnOptions, MfnWork, mfn, with_bias};
    use rand::{Rng, SeedableRng};

    /// A random sparse design of `n` rows (with its bias) and ±1 labels.
    fn design(n: usize, d: usize, seed: u64) -> (Features, Vec<f64>) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (mut indptr, mut indices, mut values, mut y) = (vec![0], vec![], vec![], vec![]);
        for _ in 0..n {
            let label = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
            for j in 0..d {
                if rng.random_bool(0.25) {
                    indices.push(j as u32);
                    let shift = if j < 4 { 0.5 * label } else { 0.0 };
                    values.push(rng.random_range(-1.0..1.0) + shift);
                }
            }
            indptr.push(indices.len());
            y.push(label);
        }
        (Features::Sparse(Csr::new(d, indptr, indices, values).unwrap()), y)
    }

    /// Listed examples on the first `l` rows (one with cost 0), paired ones on the rest.
    fn examples(y: &[f64], l: usize, scale: f64) -> Examples {
        let mut ex = Examples::default();
        for (i, &yi) in y[..l].iter().enumerate() {
            ex.push(i, yi, if i == 3 { 0.0 } else { scale * (0.5 + (i % 4) as f64 * 0.25) });
        }
        for j in l..y.len() {
            let p = 0.1 + 0.8 * ((j * 7) % 10) as f64 / 10.0;
            ex.push_pair(0.3 * scale * p, 0.3 * scale * (1.0 - p));
        }
        ex
    }

    fn mfn_solution(x: &Design, ex: &Examples, lambda: f64) -> Vec<f64> {
        let opts = MfnOptions { epsilon: 1e-12, ..MfnOptions::default() };
        let mut w = vec![0.0; x.ncols()];
        let rep = mfn(x, ex, lambda, &opts, &mut w, &mut MfnWork::default());
        assert!(rep.converged, "{rep:?}");
        w
    }

    fn max_diff(a: &[f64], b: &[f64]) -> f64 {
        a.iter().zip(b).map(|(u, v)| (u - v).abs()).fold(0.0, f64::max)
    }

    const TIGHT: WeightedCdOptions =
        WeightedCdOptions { epsilon: 1e-11, max_epochs: 100_000, seed: 5, shrinking: false };

    /// Listed, zero-cost and paired examples: the dual solution's w is MFN's optimum, and the
    /// outputs are X w.
    #[test]
    fn reaches_the_mfn_optimum_on_listed_and_paired_examples() {
        let (f, y) = design(120, 12, 1);
        let x = with_bias(&[&f]).unwrap();
        let (ex, lambda) = (examples(&y, 40, 1.0), 0.05);
        let mut w = vec![0.0; x.ncols()];
        let mut work = WeightedCdWork::default();
        let rep = weighted_cd(&x, &ex, lambda, &TIGHT, &mut w, &mut work);
        assert!(rep.converged, "{rep:?}");
        assert!(max_diff(&w, &mfn_solution(&x, &ex, lambda)) < 1e-8);
        let mut o = vec![0.0; x.nrows()];
        x.mul_vec(&w, &mut o);
        assert!(max_diff(&o, work.outputs()) < 1e-14);
    }

    /// Shrinking (the supervised SVM's) reaches the same optimum, and one seed gives the same
    /// bits on every run.
    #[test]
    fn shrinking_reaches_the_same_optimum_and_runs_repeat() {
        let (f, y) = design(200, 8, 3);
        let x = with_bias(&[&f]).unwrap();
        let mut ex = Examples::default();
        for (i, &yi) in y.iter().enumerate() {
            ex.push(i, yi, 1.0);
        }
        let lambda = 0.01;
        let solve = |opts: &WeightedCdOptions| {
            let mut w = vec![0.0; x.ncols()];
            let rep = weighted_cd(&x, &ex, lambda, opts, &mut w, &mut WeightedCdWork::default());
            assert!(rep.converged, "{rep:?}");
            (w, rep)
        };
        let shrunk = WeightedCdOptions { shrinking: true, ..TIGHT };
        let (w, _) = solve(&shrunk);
        assert!(max_diff(&w, &mfn_solution(&x, &ex, lambda)) < 1e-8);
        assert_eq!(w, solve(&shrunk).0);
        let (_, loose) = solve(&WeightedCdOptions { epsilon: 0.5, ..shrunk });
        assert!(loose.epochs < solve(&shrunk).1.epochs, "{loose:?}");
    }

    /// A warm start after labels flipped and costs changed (TSVM's and DA's retrainings) ends
    /// at the optimum of the new problem, as a cold start does.
    #[test]
    fn warm_starts_after_flips_and_new_costs_reach_the_new_optimum() {
        let (f, y) = design(150, 10, 2);
        let x = with_bias(&[&f]).unwrap();
        let lambda = 0.02;
        let mut ex = examples(&y, 90, 1.0);
        let mut w = vec![0.0; x.ncols()];
        let mut work = WeightedCdWork::default();
        weighted_cd(&x, &ex, lambda, &TIGHT, &mut w, &mut work);
        for k in [0, 5, 17, 40, 41] {
            ex.y[k] = -ex.y[k];
        }
        for c in &mut ex.c[90..] {
            *c *= 1.5;
        }
        ex.c[3] = 0.7;
        ex.c[8] = 0.0;
        let rep = weighted_cd(&x, &ex, lambda, &TIGHT, &mut w, &mut work);
        assert!(rep.converged, "{rep:?}");
        assert!(max_diff(&w, &mfn_solution(&x, &ex, lambda)) < 1e-8);
    }
}
