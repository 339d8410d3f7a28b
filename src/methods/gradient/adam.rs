//! Full-batch Adam (Kingma & Ba 2015) as PyTorch's `torch.optim.Adam`: the weight decay is
//! added to the gradient (L2, not AdamW's decoupled decay), β = (0.9, 0.999), ε = 1e-8.

use ndarray::{Array1, ArrayView1, Zip};

use crate::linalg::{Kernel, widest};

/// Adam's settings and its stopping rule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Adam {
    pub learning_rate: f64,
    pub weight_decay: f64,
    /// Cap on the iterations of one run.
    pub max_iterations: usize,
    /// Stop when the mean of ω over the last [`Adam::WINDOW`] iterations moved by at most
    /// `tolerance` times its norm from the previous window's mean (robust to mini-batch noise).
    pub tolerance: f64,
}

/// How one run ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Run {
    pub iterations: usize,
    /// Whether the stopping rule fired before the cap.
    pub converged: bool,
}

/// Buffers of one dimension and the state of one run, reused across runs (reset by each).
#[derive(Debug, Clone)]
pub struct Workspace {
    /// The gradient at the current ω, written by the caller before each [`Adam::update`].
    pub(super) grad: Array1<f64>,
    m: Array1<f64>,
    v: Array1<f64>,
    sum: Array1<f64>,
    previous: Array1<f64>,
    /// β₁ᵗ and β₂ᵗ, as running products.
    c1: f64,
    c2: f64,
}

impl Workspace {
    /// Buffers for `dim` parameters.
    pub fn new(dim: usize) -> Self {
        let z = Array1::zeros(dim);
        Workspace {
            grad: z.clone(),
            m: z.clone(),
            v: z.clone(),
            sum: z.clone(),
            previous: z,
            c1: 1.0,
            c2: 1.0,
        }
    }
}

impl Adam {
    /// The paper's settings: learning rate 1e-3, weight decay 1e-5.
    pub const LEARNING_RATE: f64 = 1e-3;
    pub const WEIGHT_DECAY: f64 = 1e-5;
    /// Default cap on the iterations of one run (enough for square + quadratic margin to
    /// reach the QLDS closed form on the Table 4 grid, `configs/qlds_table4.toml`).
    pub const ITERATIONS: usize = 10_000;
    /// Default tolerance of the stopping rule (as validated there).
    pub const TOLERANCE: f64 = 1e-3;
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPS: f64 = 1e-8;
    /// Iterations per window of the stopping rule.
    pub const WINDOW: usize = 50;

    /// Minimises the function whose gradient `grad(ω, out)` writes, from ω (updated in place).
    pub fn minimise(
        &self,
        omega: &mut Array1<f64>,
        work: &mut Workspace,
        mut grad: impl FnMut(ArrayView1<f64>, &mut Array1<f64>),
    ) -> Run {
        self.reset(work);
        for t in 1..=self.max_iterations {
            grad(omega.view(), &mut work.grad);
            if let Some(run) = self.update(t, omega, work) {
                return run;
            }
        }
        Run { iterations: self.max_iterations, converged: false }
    }

    /// Starts a run: zero moments and window sum.
    pub(super) fn reset(&self, work: &mut Workspace) {
        work.m.fill(0.0);
        work.v.fill(0.0);
        work.sum.fill(0.0);
        (work.c1, work.c2) = (1.0, 1.0);
    }

    /// Iteration `t` (from 1, after [`Adam::reset`]) from the gradient in `work.grad`: the
    /// step of ω, then the stopping rule; `Some` when the run ends here (converged or at the cap).
    pub(super) fn update(
        &self,
        t: usize,
        omega: &mut Array1<f64>,
        work: &mut Workspace,
    ) -> Option<Run> {
        work.c1 *= Self::BETA1;
        work.c2 *= Self::BETA2;
        let lr = self.learning_rate / (1.0 - work.c1);
        let root_c2 = (1.0 - work.c2).sqrt();
        widest(Step { adam: self, omega: &mut *omega, work: &mut *work, lr, root_c2 });
        if t.is_multiple_of(Self::WINDOW) {
            work.sum /= Self::WINDOW as f64;
            let moved = Zip::from(&work.sum)
                .and(&work.previous)
                .fold(0.0, |s, a, b| s + (a - b) * (a - b))
                .sqrt();
            if t > Self::WINDOW && moved <= self.tolerance * work.sum.dot(&work.sum).sqrt() {
                return Some(Run { iterations: t, converged: true });
            }
            std::mem::swap(&mut work.previous, &mut work.sum);
            work.sum.fill(0.0);
        }
        (t >= self.max_iterations).then_some(Run { iterations: t, converged: false })
    }
}

/// a / b rounded to nearest, from `inverse` = 1/b rounded to nearest, by a product and two
/// fused multiply-adds instead of a division (Markstein's correction: the residual a − qb is
/// exact and q + residual/b rounds to a / b; checked against the division in the tests).
/// Needs a = 0 or a ≥ 2⁻⁹⁶⁰ (no underflow of the residual; a = √v is 0 or above 2⁻⁵³⁸)
/// and 0 < b ≤ 1.
#[inline(always)]
fn exact_quotient(a: f64, b: f64, inverse: f64) -> f64 {
    let q = a * inverse;
    (-q).mul_add(b, a).mul_add(inverse, q)
}

/// One update of every coordinate from `work.grad` (bias corrections `lr` = η/(1 − β₁ᵗ) and
/// `root_c2` = √(1 − β₂ᵗ)), and ω added to the window's sum.
struct Step<'a> {
    adam: &'a Adam,
    omega: &'a mut Array1<f64>,
    work: &'a mut Workspace,
    lr: f64,
    root_c2: f64,
}

impl Kernel for Step<'_> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let Step { adam, omega, work, lr, root_c2 } = self;
        let inverse = 1.0 / root_c2;
        let (wd, b1, b2) = (adam.weight_decay, Adam::BETA1, Adam::BETA2);
        let contiguous = "an Array1 is contiguous";
        let omega = omega.as_slice_mut().expect(contiguous);
        let (grad, sum) = (work.grad.as_slice().expect(contiguous), &mut work.sum);
        let (m, v) =
            (work.m.as_slice_mut().expect(contiguous), work.v.as_slice_mut().expect(contiguous));
        for (((w, &g), m), v) in omega.iter_mut().zip(grad).zip(m).zip(v) {
            let g = g + wd * *w;
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *w -= lr * *m / (exact_quotient(v.sqrt(), root_c2, inverse) + Adam::EPS);
        }
        for (s, &w) in sum.as_slice_mut().expect(contiguous).iter_mut().zip(&*omega) {
            *s += w;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn exact_quotient_is_the_division() {
        // Adam's own divisors √(1 − β₂ᵗ) and random ones in (0, 1], against numerators over
        // the whole range Adam can produce: 0 and [2⁻⁵³⁸, 2¹⁰⁰⁰) with random significands.
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut c2 = 1.0;
        for t in 0..2_000_000 {
            let b = if t < 20_000 {
                c2 *= Adam::BETA2;
                (1.0 - c2).sqrt()
            } else {
                1.0 - rng.random::<f64>()
            };
            let a = match t % 1000 {
                0 => 0.0,
                _ => rng.random_range(1.0..2.0) * 2f64.powi(rng.random_range(-538..1000)),
            };
            let q = exact_quotient(a, b, 1.0 / b);
            assert_eq!(q.to_bits(), (a / b).to_bits(), "{a:e} / {b:e}");
        }
    }
}
