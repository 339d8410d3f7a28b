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

use super::design::Design;

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
    s: Vec<f64>,
    /// Partial sums of the chunked transposed mat-vecs.
    spare: Vec<f64>,
}

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
    epsilon: f64,
    max_iter: usize,
    w: &mut [f64],
    o: impl Fn(usize) -> f64,
    o_bar: &mut [f64],
    work: &mut CglsWork,
) -> CglsReport {
    let (m, d) = (sub.rows.len(), w.len());
    let CglsWork { z, q, r, p, s, spare } = work;
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
    let explicit = |z: &[f64], r: &mut [f64], w: &[f64], spare: &mut Vec<f64>| {
        x.t_mul_vec_rows(&sub.rows, z, r, spare);
        let [rr] = in_lanes(d, |j, [rr]| {
            let (r, w) = (&mut r[j.clone()], &w[j]);
            for l in 0..r.len() {
                r[l] -= lambda * w[l];
                rr[l] += r[l] * r[l];
            }
        });
        rr
    };
    let mut omega = explicit(z, r, w, spare);
    let mut zz = dot(z, z);
    p.copy_from_slice(r);
    let mut pp = omega;
    let (mut iterations, mut converged) = (0, false);
    loop {
        if omega <= epsilon * epsilon * zz {
            // Confirm with the explicit residual before stopping.
            omega = explicit(z, r, w, spare);
            if omega <= epsilon * epsilon * zz {
                converged = true;
                break;
            }
        }
        if iterations == max_iter {
            break;
        }
        iterations += 1;
        let curvature = lambda * pp + x.gram_mul_vec_rows(&sub.rows, &sub.cost, p, q, s, spare);
        if curvature <= 0.0 {
            break;
        }
        let gamma = omega / curvature;
        let omega_old = omega;
        [omega] = in_lanes(d, |j, [rr]| {
            let (p, s) = (&p[j.clone()], &s[j.clone()]);
            let (w, r) = (&mut w[j.clone()], &mut r[j]);
            for l in 0..w.len() {
                w[l] += gamma * p[l];
                r[l] -= gamma * (s[l] + lambda * p[l]);
                rr[l] += r[l] * r[l];
            }
        });
        [zz] = in_lanes(m, |j, [zz]| {
            let (rows, c, q, z) =
                (&sub.rows[j.clone()], &sub.cost[j.clone()], &q[j.clone()], &mut z[j]);
            for l in 0..z.len() {
                z[l] -= gamma * c[l] * q[l];
                zz[l] += z[l] * z[l];
                o_bar[rows[l] as usize] += gamma * q[l];
            }
        });
        let beta = omega / omega_old;
        [pp] = in_lanes(d, |j, [pp]| {
            let (r, p) = (&r[j.clone()], &mut p[j]);
            for l in 0..p.len() {
                p[l] = r[l] + beta * p[l];
                pp[l] += p[l] * p[l];
            }
        });
    }
    CglsReport { converged, iterations }
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
            let rep = cgls(&x, &sub, lambda, 1e-12, 100, &mut w, |k| o[k], &mut o_bar, &mut work);
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
}
