//! CGLS: conjugate gradient on the normal equations of a weighted, regularised least-squares
//! problem over a subset of design rows, warm-started ("seeded") from a given w, with
//! five work vectors.
//!
//! Each iteration needs X_J p and X_Jᵀ C X_J p; both come from one pass over the rows
//! ([`Design::gram_mul_vec_rows`]), which halves the memory traffic of the two separate
//! mat-vecs of the public release. The residual r = X_Jᵀz − λw is then updated
//! recursively, r ← r − γ(X_JᵀCq + λp); whenever it meets the stopping rule, r is recomputed
//! explicitly and the rule checked again, so the answer satisfies ‖r‖² ≤ ε²‖z‖² exactly as
//! in the two-mat-vec form.

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
/// at the starting `w` (read once per row, so that the caller needs no copy of them).
#[allow(clippy::too_many_arguments)]
pub fn cgls(
    x: &Design,
    sub: &Subset,
    lambda: f64,
    epsilon: f64,
    max_iter: usize,
    w: &mut [f64],
    o: impl Fn(usize) -> f64,
    work: &mut CglsWork,
) -> CglsReport {
    let (m, d) = (sub.rows.len(), w.len());
    let CglsWork { z, q, r, p, s, spare } = work;
    z.resize(m, 0.0);
    q.resize(m, 0.0);
    r.resize(d, 0.0);
    p.resize(d, 0.0);
    s.resize(d, 0.0);
    for k in 0..m {
        z[k] = sub.cost[k] * (sub.target[k] - o(k));
    }
    let explicit = |z: &[f64], r: &mut [f64], w: &[f64], spare: &mut Vec<f64>| {
        x.t_mul_vec_rows(&sub.rows, z, r, spare);
        for (rj, wj) in r.iter_mut().zip(w) {
            *rj -= lambda * wj;
        }
        dot(r, r)
    };
    let mut omega = explicit(z, r, w, spare);
    let mut zz = dot(z, z);
    p.copy_from_slice(r);
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
        x.gram_mul_vec_rows(&sub.rows, &sub.cost, p, q, s, spare);
        let curvature = lambda * dot(p, p) + dot(p, s);
        if curvature <= 0.0 {
            break;
        }
        let gamma = omega / curvature;
        for j in 0..d {
            w[j] += gamma * p[j];
            r[j] -= gamma * (s[j] + lambda * p[j]);
        }
        for k in 0..m {
            z[k] -= gamma * sub.cost[k] * q[k];
        }
        let omega_old = omega;
        omega = dot(r, r);
        zz = dot(z, z);
        let beta = omega / omega_old;
        for (pj, rj) in p.iter_mut().zip(r.iter()) {
            *pj = rj + beta * *pj;
        }
    }
    CglsReport { converged, iterations }
}

/// Σ a_i b_i.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
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
            let rep = cgls(&x, &sub, lambda, 1e-12, 100, &mut w, |k| o[k], &mut work);
            assert!(rep.converged && rep.iterations <= 6, "{rep:?}");
            assert!(grad(&w) < 1e-9, "gradient {}", grad(&w));
        }
    }
}
