//! CGLS: conjugate gradient on the normal equations of a weighted, regularised least-squares
//! problem over a subset of design rows, warm-started ("seeded") from a given w, with
//! five work vectors.
//!
//! Each iteration needs X_J p and X_Jᵀ C X_J p; both come from one pass over the rows
//! ([`Design::gram_mul_vec_rows`]), which halves the memory traffic of the two separate
//! mat-vecs of the public release, and the curvature pᵀX_JᵀCX_Jp = Σ c_k q_k² comes with it.
//! The residual r = X_Jᵀz − λw is then updated recursively, r ← r − γ(X_JᵀCq + λp);
//! whenever it meets the stopping rule, r is recomputed explicitly and the rule checked
//! again, so the answer satisfies ‖r‖² ≤ ε²‖z‖² exactly as in the two-mat-vec form; when
//! the explicit r fails the rule, CG restarts along it (else it can diverge). The
//! vector updates run in two passes over the columns per iteration, their sums in
//! [`LANES`] fixed partial sums (the same bits on every run), and the subset's outputs are
//! carried along (o ← o + γq), as in the public release.

use super::design::{Design, Span};

/// Rows of the design (u32: a design has fewer than 2³² rows) with a real target and a
/// positive cost each: min ½λ‖w‖² + ½ Σ_k cost_k (target_k − x_{rows k}ᵀw)².
#[derive(Debug, Clone, Default)]
pub struct Subset {
    pub rows: Vec<u32>,
    pub target: Vec<f64>,
    pub cost: Vec<f64>,
}

impl Subset {
    /// Empties the subset, keeping its capacity.
    pub fn clear(&mut self) {
        self.rows.clear();
        self.target.clear();
        self.cost.clear();
    }

    /// Room for `m` rows without growing (exactly, not the doubling of a push).
    pub fn reserve_exact(&mut self, m: usize) {
        self.rows.reserve_exact(m);
        self.target.reserve_exact(m);
        self.cost.reserve_exact(m);
    }
}

/// Caller-provided work vectors of [`cgls`] (grown on demand, never shrunk).
#[derive(Debug, Clone, Default)]
pub struct CglsWork {
    z: Vec<f64>,
    q: Vec<f64>,
    r: Vec<f64>,
    p: Vec<f64>,
    /// X_JᵀCq, then (preconditioned) M⁻¹r.
    s: Vec<f64>,
    /// M⁻¹ of the preconditioned runs.
    m_inv: Vec<f64>,
    /// Where a small subset's rows are stored (empty for a large one).
    spans: Vec<Span>,
    /// Partial sums of the chunked transposed mat-vecs.
    spare: Vec<f64>,
}

/// When [`cgls`] stops, and whether it scales the problem.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CglsOptions {
    /// Stop when ‖r‖ ≤ ε‖z‖ (r = Xᵀz − λw, z = C(t − o)).
    pub epsilon: f64,
    /// Iterations at most.
    pub max_iter: usize,
    /// CG with the diagonal preconditioner M = diag(X_JᵀCX_J) + λ + [`SHIFT`] · (the mean
    /// of its non-zero feature entries), instead of plain CG (the public release's).
    pub precondition: bool,
}

/// The preconditioner's shift, in means of the non-zero feature entries of diag(X_JᵀCX_J):
/// plain Jacobi scaling (0) took more iterations than none on the `peers` corpus, whose
/// bias and frequent words dominate the diagonal; the shift leaves rare columns nearly
/// unscaled and scales the frequent ones down (docs/benchmarks.md).
pub const SHIFT: f64 = 10.0;

/// How a CGLS run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CglsReport {
    /// ‖r‖² ≤ ε²‖z‖² was reached (r = Xᵀz − λw, z = C(t − o)).
    pub converged: bool,
    pub iterations: usize,
}

/// Runs CGLS from `w` (updated in place); `o(k)` is the output x_{rows k}ᵀw of subset row k
/// at the starting `w` (read once per row, so that the caller needs no copy of them), and
/// `o_bar[rows k]` receives the output at the returned w (other entries are left alone).
#[allow(clippy::too_many_arguments)]
pub fn cgls(
    x: &Design,
    sub: &Subset,
    lambda: f64,
    opts: &CglsOptions,
    w: &mut [f64],
    o: impl Fn(usize) -> f64,
    o_bar: &mut [f64],
    work: &mut CglsWork,
) -> CglsReport {
    if opts.precondition {
        run::<true>(x, sub, lambda, opts, w, o, o_bar, work)
    } else {
        run::<false>(x, sub, lambda, opts, w, o, o_bar, work)
    }
}

/// [`cgls`] with (PRE) or without the preconditioner; without, the vector written "s = M⁻¹r"
/// below is r itself, so ρ = rᵀM⁻¹r is ω = ‖r‖².
#[allow(clippy::too_many_arguments)]
fn run<const PRE: bool>(
    x: &Design,
    sub: &Subset,
    lambda: f64,
    opts: &CglsOptions,
    w: &mut [f64],
    o: impl Fn(usize) -> f64,
    o_bar: &mut [f64],
    work: &mut CglsWork,
) -> CglsReport {
    let (m, d) = (sub.rows.len(), w.len());
    let CglsWork { z, q, r, p, s, m_inv, spans, spare } = work;
    // A subset of less than half the rows is scattered through the storage: its rows are
    // looked up once here rather than in every iteration's pass (the same bits).
    if 2 * m < x.nrows() {
        x.spans(&sub.rows, spans);
    } else {
        spans.clear();
    }
    z.resize(m, 0.0);
    q.resize(m, 0.0);
    r.resize(d, 0.0);
    p.resize(d, 0.0);
    s.resize(d, 0.0);
    for (k, &i) in sub.rows.iter().enumerate() {
        let ok = o(k);
        o_bar[i as usize] = ok;
        z[k] = sub.cost[k] * (sub.target[k] - ok);
    }
    if PRE {
        // Xᵀz and the diagonal from one pass over the rows.
        m_inv.resize(d, 0.0);
        x.t_mul_vec_diag_rows(&sub.rows, (z, &sub.cost), (r, m_inv), spare);
        let shift = lambda + SHIFT * mean_nonzero(&m_inv[..d - 1]);
        for mj in m_inv.iter_mut() {
            *mj = 1.0 / (*mj + shift);
        }
    } else {
        x.t_mul_vec_rows(&sub.rows, z, r, spare);
    }
    // r −= λw and s = M⁻¹r on r = Xᵀz; returns [‖r‖², rᵀs, ‖s‖²].
    let finish = |r: &mut [f64], w: &[f64], s: &mut [f64], m_inv: &[f64]| {
        let [rr, rs, ss] = in_lanes(d, |j, [rr, rs, ss]| {
            let (r, w) = (&mut r[j.clone()], &w[j.clone()]);
            for l in 0..r.len() {
                r[l] -= lambda * w[l];
                rr[l] += r[l] * r[l];
            }
            if PRE {
                let (s, mi) = (&mut s[j.clone()], &m_inv[j]);
                for l in 0..r.len() {
                    s[l] = mi[l] * r[l];
                    rs[l] += r[l] * s[l];
                    ss[l] += s[l] * s[l];
                }
            }
        });
        if PRE { [rr, rs, ss] } else { [rr, rr, rr] }
    };
    let [mut omega, mut rho, mut pp] = finish(r, w, s, m_inv);
    let mut zz = dot(z, z);
    p.copy_from_slice(if PRE { s } else { r });
    let (mut iterations, mut converged) = (0, false);
    loop {
        if omega <= opts.epsilon * opts.epsilon * zz {
            // Confirm with the explicit residual before stopping.
            x.t_mul_vec_rows(&sub.rows, z, r, spare);
            let ss;
            [omega, rho, ss] = finish(r, w, s, m_inv);
            if omega <= opts.epsilon * opts.epsilon * zz {
                converged = true;
                break;
            }
            // The recursive residual drifted from the true one: restart along the true
            // one, since the step length ρ/pᵀAp assumes r ⟂ p (ill-conditioned problems
            // diverged without the restart).
            p.copy_from_slice(if PRE { s } else { r });
            pp = ss;
        }
        if iterations == opts.max_iter {
            break;
        }
        iterations += 1;
        let curvature =
            lambda * pp + x.gram_mul_vec_rows((&sub.rows, spans), &sub.cost, p, q, s, spare);
        if curvature <= 0.0 {
            break;
        }
        let gamma = rho / curvature;
        let rho_old = rho;
        [omega, rho] = in_lanes(d, |j, [rr, rs]| {
            let (p, mi) = (&p[j.clone()], &m_inv[if PRE { j.clone() } else { 0..0 }]);
            let (w, r, s) = (&mut w[j.clone()], &mut r[j.clone()], &mut s[j]);
            for l in 0..w.len() {
                w[l] += gamma * p[l];
                r[l] -= gamma * (s[l] + lambda * p[l]);
                rr[l] += r[l] * r[l];
                if PRE {
                    s[l] = mi[l] * r[l];
                    rs[l] += r[l] * s[l];
                }
            }
        });
        if !PRE {
            rho = omega;
        }
        [zz] = in_lanes(m, |j, [zz]| {
            let (rows, c, q, z) =
                (&sub.rows[j.clone()], &sub.cost[j.clone()], &q[j.clone()], &mut z[j]);
            for l in 0..z.len() {
                z[l] -= gamma * c[l] * q[l];
                zz[l] += z[l] * z[l];
                o_bar[rows[l] as usize] += gamma * q[l];
            }
        });
        let beta = rho / rho_old;
        let direction: &[f64] = if PRE { s } else { r };
        [pp] = in_lanes(d, |j, [pp]| {
            let (g, p) = (&direction[j.clone()], &mut p[j]);
            for l in 0..p.len() {
                p[l] = g[l] + beta * p[l];
                pp[l] += p[l] * p[l];
            }
        });
    }
    CglsReport { converged, iterations }
}

/// The mean of the non-zero entries of `a` (0 when there are none).
fn mean_nonzero(a: &[f64]) -> f64 {
    let nonzero = a.iter().filter(|v| **v != 0.0).count();
    if nonzero == 0 { 0.0 } else { a.iter().sum::<f64>() / nonzero as f64 }
}

/// Independent partial sums per sum (chains of additions that overlap and vectorise).
const LANES: usize = 8;

/// Runs `block(range, lanes)` over 0..len in blocks of [`LANES`] (the last one shorter) and
/// returns each of the N sums the blocks accumulate per lane, the lanes added in order at the
/// end: a fixed order, so the same bits on every run.
#[inline(always)]
fn in_lanes<const N: usize>(
    len: usize,
    mut block: impl FnMut(std::ops::Range<usize>, &mut [[f64; LANES]; N]),
) -> [f64; N] {
    let mut acc = [[0.0; LANES]; N];
    let full = len - len % LANES;
    for b in (0..full).step_by(LANES) {
        block(b..b + LANES, &mut acc);
    }
    block(full..len, &mut acc);
    acc.map(|a| a.iter().sum())
}

/// Σ a_i b_i (in [`LANES`] partial sums).
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    let [s] = in_lanes(a.len().min(b.len()), |j, [s]| {
        let (a, b) = (&a[j.clone()], &b[j]);
        for l in 0..a.len() {
            s[l] += a[l] * b[l];
        }
    });
    s
}

#[cfg(test)]
mod tests;
