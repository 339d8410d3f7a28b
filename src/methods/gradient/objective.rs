//! The objective J(ω) = λ‖ω‖² + α_l Σ_l ℓ(y_i, m_i) + α_u Σ_u h(m_i), m_i = ωᵀx_i/√n on
//! QLDS's centred rows, and its gradient by hand. The sums and the 1/√n are QLDS's: with the
//! square loss and the quadratic margin, J = λ‖ω‖² + α_l Σ(y − m)² − α_u ωᵀC_uω, whose
//! minimiser has the direction of the QLDS closed form (λI + α_l C_l − α_u C_u)⁻¹X_lᵀy_l.
//!
//! Convexity: ℓ is convex for the three labeled losses. With the quadratic margin the
//! Hessian is 2λI + α_l(ℓ'' terms) − 2α_u C_u: J is convex, and bounded below, iff
//! λ > α_u λ_max(C_u) (for the square loss, α_l C_l can also fill the negative directions;
//! we use the same condition for all three losses). Where λ ≤ α_u λ_max(C_u), J is unbounded
//! below ([`bounded`] is false) and the grid point is invalid. The smooth absolute margin is
//! bounded but non-convex: h'' = (36m² − 6)e^{−3m²} < 0 for |m| < 1/√6, so J is convex
//! only while λ ≥ 3 α_u λ_max(C_u) and may have several minima otherwise.

use ndarray::{Array1, ArrayView1, ArrayView2};

use super::{Labeled, Unlabeled};
use crate::linalg::{add_sym_products, row_pass, row_pass_many};

/// One split's training data as the objective reads them (QLDS's centred rows).
#[derive(Debug, Clone, Copy)]
pub struct Inputs<'a> {
    /// Centred labeled rows and their ±1 labels.
    pub x_l: ArrayView2<'a, f64>,
    pub y_l: ArrayView1<'a, f64>,
    /// Centred unlabeled rows (read by the smooth absolute margin).
    pub x_u: ArrayView2<'a, f64>,
    /// C_u = X_uᵀX_u/n, row-major (read by the quadratic margin: Σ_u m² = ωᵀC_uω).
    pub c_u: ArrayView2<'a, f64>,
    /// 1/√n, n = n_l + n_u.
    pub scale: f64,
}

/// J at one (α_l, α_u, λ).
#[derive(Debug, Clone, Copy)]
pub struct Objective<'a> {
    pub data: Inputs<'a>,
    pub labeled: Labeled,
    pub unlabeled: Unlabeled,
    pub alpha_l: f64,
    pub alpha_u: f64,
    pub lambda: f64,
}

impl Objective<'_> {
    /// J(ω), with ∇J(ω) written into `grad`.
    pub fn value_grad(&self, w: ArrayView1<f64>, grad: &mut Array1<f64>) -> f64 {
        self.pass::<true>(w, grad, self.data.x_u, 1.0)
    }

    /// ∇J with the smooth absolute margin summed over `rows` (a mini-batch of the unlabeled
    /// rows) times `weight` (n_u / batch size, so the estimate is unbiased); the quadratic
    /// margin is always exact (through C_u). Bit-identical to [`Objective::value_grad`]'s
    /// gradient on the same rows.
    pub fn grad_on(
        &self,
        w: ArrayView1<f64>,
        grad: &mut Array1<f64>,
        rows: ArrayView2<f64>,
        weight: f64,
    ) {
        self.pass::<false>(w, grad, rows, weight);
    }

    /// ∇J of each `fs[k]` (all of one split's data and unlabeled term) at `ws[k]` into
    /// `grads[k]`, as [`Objective::grad_on`] of each would, bit for bit: the labeled rows, C_u
    /// and each block of `rows` are read once for all of them.
    pub fn grads_on(
        fs: &[&Objective],
        ws: &[&[f64]],
        grads: &mut [&mut [f64]],
        rows: ArrayView2<f64>,
        weight: f64,
    ) {
        let (mut pass, mut quadratic) = (Vec::with_capacity(fs.len()), Vec::new());
        for (k, (f, g)) in fs.iter().zip(grads.iter_mut()).enumerate() {
            f.decay(ws[k], g);
            if f.alpha_u != 0.0 && f.unlabeled == Unlabeled::SmoothAbsMargin {
                pass.push(k);
            }
            if f.quadratic() {
                quadratic.push(k);
            }
        }
        // The labeled losses' gradients, one pass over the labeled rows for all.
        if let Some(f) = fs.first() {
            let Inputs { x_l, y_l, scale, .. } = f.data;
            row_pass_many(x_l, ws, grads, |k, i, dot| {
                fs[k].alpha_l * fs[k].labeled.slope(y_l[i], scale * dot) * scale
            });
        }
        if let Some(&first) = quadratic.first() {
            // The quadratic margins' −2α_u C_uω, one pass over C_u for all of them.
            let w: Vec<&[f64]> = quadratic.iter().map(|&k| ws[k]).collect();
            let alpha: Vec<f64> = quadratic.iter().map(|&k| -2.0 * fs[k].alpha_u).collect();
            let mut g: Vec<&mut [f64]> = grads
                .iter_mut()
                .enumerate()
                .filter(|(k, _)| quadratic.contains(k))
                .map(|(_, g)| &mut **g)
                .collect();
            add_sym_products(fs[first].data.c_u, &w, &alpha, &mut g);
        }
        if pass.is_empty() {
            return;
        }
        let w: Vec<&[f64]> = pass.iter().map(|&k| ws[k]).collect();
        let mut g: Vec<&mut [f64]> = grads
            .iter_mut()
            .enumerate()
            .filter(|(k, _)| pass.contains(k))
            .map(|(_, g)| &mut **g)
            .collect();
        let au: Vec<f64> = pass.iter().map(|&k| fs[k].alpha_u * weight).collect();
        let (f, scale) = (fs[pass[0]], fs[pass[0]].data.scale);
        row_pass_many(rows, &w, &mut g, |k, _, dot| {
            au[k] * f.unlabeled.eval(scale * dot).1 * scale
        });
    }

    /// ∇J into `grad` on `rows` × `weight`, and J when `VALUE` (else 0).
    fn pass<const VALUE: bool>(
        &self,
        w: ArrayView1<f64>,
        grad: &mut Array1<f64>,
        rows: ArrayView2<f64>,
        weight: f64,
    ) -> f64 {
        let g = grad.as_slice_mut().expect("an Array1 is contiguous");
        let mut value = self.exact::<VALUE>(w, g);
        if self.alpha_u != 0.0 && self.unlabeled == Unlabeled::SmoothAbsMargin {
            let w_std = w.as_standard_layout();
            let ws = w_std.as_slice().expect("a standard-layout array is contiguous");
            let (au, scale) = (self.alpha_u * weight, self.data.scale);
            row_pass(rows, ws, g, |_, dot| {
                let (h, d) = self.unlabeled.eval(scale * dot);
                if VALUE {
                    value += au * h;
                }
                au * d * scale
            });
        }
        value
    }

    /// The terms computed exactly (all but the smooth absolute margin): `grad` = 2λω + the
    /// labeled loss's gradient (− 2α_u C_uω with the quadratic margin), and their J when
    /// `VALUE` (else 0).
    fn exact<const VALUE: bool>(&self, w: ArrayView1<f64>, g: &mut [f64]) -> f64 {
        let mut value = self.supervised::<VALUE>(w, g);
        if self.quadratic() {
            // grad −= 2α_u C_u ω; the value's −α_u ωᵀC_uω is half the change of ω·grad.
            let before = if VALUE { dot_slice(&w, g) } else { 0.0 };
            let w_std = w.as_standard_layout();
            let ws = w_std.as_slice().expect("a standard-layout array is contiguous");
            add_sym_products(self.data.c_u, &[ws], &[-2.0 * self.alpha_u], &mut [g]);
            if VALUE {
                value += (dot_slice(&w, g) - before) / 2.0;
            }
        }
        value
    }

    /// `grad` = 2λω + the labeled loss's gradient, and their J when `VALUE` (else 0).
    fn supervised<const VALUE: bool>(&self, w: ArrayView1<f64>, g: &mut [f64]) -> f64 {
        let Inputs { x_l, y_l, scale, .. } = self.data;
        let al = self.alpha_l;
        let w_std = w.as_standard_layout();
        let ws = w_std.as_slice().expect("a standard-layout array is contiguous");
        self.decay(ws, g);
        let mut value = if VALUE { self.lambda * w.dot(&w) } else { 0.0 };
        row_pass(x_l, ws, g, |i, dot| {
            let (y, m) = (y_l[i], scale * dot);
            let d = match VALUE {
                true => {
                    let (loss, d) = self.labeled.eval(y, m);
                    value += al * loss;
                    d
                }
                false => self.labeled.slope(y, m),
            };
            al * d * scale
        });
        value
    }

    /// `grad` = 2λω (the gradient of λ‖ω‖²).
    fn decay(&self, w: &[f64], g: &mut [f64]) {
        for (g, &w) in g.iter_mut().zip(w) {
            *g = w * (2.0 * self.lambda);
        }
    }

    /// Whether J has the quadratic margin's term −α_u ωᵀC_uω (α_u ≠ 0).
    fn quadratic(&self) -> bool {
        self.alpha_u != 0.0 && self.unlabeled == Unlabeled::QuadraticMargin
    }
}

/// ω·g as ndarray's `dot` of two vectors computes it.
fn dot_slice(w: &ArrayView1<f64>, g: &[f64]) -> f64 {
    w.dot(&ArrayView1::from(g))
}

/// Whether J is bounded below at (α_u, λ), given λ_max(C_u): always for the smooth absolute
/// margin; for the rewarded quadratic margin iff λ > α_u λ_max(C_u).
pub fn bounded(unlabeled: Unlabeled, alpha_u: f64, lambda: f64, top_u: f64) -> bool {
    match unlabeled {
        Unlabeled::QuadraticMargin => lambda > alpha_u * top_u,
        Unlabeled::SmoothAbsMargin => true,
    }
}
