//! The k nearest other rows of every row, exactly, in two passes. First, candidates from
//! f32 products (twice the f64 rate) of the centred rows, with a rigorous bound on how far
//! each approximate distance can be from the exact one (see [`Approx`]): a pair is a
//! candidate of a row unless its lower bound exceeds the row's k-th smallest upper bound.
//! Then each row ranks its candidates by their exact f64 distances (`linalg::rank`: the bits the
//! lists had when they came from f64 products), so values, order and ties are those of an
//! exact search. The first pass computes each pair's product once: a task takes a block
//! of rows (the columns of its product) against a chunk of the rows from that block on,
//! and offers each pair to both rows; tasks run on rayon and merge into per-block lists
//! under a lock. Neither pass depends on the order of the merges, so the result is the
//! same for any number of threads.

use std::sync::{Mutex, PoisonError};

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};
use ndarray::ArrayView2;
use rayon::prelude::*;

use super::candidates::{Candidates, Found};
use super::distances::row_norms;
use crate::linalg::{clear_upper_simd, rank};

/// Rows per block: a task's columns, and the unit of the shared lists' locks.
const BLOCK: usize = 256;
/// Blocks of rows per product (a 1,024 × 256 product).
const CHUNK: usize = 4;
/// Products tested together against the bounds before any list work.
const LANES: usize = 8;
/// Entries of a product finding overflowed rows' candidates again (4 Mi f32: 16 MiB).
const AGAIN: usize = 1 << 22;
/// Rows ranked per parallel task in the second pass.
const RANK_ROWS: usize = 64;

/// For each row of `x`, its k nearest other rows and their squared distances, nearest
/// first (row-major n × k; ties broken by index). Needs 1 ≤ k < n.
pub fn nearest(x: ArrayView2<f64>, k: usize) -> (Vec<usize>, Vec<f64>) {
    let n = x.nrows();
    let norms = row_norms(x).to_vec();
    let x = x.as_standard_layout();
    let lists = match Approx::new(x.view(), &norms) {
        Some(approx) => find_again(&approx, candidates(&approx, k)),
        None => vec![None; n],
    };
    let (mut neighbours, mut sq) = (vec![0; n * k], vec![0.0; n * k]);
    let tasks = neighbours.par_chunks_mut(RANK_ROWS * k).zip(sq.par_chunks_mut(RANK_ROWS * k));
    tasks.enumerate().for_each(|(c, (index, value))| {
        for (r, (index, value)) in index.chunks_mut(k).zip(value.chunks_mut(k)).enumerate() {
            let i = c * RANK_ROWS + r;
            rank(x.view(), &norms, i, lists[i].as_deref(), index, value);
        }
    });
    (neighbours, sq)
}

/// The centred rows z_i = x_i − μ in f32 and, per row, bounds lo_i ≤ ‖z_i‖² ≤ hi_i widened
/// so that for every pair the exact f64 distance d_ij (`linalg::rank`) lies within
/// [(c + lo_i) + lo_j, (c + hi_i) + hi_j], c the f32 product −2 z_iᵀz_j. Half-widths
/// s_i = κ₃₂ ‖z_i‖² + κ₆₄ (‖x_i‖² + ‖z_i‖²) + η, because (u = 2⁻²⁴, v = 2⁻⁵³):
/// - rounding x_i − μ to f32 moves each coordinate by ≤ (u + v)|z| (relative), so
///   ‖z_i − z_j‖² moves by ≤ 2(u + v)(‖z_i‖ + ‖z_j‖)² ≤ 4(u + v)(‖z_i‖² + ‖z_j‖²);
/// - an f32 dot product summed in any order is within γ_d Σ|a b| ≤ γ_d ‖a‖‖b‖ of the exact
///   one (γ_d = d u / (1 − d u)), so c within γ_d (‖z_i‖² + ‖z_j‖²);
/// - the f64 distance d_ij (an FMA chain, two sums, norms summed in f64) is within
///   (2d + 4) v (‖x_i‖² + ‖x_j‖²) of the exact one, and the norms ‖z‖², the bounds and
///   their sums here round by less than (d + 8) v (‖z_i‖² + ‖z_j‖²);
/// - η covers f32 underflow (absolute, ≤ 2⁻¹⁴⁹ per operation).
///
/// Hence κ₃₂ = 1.01 (d + 6) u / (1 − (d + 6) u), κ₆₄ = 2.02 (d + 16) v, η = (d + 6) 2⁻⁹⁰.
struct Approx {
    z: Vec<f32>,
    lo: Vec<f64>,
    hi: Vec<f64>,
    d: usize,
}

impl Approx {
    /// `None` where f32 does not apply: non-finite values, centred values beyond 2⁵⁰ (their
    /// f32 products could overflow), or d so large that the bound is void.
    fn new(x: ArrayView2<f64>, norms: &[f64]) -> Option<Self> {
        let (n, d) = x.dim();
        let u = (d as f64 + 6.0) * f64::powi(2.0, -24);
        if !(u < 0.25) || !norms.iter().all(|v| v.is_finite()) {
            return None;
        }
        let mu = x.sum_axis(ndarray::Axis(0)) / n as f64;
        let (k32, k64) = (1.01 * u / (1.0 - u), 2.02 * (d as f64 + 16.0) * f64::powi(2.0, -53));
        let eta = (d as f64 + 6.0) * f64::powi(2.0, -90);
        let (mut z, mut lo, mut hi) = (Vec::with_capacity(n * d), vec![0.0; n], vec![0.0; n]);
        for (i, row) in x.rows().into_iter().enumerate() {
            let mut nz = 0.0;
            for (v, m) in row.iter().zip(&mu) {
                let c = v - m;
                if !(c.abs() <= f64::powi(2.0, 50)) {
                    return None;
                }
                let c = c as f32;
                z.push(c);
                nz += f64::from(c) * f64::from(c);
            }
            let s = k32 * nz + k64 * (norms[i] + nz) + eta;
            (lo[i], hi[i]) = (nz - s, nz + s);
        }
        Some(Approx { z, lo, hi, d })
    }

    /// Rows `range` of z as a faer matrix.
    fn rows(&self, range: &std::ops::Range<usize>) -> MatRef<'_, f32> {
        let z = &self.z[range.start * self.d..range.end * self.d];
        MatRef::from_row_major_slice(z, range.len(), self.d)
    }
}

/// Each row's candidates ([`Found`]).
fn candidates(a: &Approx, k: usize) -> Vec<Found> {
    let n = a.lo.len();
    let cap = 2 * k + 16;
    let blocks = n.div_ceil(BLOCK);
    let shared: Vec<Mutex<Candidates>> =
        (0..blocks).map(|b| Mutex::new(Candidates::new(rows_of(b, n).len(), k, cap))).collect();
    // Last blocks first: a block's rows then meet the rows after them with the bounds of
    // their own tasks, and most products pass no bound.
    let tasks: Vec<(usize, usize)> =
        (0..blocks).rev().flat_map(|b| (b..blocks).step_by(CHUNK).map(move |c| (b, c))).collect();
    tasks.par_iter().for_each_init(
        || Workspace::new(k, cap, n),
        |ws, &(b, c)| {
            let (cols, rows) = (rows_of(b, n), c * BLOCK..((c + CHUNK) * BLOCK).min(n));
            let out = ws.product.as_mut().submatrix_mut(0, 0, rows.len(), cols.len());
            matmul(out, Accum::Replace, a.rows(&rows), a.rows(&cols).transpose(), -2.0, Par::Seq);
            clear_upper_simd();
            ws.bounds(&shared, &cols, &rows);
            ws.scan(a, &cols, &rows);
            merge(&shared, &ws.mine, cols.start);
            merge(&shared, &ws.theirs, rows.start);
        },
    );
    let mut lists = Vec::with_capacity(n);
    for (b, block) in shared.into_iter().enumerate() {
        let block = block.into_inner().unwrap_or_else(PoisonError::into_inner);
        lists.extend((0..rows_of(b, n).len()).map(|r| block.finish(r)));
    }
    lists
}

/// Each row's candidates: its list, or if it overflowed (many ties), the rows within its
/// final bound, found again from f32 products of such rows against all (`AGAIN` entries
/// each, 8 to 256 rows).
fn find_again(a: &Approx, lists: Vec<Found>) -> Vec<Option<Vec<usize>>> {
    let n = lists.len();
    let again: Vec<(usize, f64)> = (lists.iter().enumerate())
        .filter_map(|(i, f)| if let Found::Within(b) = f { Some((i, *b)) } else { None })
        .collect();
    let found: Vec<(usize, Vec<usize>)> = (again.par_chunks((AGAIN / n).clamp(8, 256)))
        .flat_map_iter(|chunk| {
            let z: Vec<f32> =
                chunk.iter().flat_map(|&(i, _)| &a.z[i * a.d..(i + 1) * a.d]).copied().collect();
            let these = MatRef::from_row_major_slice(&z, chunk.len(), a.d);
            let mut p = Mat::<f32>::zeros(n, chunk.len());
            matmul(p.as_mut(), Accum::Replace, a.rows(&(0..n)), these.transpose(), -2.0, Par::Seq);
            clear_upper_simd();
            let within = |(r, &(i, bound)): (usize, &(usize, f64))| {
                let (li, col) = (a.lo[i], p.col_as_slice(r));
                let near = |&j: &usize| j != i && (f64::from(col[j]) + li) + a.lo[j] <= bound;
                (i, (0..n).filter(near).collect())
            };
            chunk.iter().enumerate().map(within).collect::<Vec<_>>()
        })
        .collect();
    let mut out: Vec<Option<Vec<usize>>> =
        (lists.into_iter()).map(|f| if let Found::Among(c) = f { Some(c) } else { None }).collect();
    for (i, c) in found {
        out[i] = Some(c);
    }
    out
}

/// Rows of block b.
fn rows_of(b: usize, n: usize) -> std::ops::Range<usize> {
    b * BLOCK..((b + 1) * BLOCK).min(n)
}

/// Offers a task's lists (`rows` rows from `first`) to the shared lists of their blocks.
fn merge(shared: &[Mutex<Candidates>], local: &Candidates, first: usize) {
    let rows = local.rows();
    let mut r = 0;
    while r < rows {
        let (b, within) = ((first + r) / BLOCK, (first + r) % BLOCK);
        let take = (BLOCK - within).min(rows - r);
        let mut lists = shared[b].lock().unwrap_or_else(PoisonError::into_inner);
        for t in 0..take {
            lists.take(within + t, local, r + t);
        }
        r += take;
    }
}

/// One worker's buffers: the product, its columns' and rows' lists and their bounds.
struct Workspace {
    product: Mat<f32>,
    mine: Candidates,
    theirs: Candidates,
    their_bound: Vec<f64>,
}

impl Workspace {
    fn new(k: usize, cap: usize, n: usize) -> Self {
        Workspace {
            product: Mat::zeros((CHUNK * BLOCK).min(n), BLOCK.min(n)),
            mine: Candidates::new(0, k, cap),
            theirs: Candidates::new(0, k, cap),
            their_bound: Vec::new(),
        }
    }

    /// Empties the task's lists, bounded by the shared lists' bounds.
    fn bounds(
        &mut self,
        shared: &[Mutex<Candidates>],
        cols: &std::ops::Range<usize>,
        rows: &std::ops::Range<usize>,
    ) {
        for (range, local) in [(cols, &mut self.mine), (rows, &mut self.theirs)] {
            local.reset(range.len());
            for (b, lists) in
                shared.iter().enumerate().take(range.end.div_ceil(BLOCK)).skip(range.start / BLOCK)
            {
                let block = rows_of(b, usize::MAX);
                let (from, to) = (block.start.max(range.start), block.end.min(range.end));
                if from >= to {
                    continue;
                }
                let lists = lists.lock().unwrap_or_else(PoisonError::into_inner);
                for i in from..to {
                    local.limit(i - range.start, lists.bound(i - block.start));
                }
            }
        }
        self.their_bound.clear();
        self.their_bound.extend((0..rows.len()).map(|u| self.theirs.bound(u)));
    }

    /// Offers every pair of the product to the task's lists: column i's to row i (the rows
    /// of its own block only to it), the others to both rows, `LANES` rows at a time
    /// tested first against the bounds (most pass none).
    fn scan(&mut self, a: &Approx, cols: &std::ops::Range<usize>, rows: &std::ops::Range<usize>) {
        let own = if rows.start == cols.start { cols.len() } else { 0 };
        let (lo, hi) = (&a.lo[rows.clone()], &a.hi[rows.clone()]);
        for r in 0..cols.len() {
            let i = cols.start + r;
            let (li, hi_i) = (a.lo[i], a.hi[i]);
            let column = &self.product.col_as_slice(r)[..rows.len()];
            let mut bi = self.mine.bound(r);
            for t in (0..own).filter(|&t| t != r) {
                let c = f64::from(column[t]);
                if (c + li) + lo[t] <= bi {
                    bi = self.mine.offer(r, (c + li) + lo[t], (c + hi_i) + hi[t], rows.start + t);
                }
            }
            let mut t = own;
            while t < rows.len() {
                let end = (t + LANES).min(rows.len());
                if let (Ok(c), Ok(l), Ok(b)) = (
                    column[t..end].try_into(),
                    lo[t..end].try_into(),
                    self.their_bound[t..end].try_into(),
                ) && !any_near(c, l, b, li, bi)
                {
                    t = end;
                    continue;
                }
                for u in t..end {
                    let c = f64::from(column[u]);
                    let (lower, upper) = ((c + li) + lo[u], (c + hi_i) + hi[u]);
                    if lower <= bi {
                        bi = self.mine.offer(r, lower, upper, rows.start + u);
                    }
                    if lower <= self.their_bound[u] {
                        self.their_bound[u] = self.theirs.offer(u, lower, upper, i);
                    }
                }
                t = end;
            }
        }
    }
}

/// Whether any of `LANES` products c gives a lower bound (c + lo_i) + lo_j within row i's
/// bound `bi` or row j's `bj`. Branch-free, to vectorise.
fn any_near(c: &[f32; LANES], lo: &[f64; LANES], bj: &[f64; LANES], li: f64, bi: f64) -> bool {
    let mut near = [false; LANES];
    for u in 0..LANES {
        let lower = (f64::from(c[u]) + li) + lo[u];
        near[u] = (lower <= bi) | (lower <= bj[u]);
    }
    near.iter().fold(false, |a, &b| a | b)
}
