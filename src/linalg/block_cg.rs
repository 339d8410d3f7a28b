//! Conjugate gradients on c right-hand sides at once (an n × c row-major block), each column
//! with its own step sizes, as GraphLearning's `utils.conjgrad`: start from zero, stop when
//! the Frobenius norm of the residual block is at most `tol` (checked after each step, at
//! least one step) or after `max_iter` steps. Sums run over fixed chunks of rows, added in
//! order, so the iterates do not depend on the number of threads.

use rayon::prelude::*;

use super::{Kernel, block, block_mut, column_blocks, widest};
use crate::by_width;
use crate::error::{Error, Result};

/// Rows per parallel task of the sums and updates: the per-column sums add these chunks in
/// order (an operator that fuses the sums into its product must chunk so).
pub const CG_CHUNK: usize = 4096;

/// The A of [`block_cg`]: a symmetric positive (semi-)definite map of n × c row-major blocks.
pub trait CgOperator {
    /// out = A p, and per column j, Σ_i p_ij (Ap)_ij summed in row order within chunks of
    /// [`CG_CHUNK`] rows, the chunks added in order.
    fn apply_dots(&self, c: usize, p: &[f64], out: &mut [f64]) -> Vec<f64>;
}

/// A closure `apply(p, out)` as an operator, its sums in a second pass.
impl<F: Fn(&[f64], &mut [f64])> CgOperator for F {
    fn apply_dots(&self, c: usize, p: &[f64], out: &mut [f64]) -> Vec<f64> {
        self(p, out);
        column_dots(p, out, c)
    }
}

/// Where conjugate gradients stopped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CgReport {
    /// Steps taken.
    pub iterations: usize,
    /// Frobenius norm of the final residual block.
    pub residual: f64,
}

/// Solves A X = B (both n × c row-major); returns X. A column whose curvature pᵀAp is not
/// positive stops moving. Fails when `max_iter` steps leave the residual above `tol`.
pub fn block_cg(
    b: &[f64],
    c: usize,
    tol: f64,
    max_iter: usize,
    a: &impl CgOperator,
) -> Result<(Vec<f64>, CgReport)> {
    let mut x = vec![0.0; b.len()];
    let mut r = b.to_vec();
    let mut p = b.to_vec();
    let mut ap = vec![0.0; b.len()];
    let mut rs_old = column_dots(&r, &r, c);
    let (mut err, mut it) = (1.0f64, 0);
    let mut alpha = vec![0.0; c];
    let mut beta = vec![0.0; c];
    while err > tol && it < max_iter {
        it += 1;
        let pap = a.apply_dots(c, &p, &mut ap);
        for j in 0..c {
            alpha[j] = if pap[j] > 0.0 { rs_old[j] / pap[j] } else { 0.0 };
        }
        let rs_new = step(&mut r, &ap, &alpha, c);
        err = rs_new.iter().sum::<f64>().sqrt();
        for j in 0..c {
            beta[j] = if rs_old[j] > 0.0 { rs_new[j] / rs_old[j] } else { 0.0 };
        }
        update(&mut x, &mut p, &r, &alpha, &beta, c);
        rs_old = rs_new;
    }
    if !(err <= tol) {
        return Err(Error::Linalg {
            context: "conjugate gradients",
            message: format!(
                "residual {err:.3e} above the tolerance {tol:.1e} after {it} iterations \
                 (raise `max_iter` or `tol`)"
            ),
        });
    }
    Ok((x, CgReport { iterations: it, residual: err }))
}

/// r −= α Ap per column; returns the new ‖r_j‖² per column.
fn step(r: &mut [f64], ap: &[f64], alpha: &[f64], c: usize) -> Vec<f64> {
    let parts: Vec<Vec<f64>> = r
        .par_chunks_mut(CG_CHUNK * c)
        .zip(ap.par_chunks(CG_CHUNK * c))
        .map(|(r, ap)| widest(Step { r, ap, alpha }))
        .collect();
    sum_parts(parts, c)
}

/// x += α p, then p = r + β p, per column (x's step deferred to this pass, which reads p
/// anyway).
fn update(x: &mut [f64], p: &mut [f64], r: &[f64], alpha: &[f64], beta: &[f64], c: usize) {
    x.par_chunks_mut(CG_CHUNK * c)
        .zip(p.par_chunks_mut(CG_CHUNK * c))
        .zip(r.par_chunks(CG_CHUNK * c))
        .for_each(|((x, p), r)| widest(Update { x, p, r, alpha, beta }));
}

/// Per column j, Σ_i u_ij v_ij over fixed chunks of rows, the chunks added in order.
fn column_dots(u: &[f64], v: &[f64], c: usize) -> Vec<f64> {
    let parts: Vec<Vec<f64>> = u
        .par_chunks(CG_CHUNK * c)
        .zip(v.par_chunks(CG_CHUNK * c))
        .map(|(u, v)| widest(Dots { u, v, c }))
        .collect();
    sum_parts(parts, c)
}

/// Per-column sums of chunks, added in order (from zero).
pub fn sum_parts(parts: Vec<Vec<f64>>, c: usize) -> Vec<f64> {
    parts.into_iter().fold(vec![0.0; c], |mut acc, s| {
        acc.iter_mut().zip(s).for_each(|(a, s)| *a += s);
        acc
    })
}

/// [`step`] on one chunk of rows.
struct Step<'a> {
    r: &'a mut [f64],
    ap: &'a [f64],
    alpha: &'a [f64],
}

impl Kernel for Step<'_> {
    type Output = Vec<f64>;
    #[inline(always)]
    fn run(self) -> Vec<f64> {
        let c = self.alpha.len();
        let mut s = vec![0.0; c];
        for (col, w) in column_blocks(c) {
            by_width!(w, step_block(col, &mut s[col..], self.r, self.ap, self.alpha));
        }
        s
    }
}

#[inline(always)]
fn step_block<const W: usize>(col: usize, s: &mut [f64], r: &mut [f64], ap: &[f64], alpha: &[f64]) {
    let c = alpha.len();
    let a = *block::<W>(alpha, col);
    let mut acc = [0.0; W];
    for (r, ap) in r.chunks_exact_mut(c).zip(ap.chunks_exact(c)) {
        let r = block_mut::<W>(r, col);
        let ap = block::<W>(ap, col);
        for k in 0..W {
            r[k] -= a[k] * ap[k];
            acc[k] += r[k] * r[k];
        }
    }
    s[..W].copy_from_slice(&acc);
}

/// [`update`] on one chunk of rows.
struct Update<'a> {
    x: &'a mut [f64],
    p: &'a mut [f64],
    r: &'a [f64],
    alpha: &'a [f64],
    beta: &'a [f64],
}

impl Kernel for Update<'_> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        for (col, w) in column_blocks(self.beta.len()) {
            by_width!(
                w,
                update_block(col, &mut *self.x, &mut *self.p, self.r, self.alpha, self.beta)
            );
        }
    }
}

#[inline(always)]
fn update_block<const W: usize>(
    col: usize,
    x: &mut [f64],
    p: &mut [f64],
    r: &[f64],
    alpha: &[f64],
    beta: &[f64],
) {
    let c = beta.len();
    let (a, b) = (*block::<W>(alpha, col), *block::<W>(beta, col));
    for ((x, p), r) in x.chunks_exact_mut(c).zip(p.chunks_exact_mut(c)).zip(r.chunks_exact(c)) {
        let (x, p) = (block_mut::<W>(x, col), block_mut::<W>(p, col));
        let r = block::<W>(r, col);
        for k in 0..W {
            x[k] += a[k] * p[k];
            p[k] = r[k] + b[k] * p[k];
        }
    }
}

/// [`column_dots`] on one chunk of rows.
struct Dots<'a> {
    u: &'a [f64],
    v: &'a [f64],
    c: usize,
}

impl Kernel for Dots<'_> {
    type Output = Vec<f64>;
    #[inline(always)]
    fn run(self) -> Vec<f64> {
        let mut s = vec![0.0; self.c];
        for (col, w) in column_blocks(self.c) {
            by_width!(w, dots_block(col, self.c, &mut s[col..], self.u, self.v));
        }
        s
    }
}

#[inline(always)]
fn dots_block<const W: usize>(col: usize, c: usize, s: &mut [f64], u: &[f64], v: &[f64]) {
    let mut acc = [0.0; W];
    for (u, v) in u.chunks_exact(c).zip(v.chunks_exact(c)) {
        let (u, v) = (block::<W>(u, col), block::<W>(v, col));
        for k in 0..W {
            acc[k] += u[k] * v[k];
        }
    }
    s[..W].copy_from_slice(&acc);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_small_spd_system_column_by_column() {
        // A = tridiag(-1, 3, -1) on 5 nodes, two right-hand sides.
        let n = 5;
        let apply = |p: &[f64], out: &mut [f64]| {
            for i in 0..n {
                for j in 0..2 {
                    let mut s = 3.0 * p[i * 2 + j];
                    if i > 0 {
                        s -= p[(i - 1) * 2 + j];
                    }
                    if i + 1 < n {
                        s -= p[(i + 1) * 2 + j];
                    }
                    out[i * 2 + j] = s;
                }
            }
        };
        let b: Vec<f64> = (0..2 * n).map(|i| (i as f64).sin()).collect();
        let (x, report) = block_cg(&b, 2, 1e-12, 100, &apply).unwrap();
        let mut ax = vec![0.0; b.len()];
        apply(&x, &mut ax);
        for (a, b) in ax.iter().zip(&b) {
            assert!((a - b).abs() < 1e-10, "{a} vs {b}");
        }
        assert!(report.iterations <= 5 + 1 && report.residual <= 1e-12);
        assert!(block_cg(&b, 2, 1e-12, 1, &apply).is_err());
    }
}
