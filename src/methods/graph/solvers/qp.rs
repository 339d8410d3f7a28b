//! SVM-type dual QP: min ½βᵀQβ + pᵀβ s.t. yᵀβ = 0, 0 ≤ β ≤ C, y ∈ {±1}ⁿ, Q symmetric PSD.
//! SMO with LIBSVM's second-order working-set selection (Fan, Chen & Lin 2005).

use faer::MatRef;

use crate::error::{Error, Result};

/// One dual QP; `q` is n × n, `p` and `y` have length n.
#[derive(Debug, Clone, Copy)]
pub struct DualQp<'a> {
    pub q: MatRef<'a, f64>,
    pub p: &'a [f64],
    pub y: &'a [f64],
    pub c: f64,
}

/// Stopping rule: maximal KKT violation below `tol`, at most `max_iter` SMO steps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QpSettings {
    pub tol: f64,
    pub max_iter: usize,
}

impl Default for QpSettings {
    fn default() -> Self {
        QpSettings { tol: 1e-6, max_iter: 1_000_000 }
    }
}

/// The minimiser, the multiplier b of yᵀβ = 0 (the SVM bias: G_t + b y_t = 0 on free β_t,
/// with G = Qβ + p; b = −ρ in LIBSVM's notation) and the number of SMO steps.
#[derive(Debug, Clone)]
pub struct QpSolution {
    pub beta: Vec<f64>,
    pub bias: f64,
    pub iterations: usize,
}

const TAU: f64 = 1e-12;

impl DualQp<'_> {
    /// Solves from `start` (feasible: in the box with yᵀβ = 0) or from β = 0.
    pub fn solve(&self, start: Option<&[f64]>, settings: QpSettings) -> Result<QpSolution> {
        let n = self.y.len();
        if self.q.nrows() != n || self.q.ncols() != n || self.p.len() != n {
            return Err(Error::Data(format!(
                "dual QP shapes: Q {}×{}, p {}, y {n}",
                self.q.nrows(),
                self.q.ncols(),
                self.p.len()
            )));
        }
        let c = self.c;
        let mut beta = start.map_or_else(|| vec![0.0; n], <[f64]>::to_vec);
        let mut grad = self.p.to_vec();
        for (j, b) in beta.iter().enumerate().filter(|(_, b)| **b != 0.0) {
            for (t, g) in grad.iter_mut().enumerate() {
                *g += self.q[(t, j)] * b;
            }
        }
        let y = self.y;
        let up = |t: usize, b: &[f64]| (y[t] > 0.0 && b[t] < c) || (y[t] < 0.0 && b[t] > 0.0);
        let low = |t: usize, b: &[f64]| (y[t] > 0.0 && b[t] > 0.0) || (y[t] < 0.0 && b[t] < c);
        for iteration in 0..settings.max_iter {
            // i: maximal −y G over I_up; j: second-order choice over I_low.
            let mut i = usize::MAX;
            let mut g_max = f64::NEG_INFINITY;
            for t in 0..n {
                if up(t, &beta) && -y[t] * grad[t] >= g_max {
                    g_max = -y[t] * grad[t];
                    i = t;
                }
            }
            let mut j = usize::MAX;
            let mut g_min = f64::INFINITY;
            let mut best = f64::INFINITY;
            for t in 0..n {
                if !low(t, &beta) {
                    continue;
                }
                g_min = g_min.min(-y[t] * grad[t]);
                let b = g_max + y[t] * grad[t];
                if i != usize::MAX && b > 0.0 {
                    let a = self.q[(i, i)] + self.q[(t, t)] - 2.0 * y[i] * y[t] * self.q[(i, t)];
                    let obj = -b * b / a.max(TAU);
                    if obj <= best {
                        best = obj;
                        j = t;
                    }
                }
            }
            if i == usize::MAX || j == usize::MAX || g_max - g_min < settings.tol {
                return Ok(QpSolution {
                    bias: self.bias(&beta, &grad),
                    beta,
                    iterations: iteration,
                });
            }
            let (old_i, old_j) = (beta[i], beta[j]);
            self.step(i, j, &mut beta, &grad);
            let (di, dj) = (beta[i] - old_i, beta[j] - old_j);
            for (t, g) in grad.iter_mut().enumerate() {
                *g += self.q[(t, i)] * di + self.q[(t, j)] * dj;
            }
        }
        Err(Error::Data(format!(
            "SVM dual QP: no convergence in {} SMO steps (tol {})",
            settings.max_iter, settings.tol
        )))
    }

    /// The analytic two-variable update of LIBSVM (Q here is the signed matrix).
    fn step(&self, i: usize, j: usize, beta: &mut [f64], grad: &[f64]) {
        let (c, q, y) = (self.c, self.q, self.y);
        if y[i] != y[j] {
            let quad = (q[(i, i)] + q[(j, j)] + 2.0 * q[(i, j)]).max(TAU);
            let delta = (-grad[i] - grad[j]) / quad;
            let diff = beta[i] - beta[j];
            beta[i] += delta;
            beta[j] += delta;
            if diff > 0.0 && beta[j] < 0.0 {
                beta[j] = 0.0;
                beta[i] = diff;
            } else if diff <= 0.0 && beta[i] < 0.0 {
                beta[i] = 0.0;
                beta[j] = -diff;
            }
            if diff > 0.0 && beta[i] > c {
                beta[i] = c;
                beta[j] = c - diff;
            } else if diff <= 0.0 && beta[j] > c {
                beta[j] = c;
                beta[i] = c + diff;
            }
        } else {
            let quad = (q[(i, i)] + q[(j, j)] - 2.0 * q[(i, j)]).max(TAU);
            let delta = (grad[i] - grad[j]) / quad;
            let sum = beta[i] + beta[j];
            beta[i] -= delta;
            beta[j] += delta;
            if sum > c && beta[i] > c {
                beta[i] = c;
                beta[j] = sum - c;
            } else if sum <= c && beta[j] < 0.0 {
                beta[j] = 0.0;
                beta[i] = sum;
            }
            if sum > c && beta[j] > c {
                beta[j] = c;
                beta[i] = sum - c;
            } else if sum <= c && beta[i] < 0.0 {
                beta[i] = 0.0;
                beta[j] = sum;
            }
        }
    }

    /// b from the KKT conditions: the mean of −y_t G_t over free β_t, else the middle of
    /// the feasible interval.
    fn bias(&self, beta: &[f64], grad: &[f64]) -> f64 {
        let (mut ub, mut lb, mut sum, mut free) = (f64::INFINITY, f64::NEG_INFINITY, 0.0, 0usize);
        for t in 0..beta.len() {
            let yg = self.y[t] * grad[t];
            let at_upper = beta[t] >= self.c;
            let at_lower = beta[t] <= 0.0;
            if (at_upper && self.y[t] < 0.0) || (at_lower && self.y[t] > 0.0) {
                ub = ub.min(yg);
            } else if at_upper || at_lower {
                lb = lb.max(yg);
            } else {
                sum += yg;
                free += 1;
            }
        }
        let rho = if free > 0 { sum / free as f64 } else { (ub + lb) / 2.0 };
        -rho
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use faer::Mat;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A random problem: Q = Y AᵀA Y (PSD, positive definite when m ≥ n).
    fn random_problem(n: usize, m: usize, seed: u64) -> (Mat<f64>, Vec<f64>, Vec<f64>) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let a = Mat::from_fn(m, n, |_, _| rng.random_range(-1.0..1.0));
        let y: Vec<f64> = (0..n).map(|t| if t % 2 == 0 { 1.0 } else { -1.0 }).collect();
        let k = a.transpose() * &a;
        let q = Mat::from_fn(n, n, |i, j| y[i] * y[j] * k[(i, j)]);
        let p: Vec<f64> = (0..n).map(|_| rng.random_range(-1.5..0.5)).collect();
        (q, p, y)
    }

    fn objective(q: &Mat<f64>, p: &[f64], b: &[f64]) -> f64 {
        let n = b.len();
        (0..n)
            .map(|i| p[i] * b[i] + 0.5 * b[i] * (0..n).map(|j| q[(i, j)] * b[j]).sum::<f64>())
            .sum()
    }

    /// Dense Gaussian elimination with partial pivoting; None when singular.
    fn solve_dense(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
        let n = b.len();
        for col in 0..n {
            let piv = (col..n).max_by(|&r, &s| a[r][col].abs().total_cmp(&a[s][col].abs()))?;
            if a[piv][col].abs() < 1e-12 {
                return None;
            }
            a.swap(col, piv);
            b.swap(col, piv);
            for r in col + 1..n {
                let f = a[r][col] / a[col][col];
                for c in col..n {
                    a[r][c] -= f * a[col][c];
                }
                b[r] -= f * b[col];
            }
        }
        let mut x = vec![0.0; n];
        for r in (0..n).rev() {
            x[r] = (b[r] - (r + 1..n).map(|c| a[r][c] * x[c]).sum::<f64>()) / a[r][r];
        }
        Some(x)
    }

    /// Brute force over active sets: each β_t at 0, at C, or free (equality-constrained
    /// stationarity solved exactly); the best feasible candidate.
    fn brute_force(q: &Mat<f64>, p: &[f64], y: &[f64], c: f64) -> f64 {
        let n = y.len();
        let mut best = f64::INFINITY;
        for code in 0..3usize.pow(n as u32) {
            let state: Vec<usize> = (0..n).map(|t| code / 3usize.pow(t as u32) % 3).collect();
            let free: Vec<usize> = (0..n).filter(|&t| state[t] == 2).collect();
            let mut beta: Vec<f64> = state.iter().map(|s| if *s == 1 { c } else { 0.0 }).collect();
            if !free.is_empty() {
                let m = free.len();
                let mut a = vec![vec![0.0; m + 1]; m + 1];
                let mut rhs = vec![0.0; m + 1];
                for (r, &i) in free.iter().enumerate() {
                    for (s, &j) in free.iter().enumerate() {
                        a[r][s] = q[(i, j)];
                    }
                    a[r][m] = y[i];
                    a[m][r] = y[i];
                    rhs[r] = -p[i]
                        - (0..n)
                            .filter(|t| state[*t] != 2)
                            .map(|t| q[(i, t)] * beta[t])
                            .sum::<f64>();
                }
                rhs[m] = -(0..n).filter(|t| state[*t] != 2).map(|t| y[t] * beta[t]).sum::<f64>();
                let Some(x) = solve_dense(a, rhs) else { continue };
                for (r, &i) in free.iter().enumerate() {
                    beta[i] = x[r];
                }
            }
            let feasible = beta.iter().all(|b| *b >= -1e-12 && *b <= c + 1e-12)
                && beta.iter().zip(y).map(|(b, y)| b * y).sum::<f64>().abs() < 1e-9;
            if feasible {
                best = best.min(objective(q, p, &beta));
            }
        }
        best
    }

    #[test]
    fn kkt_conditions_hold() {
        for seed in 0..10 {
            let (q, p, y) = random_problem(30, 8, seed);
            let c = 0.7;
            let qp = DualQp { q: q.as_ref(), p: &p, y: &y, c };
            let sol = qp.solve(None, QpSettings { tol: 1e-9, max_iter: 100_000 }).unwrap();
            assert!(sol.beta.iter().zip(&y).map(|(b, y)| b * y).sum::<f64>().abs() < 1e-10);
            for t in 0..30 {
                let b = sol.beta[t];
                assert!((0.0..=c).contains(&b));
                let g: f64 = p[t] + (0..30).map(|j| q[(t, j)] * sol.beta[j]).sum::<f64>();
                let r = g + sol.bias * y[t];
                if b <= 0.0 {
                    assert!(r >= -1e-6, "seed {seed}, t {t}: β = 0 but G + by = {r}");
                } else if b >= c {
                    assert!(r <= 1e-6, "seed {seed}, t {t}: β = C but G + by = {r}");
                } else {
                    assert!(r.abs() < 1e-6, "seed {seed}, t {t}: free but G + by = {r}");
                }
            }
        }
    }

    #[test]
    fn matches_brute_force_on_tiny_problems() {
        for seed in 0..20 {
            let (q, p, y) = random_problem(5, 6, 100 + seed);
            let qp = DualQp { q: q.as_ref(), p: &p, y: &y, c: 1.3 };
            let sol = qp.solve(None, QpSettings { tol: 1e-10, max_iter: 100_000 }).unwrap();
            let best = brute_force(&q, &p, &y, 1.3);
            assert!((objective(&q, &p, &sol.beta) - best).abs() < 1e-8, "seed {seed}");
        }
    }

    #[test]
    fn warm_start_and_iteration_cap() {
        let (q, p, y) = random_problem(20, 5, 9);
        let qp = DualQp { q: q.as_ref(), p: &p, y: &y, c: 2.0 };
        let cold = qp.solve(None, QpSettings::default()).unwrap();
        let warm = qp.solve(Some(&cold.beta), QpSettings::default()).unwrap();
        assert!(warm.iterations <= 1);
        assert!(qp.solve(None, QpSettings { tol: 1e-12, max_iter: 1 }).is_err());
    }
}
