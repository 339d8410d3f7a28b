//! The k nearest other rows of every row, exactly, computing each pair's cross product once:
//! a task takes a block of rows (the columns of its product) against a chunk of the rows
//! from that block on, and every product −2 x_iᵀx_j gives row i its squared distance
//! (−2 x_iᵀx_j + ‖x_i‖²) + ‖x_j‖² and row j its (−2 x_iᵀx_j + ‖x_j‖²) + ‖x_i‖², clamped at 0
//! (faer's kernels sum each product in one fixed order, so x_iᵀx_j and x_jᵀx_i have the
//! same bits: the tests compare with whole-row distances). Tasks run on rayon and merge
//! into per-block lists under a lock; a list keeps the k smallest pairs (distance, index)
//! of a total order, so the result is the same in any merge order and for any number of
//! threads.

use std::sync::{Mutex, PoisonError};

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, Par};
use ndarray::{ArrayView2, s};
use rayon::prelude::*;

use super::distances::row_norms;
use crate::linalg::{clear_upper_simd, view};

/// Rows per block: a task's columns, and the unit of the shared lists' locks.
const BLOCK: usize = 256;
/// Blocks of rows per product (a 1,024 × 256 product: 2 MiB, within L2 + L3 reach).
const CHUNK: usize = 4;
/// Products tested together against the bounds before any selection work.
const LANES: usize = 8;

/// For each row of `x`, its k nearest other rows and their squared distances, nearest
/// first (row-major n × k; ties broken by index). Needs 1 ≤ k < n.
pub fn nearest(x: ArrayView2<f64>, k: usize) -> (Vec<usize>, Vec<f64>) {
    let n = x.nrows();
    let norms = row_norms(x).to_vec();
    let blocks = n.div_ceil(BLOCK);
    let shared: Vec<Mutex<Lists>> =
        (0..blocks).map(|b| Mutex::new(Lists::new(rows_of(b, n).len(), k))).collect();
    // Last blocks first: a block's rows then meet the rows after them with the bounds of
    // their own tasks, and most products pass no bound.
    let tasks: Vec<(usize, usize)> =
        (0..blocks).rev().flat_map(|b| (b..blocks).step_by(CHUNK).map(move |c| (b, c))).collect();
    tasks.par_iter().for_each_init(
        || Workspace::new(k, n),
        |ws, &(b, c)| {
            let (cols, rows) = (rows_of(b, n), c * BLOCK..((c + CHUNK) * BLOCK).min(n));
            ws.products(x, &cols, &rows);
            ws.bounds(&shared, &cols, &rows, n);
            ws.scan(&norms, &cols, &rows);
            merge(&shared, &ws.mine, cols.start);
            merge(&shared, &ws.theirs, rows.start);
        },
    );
    let (mut neighbours, mut sq) = (Vec::with_capacity(n * k), Vec::with_capacity(n * k));
    for lists in shared {
        let lists = lists.into_inner().unwrap_or_else(PoisonError::into_inner);
        neighbours.extend(lists.index);
        sq.extend(lists.value);
    }
    (neighbours, sq)
}

/// Rows of block b.
fn rows_of(b: usize, n: usize) -> std::ops::Range<usize> {
    b * BLOCK..((b + 1) * BLOCK).min(n)
}

/// Offers a task's lists (rows from `first`) to the shared lists of the blocks they cover.
fn merge(shared: &[Mutex<Lists>], local: &Lists, first: usize) {
    let rows = local.index.len() / local.k;
    let mut r = 0;
    while r < rows {
        let (b, within) = ((first + r) / BLOCK, (first + r) % BLOCK);
        let take = (BLOCK - within).min(rows - r);
        let mut lists = shared[b].lock().unwrap_or_else(PoisonError::into_inner);
        for t in 0..take {
            let (index, value) = local.row(r + t);
            for (&j, &v) in index.iter().zip(value).take_while(|(j, _)| **j != usize::MAX) {
                lists.offer(within + t, v, j);
            }
        }
        r += take;
    }
}

/// Per-row sorted lists of the k smallest (distance, index) pairs offered so far, padded
/// with (∞, usize::MAX).
struct Lists {
    k: usize,
    index: Vec<usize>,
    value: Vec<f64>,
}

impl Lists {
    fn new(rows: usize, k: usize) -> Self {
        Lists { k, index: vec![usize::MAX; rows * k], value: vec![f64::INFINITY; rows * k] }
    }

    /// Empties the lists, for `rows` rows.
    fn reset(&mut self, rows: usize) {
        self.index.clear();
        self.index.resize(rows * self.k, usize::MAX);
        self.value.clear();
        self.value.resize(rows * self.k, f64::INFINITY);
    }

    fn row(&self, r: usize) -> (&[usize], &[f64]) {
        let at = r * self.k..(r + 1) * self.k;
        (&self.index[at.clone()], &self.value[at])
    }

    /// The k-th smallest distance of row r so far.
    fn kth(&self, r: usize) -> f64 {
        self.value[(r + 1) * self.k - 1]
    }

    /// Enters (v, j) into row r's list if it is among the k smallest; returns the row's
    /// k-th distance afterwards.
    fn offer(&mut self, r: usize, v: f64, j: usize) -> f64 {
        let at = r * self.k..(r + 1) * self.k;
        let (index, value) = (&mut self.index[at.clone()], &mut self.value[at]);
        let mut m = self.k - 1;
        if !before(v, j, value[m], index[m]) {
            return value[m];
        }
        while m > 0 && before(v, j, value[m - 1], index[m - 1]) {
            value[m] = value[m - 1];
            index[m] = index[m - 1];
            m -= 1;
        }
        value[m] = v;
        index[m] = j;
        value[self.k - 1]
    }
}

/// (v, j) < (w, i): by distance (total order), then by index.
fn before(v: f64, j: usize, w: f64, i: usize) -> bool {
    v.total_cmp(&w).then(j.cmp(&i)).is_lt()
}

/// One worker's buffers: the product, its columns' and rows' lists and distance bounds.
struct Workspace {
    product: Mat<f64>,
    mine: Lists,
    theirs: Lists,
    mine_bound: Vec<f64>,
    their_bound: Vec<f64>,
}

impl Workspace {
    fn new(k: usize, n: usize) -> Self {
        Workspace {
            product: Mat::zeros((CHUNK * BLOCK).min(n), BLOCK.min(n)),
            mine: Lists::new(0, k),
            theirs: Lists::new(0, k),
            mine_bound: Vec::new(),
            their_bound: Vec::new(),
        }
    }

    /// −2 x_jᵀx_i for the rows j (product rows) and the columns i (product columns).
    fn products(
        &mut self,
        x: ArrayView2<f64>,
        cols: &std::ops::Range<usize>,
        rows: &std::ops::Range<usize>,
    ) {
        let (a, b) = (x.slice(s![rows.clone(), ..]), x.slice(s![cols.clone(), ..]));
        let out = self.product.as_mut().submatrix_mut(0, 0, rows.len(), cols.len());
        matmul(out, Accum::Replace, view(&a), view(&b).transpose(), -2.0, Par::Seq);
        clear_upper_simd();
    }

    /// Empties the task's lists; bounds each row's distances by its shared k-th distance
    /// (a pair beyond it cannot be among the k nearest).
    fn bounds(
        &mut self,
        shared: &[Mutex<Lists>],
        cols: &std::ops::Range<usize>,
        rows: &std::ops::Range<usize>,
        n: usize,
    ) {
        self.mine.reset(cols.len());
        self.theirs.reset(rows.len());
        for (range, bound) in [(cols, &mut self.mine_bound), (rows, &mut self.their_bound)] {
            bound.clear();
            let (first, end) = (range.start / BLOCK, range.end.div_ceil(BLOCK));
            for (b, lists) in shared.iter().enumerate().take(end).skip(first) {
                let lists = lists.lock().unwrap_or_else(PoisonError::into_inner);
                bound.extend((0..rows_of(b, n).len()).map(|r| lists.kth(r)));
            }
        }
    }

    /// Offers every distance of the product to the task's lists: column i's to row i (the
    /// rows of its own block only to it), the others to both rows, `LANES` rows at a time
    /// tested first against the bounds (most pass none).
    fn scan(
        &mut self,
        norms: &[f64],
        cols: &std::ops::Range<usize>,
        rows: &std::ops::Range<usize>,
    ) {
        let own = if rows.start == cols.start { cols.len() } else { 0 };
        let nj = &norms[rows.clone()];
        for r in 0..cols.len() {
            let (i, ni) = (cols.start + r, norms[cols.start + r]);
            let column = &self.product.col_as_slice(r)[..rows.len()];
            let mut bi = self.mine_bound[r];
            for t in 0..own {
                let d = ((column[t] + ni) + nj[t]).max(0.0);
                if d <= bi && t != r {
                    bi = bi.min(self.mine.offer(r, d, rows.start + t));
                }
            }
            let mut t = own;
            while t < rows.len() {
                let end = (t + LANES).min(rows.len());
                if let (Ok(c), Ok(n), Ok(b)) = (
                    column[t..end].try_into(),
                    nj[t..end].try_into(),
                    self.their_bound[t..end].try_into(),
                ) && !any_near(c, n, b, ni, bi)
                {
                    t = end;
                    continue;
                }
                for u in t..end {
                    let (c, n) = (column[u], nj[u]);
                    let (di, dj) = (((c + ni) + n).max(0.0), ((c + n) + ni).max(0.0));
                    if di <= bi {
                        bi = bi.min(self.mine.offer(r, di, rows.start + u));
                    }
                    if dj <= self.their_bound[u] {
                        self.their_bound[u] = self.their_bound[u].min(self.theirs.offer(u, dj, i));
                    }
                }
                t = end;
            }
            self.mine_bound[r] = bi;
        }
    }
}

/// Whether any of `LANES` products c may give a distance within a bound: row i's
/// (c + ‖x_i‖²) + ‖x_j‖² within `bi`, or row j's (c + ‖x_j‖²) + ‖x_i‖² within its `bj`
/// (a sum beyond a bound stays beyond it after the clamp at 0; a NaN sum, 0 after the clamp,
/// is near). Branch-free, to vectorise.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
fn any_near(c: &[f64; LANES], nj: &[f64; LANES], bj: &[f64; LANES], ni: f64, bi: f64) -> bool {
    let mut near = [false; LANES];
    for u in 0..LANES {
        near[u] = !((c[u] + ni) + nj[u] > bi) | !((c[u] + nj[u]) + ni > bj[u]);
    }
    near.iter().fold(false, |a, &b| a | b)
}
