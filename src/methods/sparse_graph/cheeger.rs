//! Cheeger-RLS on the graph's nodes: the TV-SVM paper's scheme (eqs. 29–36) with f ∈ ℝᴺ in
//! place of the RKHS function. From f = the labels on the labeled nodes, 0 elsewhere,
//! rescaled to norm √N, each iteration: E = TV(f)/Σ_i |f_i − median f|; g = f + c·sign(f);
//! e = RLS(g) = argmin_e (λ/2)‖e‖² + (r/2)‖e − g‖² = g/(1 + λ) (eq. 37 without a kernel: a
//! diagonal solve; r = 1, as only λ/r matters); h = argmin_h TV(h) + (E/2c)‖h − e‖² (`rof.rs`,
//! its dual kept as a warm start); t = h − median(h); t or −t, whichever has the lower ratio
//! once the labels are clamped (as the graph family's binary Cheeger); s = t with the labeled
//! entries set to y; f = √N·s/‖s‖. Each label column runs the scheme alone.

use super::rof::{RofDual, RofProblem, solve_rof, total_variation};
use super::{Graph, SignedLabels};
use crate::error::Result;
use crate::methods::graph::{RofReport, RofSettings, median, normalise, sign};

/// The ridge λ, the step c, the outer iterations and the ROF settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CheegerSettings {
    pub lambda: f64,
    pub c: f64,
    pub iterations: usize,
    pub rof: RofSettings,
}

/// Scores f (n × columns row-major, every node, each column of norm √N) and the report of
/// every ROF solve.
pub fn cheeger_rls(
    g: &Graph,
    labels: &SignedLabels,
    settings: CheegerSettings,
) -> Result<(Vec<f64>, Vec<RofReport>)> {
    let (n, c) = (g.n(), labels.columns);
    let mut f = vec![0.0; n * c];
    let mut reports = Vec::with_capacity(c * settings.iterations);
    for k in 0..c {
        let column = Column { g, y: &labels.column(k), labeled: &labels.labeled };
        let u = column.run(settings, &mut reports)?;
        u.iter().enumerate().for_each(|(i, v)| f[i * c + k] = *v);
    }
    Ok((f, reports))
}

/// One label column: y on every node (0 where unlabeled) and the labeled nodes.
struct Column<'a> {
    g: &'a Graph,
    y: &'a [f64],
    labeled: &'a [bool],
}

impl Column<'_> {
    fn run(&self, st: CheegerSettings, reports: &mut Vec<RofReport>) -> Result<Vec<f64>> {
        let n = self.g.n();
        let shrink = 1.0 / (1.0 + st.lambda);
        let mut scratch = Vec::with_capacity(n);
        let (mut e, mut a, mut flipped) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        let start: Vec<f64> = self.y.iter().map(|v| shrink * v).collect();
        let mut f = self.clamped(&start);
        normalise(&mut f);
        let mut h = vec![0.0; n];
        let mut dual = RofDual::new(self.g);
        for _ in 0..st.iterations {
            let ratio = self.ratio(&f, &mut scratch);
            for i in 0..n {
                e[i] = shrink * (f[i] + st.c * sign(f[i]));
            }
            a.fill((ratio / st.c).max(f64::MIN_POSITIVE));
            h.copy_from_slice(&e);
            let problem = RofProblem { a: &a, b: &e, gamma: 1.0 };
            reports.push(solve_rof(self.g, problem, &mut h, &mut dual, st.rof)?);
            let m = median(&h, &mut scratch);
            h.iter_mut().for_each(|v| *v -= m);
            flipped.iter_mut().zip(&h).for_each(|(s, t)| *s = -t);
            if self.ratio(&self.clamped(&flipped), &mut scratch)
                < self.ratio(&self.clamped(&h), &mut scratch)
            {
                std::mem::swap(&mut h, &mut flipped);
            }
            f = self.clamped(&h);
            normalise(&mut f);
        }
        Ok(f)
    }

    /// t with the labeled entries set to y.
    fn clamped(&self, t: &[f64]) -> Vec<f64> {
        t.iter().zip(self.y).zip(self.labeled).map(|((t, y), &l)| if l { *y } else { *t }).collect()
    }

    /// The Cheeger ratio TV(f) / Σ_i |f_i − median f| (objective 28).
    fn ratio(&self, f: &[f64], scratch: &mut Vec<f64>) -> f64 {
        let m = median(f, scratch);
        let spread: f64 = f.iter().map(|v| (v - m).abs()).sum();
        total_variation(self.g, f) / spread.max(f64::MIN_POSITIVE)
    }
}
