//! The graph ROF solves ([`EdgeOperator::solve`], [`EdgeOperator::solve_lanes`]) and their
//! lockstep kernel: one Chambolle–Pock iteration of up to L problems per pass over the
//! edges, each problem's entries updated by the same IEEE operations in the same order as
//! when it is solved alone.

use super::rof::{EdgeOperator, RofReport, RofSettings, RofWorkspace};
use crate::linalg::{Kernel, widest};

impl EdgeOperator {
    /// Fresh buffers (zero dual variables) for `L` problems on this graph.
    pub fn workspace<const L: usize>(&self) -> RofWorkspace<L> {
        let nodes = vec![[0.0; L]; self.n()];
        RofWorkspace {
            p: vec![[0.0; L]; self.to.len()],
            p_done: vec![[0.0; L]; self.to.len()],
            u_done: nodes.clone(),
            f: nodes.clone(),
            u: nodes.clone(),
            u_dual: nodes.clone(),
            u_bar: nodes.clone(),
            dtp: nodes,
        }
    }

    /// Solves for u (warm-started from its content) with data `f`, γ ≥ 0 and μ > 0.
    pub fn solve(
        &self,
        f: &[f64],
        gamma: f64,
        mu: f64,
        u: &mut [f64],
        work: &mut RofWorkspace,
        settings: RofSettings,
    ) -> RofReport {
        self.solve_lanes(&[f], gamma, &[mu], &mut [u], work, settings)[0]
    }

    /// Solves up to `L` problems of the same γ in lockstep: problem k has data `f[k]`,
    /// fidelity `mu[k]` > 0 and its solution in `u[k]` (warm-started from its content), and
    /// stops on its own rule; the result of each is that of [`solve`](Self::solve) alone.
    /// Panics unless `f`, `mu` and `u` have the same length, at most `L`.
    pub fn solve_lanes<const L: usize>(
        &self,
        f: &[&[f64]],
        gamma: f64,
        mu: &[f64],
        u: &mut [&mut [f64]],
        work: &mut RofWorkspace<L>,
        settings: RofSettings,
    ) -> Vec<RofReport> {
        assert!(f.len() == mu.len() && u.len() == mu.len() && mu.len() <= L);
        let mut lanes = [1.0; L];
        lanes[..mu.len()].copy_from_slice(mu);
        for i in 0..self.n() {
            for k in 0..L {
                let live = k < mu.len();
                work.f[i][k] = if live { f[k][i] } else { 0.0 };
                work.u[i][k] = if live { u[k][i] } else { 0.0 };
            }
        }
        let mut live = [false; L];
        live[..mu.len()].fill(true);
        let solve = Lanes { op: self, gamma, mu: lanes, live, settings, work };
        // One problem gains nothing from wide registers (measured ~5 % slower there).
        let reports = if L == 1 {
            crate::linalg::clear_upper_simd();
            solve.run()
        } else {
            widest(solve)
        };
        for (k, u) in u.iter_mut().enumerate() {
            u.iter_mut().zip(&work.u).for_each(|(u, v)| *u = v[k]);
        }
        reports[..mu.len()].to_vec()
    }
}

/// The lockstep solve as a [`Kernel`]: problems whose `live` is false (padding, or stopped)
/// keep their dual variable and their solution, which is left in `work.u`.
struct Lanes<'a, const L: usize> {
    op: &'a EdgeOperator,
    gamma: f64,
    mu: [f64; L],
    live: [bool; L],
    settings: RofSettings,
    work: &'a mut RofWorkspace<L>,
}

/// The per-problem step sizes σ and τ of one primal–dual step and its extrapolation θ.
#[derive(Clone, Copy)]
struct Step<const L: usize> {
    sigma: [f64; L],
    tau: [f64; L],
    theta: [f64; L],
}

impl<const L: usize> Kernel for Lanes<'_, L> {
    type Output = [RofReport; L];

    /// The iterations. A problem that stops has its dual variable and its solution copied to
    /// `p_done` and `u_done`; its lane keeps computing (no branch in the loop) but its
    /// results are dropped, and at the end `p` and `u` are set from the copies.
    #[inline(always)]
    fn run(mut self) -> [RofReport; L] {
        let (gamma, settings) = (self.gamma, self.settings);
        let mut reports = [RofReport { iterations: 0, gap: f64::INFINITY, converged: false }; L];
        let l = self.op.norm_sq.sqrt().max(f64::MIN_POSITIVE);
        let mut step = Step { sigma: [1.0 / l; L], tau: [1.0 / l; L], theta: [1.0; L] };
        for pe in self.work.p.iter_mut().flatten() {
            *pe = pe.clamp(-gamma, gamma);
        }
        self.work.u_bar.copy_from_slice(&self.work.u);
        self.work.p_done.copy_from_slice(&self.work.p);
        self.work.u_done.copy_from_slice(&self.work.u);
        for iteration in 1..=settings.max_iter {
            for k in 0..L {
                step.theta[k] = 1.0 / (1.0 + 2.0 * self.mu[k] * step.tau[k]).sqrt();
            }
            self.step(step);
            for k in 0..L {
                step.tau[k] *= step.theta[k];
                step.sigma[k] /= step.theta[k];
            }
            if iteration % 10 == 0 || iteration == settings.max_iter {
                let (gap, primal, from_dual) = self.best_primal();
                for k in (0..L).filter(|&k| self.live[k]) {
                    let converged = gap[k] <= settings.tol * primal[k].max(f64::MIN_POSITIVE);
                    if converged || iteration == settings.max_iter {
                        let w = &mut *self.work;
                        let u = if from_dual[k] { &w.u_dual } else { &w.u };
                        w.u_done.iter_mut().zip(u).for_each(|(done, u)| done[k] = u[k]);
                        w.p_done.iter_mut().zip(&w.p).for_each(|(done, p)| done[k] = p[k]);
                        reports[k] = RofReport { iterations: iteration, gap: gap[k], converged };
                    }
                }
                (0..L).for_each(|k| self.live[k] &= reports[k].iterations != iteration);
                if !self.live.contains(&true) {
                    break;
                }
            }
        }
        let w = &mut *self.work;
        w.p.copy_from_slice(&w.p_done);
        w.u.copy_from_slice(&w.u_done);
        reports
    }
}

impl<const L: usize> Lanes<'_, L> {
    /// One primal–dual step, node by node in edge order: p_e ← clamp(p_e + σ w_e (ū_i − ū_j),
    /// ±γ) for node i's edges, Dᵀp (complete for i once its own edges are added, the
    /// lower ones having been scattered before), u_i ← (u_i − τ(Dᵀp)_i + τμ f_i)/(1 + τμ)
    /// and ū_i = u_i + θ(u_i − u_i^old). Additions into Dᵀp are in edge order. Written
    /// lane-wise without branches, so that the compiler keeps the L lanes in one register.
    #[inline(always)]
    fn step(&mut self, step: Step<L>) {
        let Step { sigma, tau, theta } = step;
        let (op, gamma, mu) = (self.op, self.gamma, self.mu);
        let (mut tau_mu, mut denom) = ([0.0; L], [0.0; L]);
        for k in 0..L {
            tau_mu[k] = tau[k] * mu[k];
            denom[k] = 1.0 + tau[k] * mu[k];
        }
        // Slices held in registers: the loop reads no Vec header back from memory.
        let n = op.n();
        let RofWorkspace { p, f, u, u_bar, dtp, .. } = &mut *self.work;
        let (f, u, u_bar, dtp) = (&f[..n], &mut u[..n], &mut u_bar[..n], &mut dtp[..n]);
        let (first, to, weights) = (&op.first[..=n], &op.to[..], &op.w[..]);
        dtp.fill([0.0; L]);
        for i in 0..n {
            let (ui, mut acc) = (u_bar[i], dtp[i]);
            let r = first[i]..first[i + 1];
            for ((pe, &j), &we) in p[r.clone()].iter_mut().zip(&to[r.clone()]).zip(&weights[r]) {
                let j = j as usize;
                let (ubj, mut dj) = (u_bar[j], dtp[j]);
                let mut x = [0.0; L];
                for k in 0..L {
                    x[k] = pe[k] + sigma[k] * we * (ui[k] - ubj[k]);
                    x[k] = if x[k] < -gamma { -gamma } else { x[k] };
                    x[k] = if x[k] > gamma { gamma } else { x[k] };
                    acc[k] += we * x[k];
                    dj[k] -= we * x[k];
                }
                *pe = x;
                dtp[j] = dj;
            }
            dtp[i] = acc;
            let old = u[i];
            let (mut new, mut extrapolated) = ([0.0; L], [0.0; L]);
            for k in 0..L {
                new[k] = (old[k] - tau[k] * acc[k] + tau_mu[k] * f[i][k]) / denom[k];
                extrapolated[k] = new[k] + theta[k] * (new[k] - old[k]);
            }
            u[i] = new;
            u_bar[i] = extrapolated;
        }
    }

    /// Compares each iterate u with the primal point of its dual iterate, u(p) = f − Dᵀp/μ
    /// (exact once p is optimal; left in `work.u_dual`): per problem (smaller gap, its primal
    /// value, whether u(p) is the better one). Needs `work.dtp` = Dᵀp.
    #[inline(always)]
    fn best_primal(&mut self) -> ([f64; L], [f64; L], [bool; L]) {
        let (op, gamma, mu) = (self.op, self.gamma, self.mu);
        let n = op.n();
        let RofWorkspace { f, u, u_dual, dtp, .. } = &mut *self.work;
        let (f, u, u_dual, dtp) = (&f[..n], &u[..n], &mut u_dual[..n], &dtp[..n]);
        let (mut dual, mut dist_u, mut dist_dual) = ([0.0; L], [0.0; L], [0.0; L]);
        for i in 0..n {
            for k in 0..L {
                let (d, f) = (dtp[i][k], f[i][k]);
                dual[k] += d * f - d * d / (2.0 * mu[k]);
                u_dual[i][k] = f - d / mu[k];
                dist_u[k] += (u[i][k] - f) * (u[i][k] - f);
                dist_dual[k] += (u_dual[i][k] - f) * (u_dual[i][k] - f);
            }
        }
        let (mut tv_u, mut tv_dual) = ([0.0; L], [0.0; L]);
        let (first, to, weights) = (&op.first[..=n], &op.to[..], &op.w[..]);
        for i in 0..n {
            let r = first[i]..first[i + 1];
            for (&j, &we) in to[r.clone()].iter().zip(&weights[r]) {
                let j = j as usize;
                for k in 0..L {
                    tv_u[k] += we * (u[i][k] - u[j][k]).abs();
                    tv_dual[k] += we * (u_dual[i][k] - u_dual[j][k]).abs();
                }
            }
        }
        let (mut gap, mut primal, mut from_dual) = ([0.0; L], [0.0; L], [false; L]);
        for k in 0..L {
            let p_iter = gamma * tv_u[k] + 0.5 * mu[k] * dist_u[k];
            let p_dual = gamma * tv_dual[k] + 0.5 * mu[k] * dist_dual[k];
            from_dual[k] = p_dual < p_iter;
            primal[k] = if from_dual[k] { p_dual } else { p_iter };
            gap[k] = primal[k] - dual[k];
        }
        (gap, primal, from_dual)
    }
}

#[cfg(test)]
mod tests {
    use crate::methods::graph::{EdgeOperator, RofReport, RofSettings, SymGraph};

    /// The one-problem solver as it was written before the lockstep version: the reference
    /// whose bits every lane must reproduce. Returns u, its report and the dual variable.
    fn reference(
        g: &SymGraph,
        f: &[f64],
        (gamma, mu): (f64, f64),
        u: &mut [f64],
        p: &mut Vec<f64>,
        settings: RofSettings,
    ) -> RofReport {
        let n = g.n();
        let edges: Vec<(usize, usize, f64)> = (0..n)
            .flat_map(|i| g.row(i).filter(move |(j, _)| *j > i).map(move |(j, w)| (i, j, w)))
            .collect();
        p.resize(edges.len(), 0.0);
        let norm_sq =
            2.0 * (0..n).map(|i| g.row(i).map(|(_, w)| w * w).sum::<f64>()).fold(0.0, f64::max);
        let tv = |v: &[f64]| {
            let mut sum = 0.0;
            for &(i, j, w) in &edges {
                sum += w * (v[i] - v[j]).abs();
            }
            sum
        };
        let l = norm_sq.sqrt().max(f64::MIN_POSITIVE);
        let (mut tau, mut sigma) = (1.0 / l, 1.0 / l);
        p.iter_mut().for_each(|pe| *pe = pe.clamp(-gamma, gamma));
        let (mut u_bar, mut dtp) = (u.to_vec(), vec![0.0; n]);
        let mut gap = f64::INFINITY;
        for iteration in 1..=settings.max_iter {
            let theta = 1.0 / (1.0 + 2.0 * mu * tau).sqrt();
            dtp.fill(0.0);
            let mut e = 0;
            for i in 0..n {
                let (ui, mut d) = (u_bar[i], dtp[i]);
                while e < edges.len() && edges[e].0 == i {
                    let (_, j, w) = edges[e];
                    p[e] = (p[e] + sigma * w * (ui - u_bar[j])).clamp(-gamma, gamma);
                    d += w * p[e];
                    dtp[j] -= w * p[e];
                    e += 1;
                }
                dtp[i] = d;
                let old = u[i];
                u[i] = (old - tau * d + tau * mu * f[i]) / (1.0 + tau * mu);
                u_bar[i] = u[i] + theta * (u[i] - old);
            }
            tau *= theta;
            sigma /= theta;
            if iteration % 10 == 0 || iteration == settings.max_iter {
                let dual: f64 = dtp.iter().zip(f).map(|(d, f)| d * f - d * d / (2.0 * mu)).sum();
                let u_dual: Vec<f64> = f.iter().zip(&dtp).map(|(f, d)| f - d / mu).collect();
                let dist = |v: &[f64]| v.iter().zip(f).map(|(x, y)| (x - y) * (x - y)).sum::<f64>();
                let (p_iter, p_dual) = (
                    gamma * tv(u) + 0.5 * mu * dist(u),
                    gamma * tv(&u_dual) + 0.5 * mu * dist(&u_dual),
                );
                let primal = p_iter.min(p_dual);
                gap = primal - dual;
                let converged = gap <= settings.tol * primal.max(f64::MIN_POSITIVE);
                if converged || iteration == settings.max_iter {
                    if p_dual < p_iter {
                        u.copy_from_slice(&u_dual);
                    }
                    return RofReport { iterations: iteration, gap, converged };
                }
            }
        }
        RofReport { iterations: settings.max_iter, gap, converged: false }
    }

    #[test]
    fn lanes_reproduce_solves_alone_bit_for_bit() {
        // A ring of 40 nodes with chords of uneven weights; three problems of different μ
        // (so they stop at different steps) in four lanes, twice in a row (the second call
        // warm-started from the first's dual variables), against the reference one by one.
        let n = 40;
        let ring = (0..n).map(|i| (i, (i + 1) % n, 1.0 + (i % 3) as f64));
        let chords = (0..n).step_by(3).map(|i| (i, (i * 7 + 5) % n, 0.3 + (i % 5) as f64 * 0.2));
        let g = SymGraph::from_edges(n, ring.chain(chords).filter(|(i, j, _)| i != j)).unwrap();
        let op = EdgeOperator::new(&g).unwrap();
        let settings = RofSettings { tol: 1e-6, max_iter: 400 };
        let mus = [0.5, 2.0, 9.0];
        let data = |k: usize, round: usize| -> Vec<f64> {
            (0..n).map(|i| ((i * (k + 2) + round) as f64 * 0.37).sin() * (k + 1) as f64).collect()
        };
        let mut work = op.workspace::<4>();
        let mut lanes: Vec<Vec<f64>> = (0..3).map(|k| vec![0.1 * k as f64; n]).collect();
        let mut alone = lanes.clone();
        let mut duals = vec![Vec::new(); 3];
        for round in 0..2 {
            let fs: Vec<Vec<f64>> = (0..3).map(|k| data(k, round)).collect();
            let f_refs: Vec<&[f64]> = fs.iter().map(Vec::as_slice).collect();
            let mut us: Vec<&mut [f64]> = lanes.iter_mut().map(Vec::as_mut_slice).collect();
            let got = op.solve_lanes(&f_refs, 0.4, &mus, &mut us, &mut work, settings);
            for k in 0..3 {
                let want =
                    reference(&g, &fs[k], (0.4, mus[k]), &mut alone[k], &mut duals[k], settings);
                assert_eq!(got[k], want, "round {round}, problem {k}");
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&lanes[k]), bits(&alone[k]), "round {round}, problem {k}");
            }
            let steps: Vec<usize> = got.iter().map(|r| r.iterations).collect();
            assert!(steps.iter().any(|&s| s != steps[0]), "the problems stop together: {steps:?}");
        }
    }
}
