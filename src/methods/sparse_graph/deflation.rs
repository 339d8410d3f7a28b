//! Two-level (deflated) conjugate gradients for Laplace and Poisson learning: subdomain
//! deflation (Nicolaides 1987; Frank & Vuik 2001; Tang, Nabben, Vuik & Erlangga 2009).
//! Z has one column per aggregate of the graph (`aggregates.rs`, built once per graph): the
//! system's near-null vector z (z_i = √d_i; 0 on the rows the system leaves out) on the
//! aggregate's nodes, normalised. With E = ZᵀAZ (m × m, its pseudo-inverse E⁺ taken per
//! solve) and P = I − AZE⁺Zᵀ, CG solves PAx̃ = Pb from zero, and x = ZE⁺Zᵀb + Pᵀx̃. Then
//! b − Ax = Pb − PAx̃ is CG's own residual, so the stopping rule ‖b − Ax‖_F ≤ tol keeps its
//! meaning; the smooth error that makes plain CG slow is solved on the coarse space.

use faer::diag::Diag;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::evd::{ComputeEigenvectors, self_adjoint_evd, self_adjoint_evd_scratch};
use faer::{Mat, Par};
use rayon::prelude::*;

use super::aggregates::Aggregates;
use super::operator::Operator;
use crate::error::{Error, Result};
use crate::linalg::{CG_CHUNK, CgReport, block_cg, clear_upper_simd, sum_parts};

/// Eigenvalues of E at most this fraction of its largest count as zero in E⁺.
const RANK_TOL: f64 = 1e-12;

/// Solves A x = b (n × c row-major) by deflated CG on the aggregates `agg` (CG's `tol` and
/// `max_iter`), with z the system's near-null vector; the report's residual is ‖b − Ax‖_F as CG tracks it.
pub fn deflated_cg(
    a: &Operator,
    agg: &Aggregates,
    z: &[f64],
    b: &[f64],
    c: usize,
    (tol, max_iter): (f64, usize),
) -> Result<(Vec<f64>, CgReport)> {
    let d = Deflation::new(a, agg, z)?;
    let mut pb = b.to_vec();
    d.project(&mut pb, c);
    let pa = |p: &[f64], out: &mut [f64]| {
        a.apply(c, p, out);
        d.project(out, c);
    };
    let (xt, report) = block_cg(&pb, c, tol, max_iter, &pa)?;
    Ok((d.extend(b, xt, c), report))
}

/// The eigenvalues and eigenvectors (columns) of a symmetric matrix by faer on one thread:
/// its parallel decomposition's bits depend on the number of threads.
fn sequential_eigen(a: Mat<f64>) -> Result<(Vec<f64>, Mat<f64>)> {
    let m = a.nrows();
    let (mut values, mut vectors) = (Diag::<f64>::zeros(m), Mat::<f64>::zeros(m, m));
    let scratch =
        self_adjoint_evd_scratch::<f64>(m, ComputeEigenvectors::Yes, Par::Seq, Default::default());
    let mut mem = MemBuffer::new(scratch);
    let stack = MemStack::new(&mut mem);
    self_adjoint_evd(
        a.as_ref(),
        values.as_mut(),
        Some(vectors.as_mut()),
        Par::Seq,
        stack,
        Default::default(),
    )
    .map_err(|e| Error::Linalg {
        context: "deflated conjugate gradients (coarse matrix)",
        message: format!("eigen-decomposition failed: {e:?}"),
    })?;
    clear_upper_simd();
    Ok((values.column_vector().iter().copied().collect(), vectors))
}

/// Z (as each node's aggregate and normalised z), AZ and E⁺.
struct Deflation<'a> {
    group: &'a [u32],
    m: usize,
    z: Vec<f64>,
    /// AZ, n × m in CSR (each row's columns increasing).
    az_ptr: Vec<usize>,
    az_col: Vec<u32>,
    az_val: Vec<f64>,
    /// E⁺, m × m row-major.
    e_pinv: Vec<f64>,
}

impl<'a> Deflation<'a> {
    fn new(a: &Operator, agg: &'a Aggregates, z: &[f64]) -> Result<Self> {
        let (n, m, group) = (a.n(), agg.count, &agg.group[..]);
        let mut norm = vec![0.0; m];
        (0..n).for_each(|i| norm[group[i] as usize] += z[i] * z[i]);
        let z: Vec<f64> = (0..n)
            .map(|i| match norm[group[i] as usize] {
                s if s > 0.0 => z[i] / s.sqrt(),
                _ => 0.0,
            })
            .collect();
        let (mut az_ptr, mut az_col, mut az_val) = (vec![0], Vec::new(), Vec::new());
        let mut e = Mat::<f64>::zeros(m, m);
        let mut row: Vec<(u32, f64)> = Vec::new();
        for i in 0..n {
            let (diag, cols, vals) = a.row(i);
            row.clear();
            row.push((group[i], diag * z[i]));
            row.extend(
                cols.iter().zip(vals).map(|(&j, &v)| (group[j as usize], v * z[j as usize])),
            );
            row.sort_by_key(|&(q, _)| q);
            for &(q, v) in &row {
                match az_col.last() {
                    Some(&last) if last == q && az_col.len() > az_ptr[i] => {
                        *az_val.last_mut().expect("a value per column") += v;
                    }
                    _ => {
                        az_col.push(q);
                        az_val.push(v);
                    }
                }
            }
            az_ptr.push(az_col.len());
            for t in az_ptr[i]..az_col.len() {
                e[(group[i] as usize, az_col[t] as usize)] += z[i] * az_val[t];
            }
        }
        let sym = Mat::from_fn(m, m, |p, q| 0.5 * (e[(p, q)] + e[(q, p)]));
        let (values, vectors) = sequential_eigen(sym)?;
        let top = values.iter().fold(0.0f64, |t, v| t.max(v.abs()));
        let mut e_pinv = vec![0.0; m * m];
        for (k, &lambda) in values.iter().enumerate() {
            if lambda > RANK_TOL * top {
                for p in 0..m {
                    let up = vectors[(p, k)] / lambda;
                    for q in 0..m {
                        e_pinv[p * m + q] += up * vectors[(q, k)];
                    }
                }
            }
        }
        Ok(Deflation { group, m, z, az_ptr, az_col, az_val, e_pinv })
    }

    /// E⁺ y for an m × c row-major y.
    fn coarse(&self, y: &[f64], c: usize) -> Vec<f64> {
        let mut out = vec![0.0; self.m * c];
        for p in 0..self.m {
            for q in 0..self.m {
                let e = self.e_pinv[p * self.m + q];
                for k in 0..c {
                    out[p * c + k] += e * y[q * c + k];
                }
            }
        }
        out
    }

    /// Σ_i of `add(i, v_i, acc)` into an m × c block, over fixed chunks of rows added in
    /// order (the same bits on any number of threads).
    fn gather(
        &self,
        v: &[f64],
        c: usize,
        add: impl Fn(usize, &[f64], &mut [f64]) + Sync,
    ) -> Vec<f64> {
        let step = CG_CHUNK * c;
        let parts = v
            .par_chunks(step)
            .enumerate()
            .map(|(t, v)| {
                let mut acc = vec![0.0; self.m * c];
                for (r, vi) in v.chunks_exact(c).enumerate() {
                    add(t * CG_CHUNK + r, vi, &mut acc);
                }
                acc
            })
            .collect();
        sum_parts(parts, self.m * c)
    }

    /// Zᵀ v.
    fn restrict(&self, v: &[f64], c: usize) -> Vec<f64> {
        self.gather(v, c, |i, vi, acc| {
            let q = self.group[i] as usize;
            vi.iter().zip(&mut acc[q * c..(q + 1) * c]).for_each(|(v, a)| *a += self.z[i] * v);
        })
    }

    /// (AZ)ᵀ v.
    fn restrict_az(&self, v: &[f64], c: usize) -> Vec<f64> {
        self.gather(v, c, |i, vi, acc| {
            for t in self.az_ptr[i]..self.az_ptr[i + 1] {
                let (q, w) = (self.az_col[t] as usize, self.az_val[t]);
                vi.iter().zip(&mut acc[q * c..(q + 1) * c]).for_each(|(v, a)| *a += w * v);
            }
        })
    }

    /// y ← P y = y − AZ E⁺ Zᵀ y.
    fn project(&self, y: &mut [f64], c: usize) {
        let mu = self.coarse(&self.restrict(y, c), c);
        y.par_chunks_mut(CG_CHUNK * c).enumerate().for_each(|(t, y)| {
            for (r, yi) in y.chunks_exact_mut(c).enumerate() {
                let i = t * CG_CHUNK + r;
                for s in self.az_ptr[i]..self.az_ptr[i + 1] {
                    let (q, w) = (self.az_col[s] as usize, self.az_val[s]);
                    yi.iter_mut().zip(&mu[q * c..(q + 1) * c]).for_each(|(y, m)| *y -= w * m);
                }
            }
        });
    }

    /// x = Z E⁺ Zᵀ b + Pᵀ x̃ = x̃ + Z E⁺ (Zᵀ b − (AZ)ᵀ x̃).
    fn extend(&self, b: &[f64], mut xt: Vec<f64>, c: usize) -> Vec<f64> {
        let mut y = self.restrict(b, c);
        y.iter_mut().zip(self.restrict_az(&xt, c)).for_each(|(y, s)| *y -= s);
        let mu = self.coarse(&y, c);
        for (i, xi) in xt.chunks_exact_mut(c).enumerate() {
            let q = self.group[i] as usize;
            xi.iter_mut().zip(&mu[q * c..(q + 1) * c]).for_each(|(x, m)| *x += self.z[i] * m);
        }
        xt
    }
}
