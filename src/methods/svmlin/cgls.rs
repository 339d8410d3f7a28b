//! CGLS: conjugate gradient on the normal equations of a weighted, regularised least-squares
//! problem over a subset of design rows, warm-started ("seeded") from a given w, with
//! five work vectors.
//!
//! Each iteration needs X_J p and X_Jᵀ C X_J p; both come from one pass over the rows
//! ([`Design::gram_mul_vec_rows`]), which halves the memory traffic of the two separate
//! mat-vecs of the public release, and the curvature pᵀX_JᵀCX_Jp = Σ c_k q_k² comes with it.
//! The residual r = X_Jᵀz − λw is then updated recursively, r ← r − γ(X_JᵀCq + λp);
//! whenever it meets the stopping rule, r is recomputed explicitly and the rule checked
//! again, so the answer satisfies ‖r‖² ≤ ε²‖z‖² exactly as in the two-mat-vec form. The
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
mod tests {
    use super::*;
    use crate::data::{Csr, Features};
    use crate::methods::svmlin::with_bias;
    use ndarray::Array1;

    #[test]
    fn warm_and_cold_starts_reach_the_normal_equations() {
        // 5 rows × 3 columns; subset rows 0, 2, 3, 4 with costs and targets.
        let x = Csr::new(
            3,
            vec![0, 2, 3, 5, 6, 8],
            vec![0, 2, 1, 0, 1, 2, 0, 1],
            vec![1.0, -2.0, 0.5, 3.0, 1.0, 2.0, -1.0, 1.5],
        )
        .unwrap();
        let f = Features::Sparse(x);
        let x = with_bias(&[&f]).unwrap();
        let sub = Subset {
            rows: vec![0, 2, 3, 4],
            target: vec![1.0, -0.5, 2.0, 0.3],
            cost: vec![1.0, 0.5, 2.0, 0.25],
        };
        let lambda = 0.7;
        // Independent check: the gradient λw − X_Jᵀ C (t − X_J w) vanishes.
        let dense = x.to_dense();
        let grad = |w: &[f64]| -> f64 {
            let w = Array1::from(w.to_vec());
            let mut g = lambda * &w;
            for (k, &i) in sub.rows.iter().enumerate() {
                let res = sub.target[k] - dense.row(i as usize).dot(&w);
                g = g - sub.cost[k] * res * &dense.row(i as usize);
            }
            g.iter().map(|v| v.abs()).fold(0.0, f64::max)
        };
        let mut work = CglsWork::default();
        for start in [[0.0; 3], [5.0, -3.0, 1.0]] {
            let mut w = [&start[..], &[0.5]].concat();
            let mut o = vec![0.0; 4];
            x.mul_vec_rows(&sub.rows, &w, &mut o);
            let mut o_bar = vec![f64::NAN; 5];
            let opts = CglsOptions { epsilon: 1e-12, max_iter: 100, precondition: false };
            let rep = cgls(&x, &sub, lambda, &opts, &mut w, |k| o[k], &mut o_bar, &mut work);
            assert!(rep.converged && rep.iterations <= 6, "{rep:?}");
            assert!(grad(&w) < 1e-9, "gradient {}", grad(&w));
            // The carried outputs are X_J w at the answer; row 1 is not in the subset.
            let mut fresh = vec![0.0; 4];
            x.mul_vec_rows(&sub.rows, &w, &mut fresh);
            for (k, &i) in sub.rows.iter().enumerate() {
                assert!((o_bar[i as usize] - fresh[k]).abs() < 1e-12, "row {i}");
            }
            assert!(o_bar[1].is_nan());
        }
    }

    /// Columns over four orders of magnitude and a small λ (condition about 10¹⁶): the
    /// recursive residual drifts from the true one, and CG must restart along the true one
    /// rather than step on with the old direction (which diverged to |w| ≈ 10⁸⁰).
    #[test]
    fn ill_conditioned_cgls_restarts_and_converges() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let (n, cols, lambda) = (20, 40, 1e-4);
        let scale: Vec<f64> = (0..cols).map(|_| 10f64.powf(rng.random_range(0.0..4.0))).collect();
        let (mut indptr, mut indices, mut values) = (vec![0], Vec::new(), Vec::new());
        for _ in 0..n {
            for (j, sj) in scale.iter().enumerate() {
                indices.push(j as u32);
                values.push(sj * rng.random_range(-1.7..1.7));
            }
            indptr.push(indices.len());
        }
        let f = Features::Sparse(Csr::new(cols, indptr, indices, values).unwrap());
        let x = with_bias(&[&f]).unwrap();
        let sub = Subset {
            rows: (0..n as u32).collect(),
            target: (0..n).map(|_| if rng.random_bool(0.5) { 1.0 } else { -1.0 }).collect(),
            cost: vec![1.0; n],
        };
        let mut w = vec![0.0; cols + 1];
        let opts = CglsOptions { epsilon: 1e-6, max_iter: 10_000, precondition: false };
        let mut work = CglsWork::default();
        let rep = cgls(&x, &sub, lambda, &opts, &mut w, |_| 0.0, &mut vec![0.0; n], &mut work);
        assert!(rep.converged, "{rep:?}");
        // ½λ‖w‖² ≤ the objective at w = 0, ½ Σ t² = n/2.
        let norm = dot(&w, &w).sqrt();
        assert!(norm <= (n as f64 / lambda).sqrt(), "|w| = {norm}");
        // The gradient λw − Xᵀ(t − Xw), recomputed densely, is small against Xᵀt.
        let dense = x.to_dense();
        let w_a = Array1::from(w);
        let res = Array1::from(sub.target.clone()) - dense.dot(&w_a);
        let grad = lambda * &w_a - dense.t().dot(&res);
        let xt = dense.t().dot(&Array1::from(sub.target.clone()));
        assert!(grad.dot(&grad).sqrt() <= 1e-5 * xt.dot(&xt).sqrt(), "gradient {grad}");
    }

    /// Preconditioned CGLS against a dense Cholesky solve of (X_JᵀCX_J + λI) w = X_JᵀCt, on
    /// columns scaled over five orders of magnitude, cold and warm, with and without the
    /// preconditioner: the answer satisfies the stopping rule on the true residual, is the
    /// dense solution, and its carried outputs are X_J w.
    #[test]
    fn preconditioned_cgls_matches_a_dense_solve() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let (n, cols) = (60, 25);
        let scale: Vec<f64> = (0..cols).map(|j| 10f64.powf(-3.0 + 5.0 * j as f64 / 24.0)).collect();
        let (mut indptr, mut indices, mut values) = (vec![0], Vec::new(), Vec::new());
        for _ in 0..n {
            for (j, sj) in scale.iter().enumerate() {
                if rng.random_bool(0.3) {
                    indices.push(j as u32);
                    values.push(sj * rng.random_range(-1.0..1.0));
                }
            }
            indptr.push(indices.len());
        }
        let f = Features::Sparse(Csr::new(cols, indptr, indices, values).unwrap());
        let x = with_bias(&[&f]).unwrap();
        let rows: Vec<u32> = (0..n as u32).filter(|i| i % 3 != 0).collect();
        let sub = Subset {
            target: rows.iter().map(|_| rng.random_range(-1.0..1.0)).collect(),
            cost: rows.iter().map(|_| rng.random_range(0.1..2.0)).collect(),
            rows,
        };
        let (lambda, d) = (1e-3, cols + 1);
        let dense = x.to_dense();
        let mut a = faer::Mat::<f64>::zeros(d, d);
        let mut b = faer::Mat::<f64>::zeros(d, 1);
        for (k, &i) in sub.rows.iter().enumerate() {
            let row = dense.row(i as usize);
            for j in 0..d {
                b[(j, 0)] += sub.cost[k] * sub.target[k] * row[j];
                for l in 0..d {
                    a[(j, l)] += sub.cost[k] * row[j] * row[l];
                }
            }
        }
        for j in 0..d {
            a[(j, j)] += lambda;
        }
        crate::linalg::spd_solve(a.as_ref(), &mut b, "test").unwrap();
        let epsilon = 1e-10;
        let mut work = CglsWork::default();
        for start in [0.0, 0.3] {
            for precondition in [false, true] {
                let mut w = vec![start; d];
                let mut o = vec![0.0; sub.rows.len()];
                x.mul_vec_rows(&sub.rows, &w, &mut o);
                let mut o_bar = vec![0.0; n];
                let opts = CglsOptions { epsilon, max_iter: 1000, precondition };
                let rep = cgls(&x, &sub, lambda, &opts, &mut w, |k| o[k], &mut o_bar, &mut work);
                assert!(rep.converged, "{rep:?}");
                // The rule on the true residual, recomputed densely.
                let w_a = Array1::from(w.clone());
                let mut r = -lambda * &w_a;
                let mut zz = 0.0;
                for (k, &i) in sub.rows.iter().enumerate() {
                    let row = dense.row(i as usize);
                    let o_k = row.dot(&w_a);
                    assert!((o_bar[i as usize] - o_k).abs() < 1e-9, "output of row {i}");
                    let z = sub.cost[k] * (sub.target[k] - o_k);
                    r.scaled_add(z, &row);
                    zz += z * z;
                }
                assert!(r.dot(&r) <= epsilon * epsilon * zz * (1.0 + 1e-6), "rule");
                for j in 0..d {
                    let tol = 1e-6 * b[(j, 0)].abs().max(1.0);
                    assert!((w[j] - b[(j, 0)]).abs() < tol, "w[{j}] {} vs {}", w[j], b[(j, 0)]);
                }
            }
        }
    }
}
