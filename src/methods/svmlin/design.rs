//! The training design: labeled rows, then unlabeled rows, read in place from the problem's
//! CSR blocks (dense blocks are converted once), with a constant feature 1 appended
//! implicitly (the bias is the last weight, regularised with w; no copy of the data).
//!
//! Mat-vecs over row subsets run on the rayon pool in fixed chunks: a subset of m rows has
//! clamp(m / CHUNK_ROWS, 1, MAX_CHUNKS) chunks whatever the number of threads, and the
//! chunks' partial sums are added in chunk order, so results are identical for any number of
//! threads (and, below 2·CHUNK_ROWS rows, identical to a sequential pass). Each mat-vec
//! runs at the blocks' stored column index type (u16 up to 65,536 features, else u32).

use std::borrow::Cow;

use rayon::prelude::*;

use super::kernels::{self, LANES, gather, gather_lanes, prefetch, scatter};
use crate::data::{Column, Csr, Features};
use crate::error::{Error, Result};
use chunks::{MAX_CHUNKS, ROW_TASK, chunk_len, partials, reduce};

/// `$d.$f::<I>(args)` with I the column index type that design `$d` stores.
macro_rules! at_width {
    ($d:expr, $f:ident($($a:expr),*)) => {
        if $d.narrow { $d.$f::<u16>($($a),*) } else { $d.$f::<u32>($($a),*) }
    };
}

/// Where a design row's entries are stored: its block and the range there (16 bytes: the
/// dual CD solver keeps one per row; a row holds at most its width, < 2³² entries).
#[derive(Debug, Clone, Copy)]
pub struct Span {
    start: usize,
    len: u32,
    block: u32,
}

/// The rows of the given blocks, in order, each with a trailing 1.
#[derive(Debug, Clone)]
pub struct Design<'a> {
    blocks: Vec<Cow<'a, Csr>>,
    /// First design row of each block, then the number of rows.
    starts: Vec<usize>,
    dim: usize,
    /// Whether the blocks store their column indices as u16 (all alike: equal widths).
    narrow: bool,
}

/// The design of `parts` stacked in order (all with the same number of features).
pub fn with_bias<'a>(parts: &[&'a Features]) -> Result<Design<'a>> {
    let dim = parts.first().map_or(0, |p| p.ncols());
    let mut starts = vec![0];
    let mut blocks = Vec::with_capacity(parts.len());
    for part in parts {
        if part.ncols() != dim {
            return Err(Error::Data(format!("cannot stack {} features under {dim}", part.ncols())));
        }
        blocks.push(match part {
            Features::Sparse(x) => Cow::Borrowed(x),
            Features::Dense(x) => Cow::Owned(dense_to_csr(x)?),
        });
        starts.push(starts[starts.len() - 1] + part.nrows());
    }
    let n = starts[starts.len() - 1];
    if u32::try_from(n).is_err() {
        return Err(Error::Data(format!("{n} rows: the SVMlin solvers take fewer than 2^32")));
    }
    let narrow = blocks.iter().all(|b| b.stores::<u16>());
    if !narrow && !blocks.iter().all(|b| b.stores::<u32>()) {
        return Err(Error::Data("blocks store their column indices at different widths".into()));
    }
    Ok(Design { blocks, starts, dim, narrow })
}

/// The non-zeros of a dense matrix as CSR.
fn dense_to_csr(x: &ndarray::Array2<f64>) -> Result<Csr> {
    let (mut indptr, mut indices, mut values) = (vec![0], Vec::new(), Vec::new());
    for row in x.rows() {
        for (j, v) in row.iter().enumerate().filter(|(_, v)| **v != 0.0) {
            indices.push(j as u32);
            values.push(*v);
        }
        indptr.push(indices.len());
    }
    Csr::new(x.ncols(), indptr, indices, values)
}

impl Design<'_> {
    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.starts[self.starts.len() - 1]
    }

    /// Number of columns: the features and the bias.
    pub fn ncols(&self) -> usize {
        self.dim + 1
    }

    /// Feature indices (stored as I) and values of row `i` (without the bias).
    #[inline(always)]
    fn row<I: Column>(&self, i: usize) -> (&[I], &[f64]) {
        self.entries_as(self.span(i))
    }

    /// The entries at `s` (`I` the stored index type).
    #[inline(always)]
    fn entries_as<I: Column>(&self, s: Span) -> (&[I], &[f64]) {
        self.blocks[s.block as usize].entries_as((s.start, s.start + s.len as usize))
    }

    /// Row `i`'s [`Span`].
    #[inline(always)]
    pub(super) fn span(&self, i: usize) -> Span {
        let block = self.starts[1..self.blocks.len()].partition_point(|&s| s <= i);
        let (start, end) = self.blocks[block].storage_range(i - self.starts[block]);
        Span { start, len: (end - start) as u32, block: block as u32 }
    }

    /// The [`Span`]s of `rows` (overwriting `out`), for [`Design::gram_mul_vec_rows`] over the
    /// same scattered rows many times: one lookup per row then, not three dependent loads.
    pub fn spans(&self, rows: &[u32], out: &mut Vec<Span>) {
        out.clear();
        out.extend(rows.iter().map(|&i| self.span(i as usize)));
    }

    /// Whether the blocks store their column indices as u16 (else u32): the `I` of the
    /// per-row methods below, for loops that pick the width once.
    pub(super) fn narrow(&self) -> bool {
        self.narrow
    }

    /// ‖row `i`‖² with its bias 1 (`I` the stored index type).
    pub(super) fn row_norm2_as<I: Column>(&self, i: usize) -> f64 {
        self.row::<I>(i).1.iter().map(|v| v * v).sum::<f64>() + 1.0
    }

    /// Row `i` · v (v has [`Design::ncols`] entries, checked by the callers; `I` the stored
    /// index type).
    #[inline]
    pub(super) fn dot_as<I: Column>(&self, i: usize, v: &[f64]) -> f64 {
        self.dot_span_as::<I>(self.span(i), v)
    }

    /// [`Design::dot_as`] of the row stored at `s`.
    #[inline]
    pub(super) fn dot_span_as<I: Column>(&self, s: Span, v: &[f64]) -> f64 {
        let (idx, val) = self.entries_as::<I>(s);
        gather(idx, val, v) + v[self.dim]
    }

    /// Asks the cache for the row stored at `s`, to be read soon after.
    #[inline]
    pub(super) fn prefetch_span_as<I: Column>(&self, s: Span) {
        let (idx, val) = self.entries_as::<I>(s);
        prefetch(idx);
        prefetch(val);
    }

    /// acc += scale · row `i` (acc has [`Design::ncols`] entries, checked by the callers).
    #[inline]
    pub(super) fn add_row(&self, i: usize, scale: f64, acc: &mut [f64]) {
        at_width!(self, add_row_as(i, scale, acc))
    }

    /// [`Design::add_row`] at the stored index type `I`.
    #[inline]
    pub(super) fn add_row_as<I: Column>(&self, i: usize, scale: f64, acc: &mut [f64]) {
        self.add_span_as::<I>(self.span(i), scale, acc);
    }

    /// [`Design::add_row_as`] of the row stored at `s`.
    #[inline]
    pub(super) fn add_span_as<I: Column>(&self, s: Span, scale: f64, acc: &mut [f64]) {
        let (idx, val) = self.entries_as::<I>(s);
        scatter(idx, val, scale, acc);
        acc[self.dim] += scale;
    }

    /// `o = X w` over every row.
    pub fn mul_vec(&self, w: &[f64], o: &mut [f64]) {
        at_width!(self, mul_vec_as(w, o))
    }

    fn mul_vec_as<I: Column>(&self, w: &[f64], o: &mut [f64]) {
        assert!(
            w.len() == self.ncols() && o.len() == self.nrows(),
            "design mat-vec: wrong lengths"
        );
        o.par_chunks_mut(ROW_TASK).enumerate().for_each(|(t, chunk)| {
            let first = t * ROW_TASK;
            let done = chunk.len() - chunk.len() % LANES;
            for (g, og) in chunk[..done].chunks_exact_mut(LANES).enumerate() {
                let rows = std::array::from_fn(|k| self.row::<I>(first + g * LANES + k));
                og.copy_from_slice(&gather_lanes(&rows, w).map(|d| d + w[self.dim]));
            }
            for (r, oi) in chunk.iter_mut().enumerate().skip(done) {
                *oi = self.dot_as::<I>(first + r, w);
            }
        });
    }

    /// `out[k] = row(rows[k]) · v`: the mat-vec of a row subset, linear in its non-zeros.
    pub fn mul_vec_rows(&self, rows: &[u32], v: &[f64], out: &mut [f64]) {
        at_width!(self, mul_vec_rows_as(rows, v, out))
    }

    fn mul_vec_rows_as<I: Column>(&self, rows: &[u32], v: &[f64], out: &mut [f64]) {
        assert!(
            v.len() == self.ncols() && out.len() == rows.len(),
            "design mat-vec: wrong lengths"
        );
        out.par_chunks_mut(ROW_TASK).zip(rows.par_chunks(ROW_TASK)).for_each(|(o, r)| {
            for (ok, &i) in o.iter_mut().zip(r) {
                *ok = self.dot_as::<I>(i as usize, v);
            }
        });
    }

    /// `o[i] = row(i) · v` for every row i not in `skip` (strictly increasing), leaving the
    /// rows of `skip` alone: the mat-vec of a subset's complement, linear in its non-zeros.
    pub fn mul_vec_other_rows(&self, skip: &[u32], v: &[f64], o: &mut [f64]) {
        at_width!(self, mul_vec_other_rows_as(skip, v, o))
    }

    fn mul_vec_other_rows_as<I: Column>(&self, skip: &[u32], v: &[f64], o: &mut [f64]) {
        assert!(
            v.len() == self.ncols() && o.len() == self.nrows(),
            "design mat-vec: wrong lengths"
        );
        debug_assert!(skip.windows(2).all(|p| p[0] < p[1]), "rows to skip must increase");
        o.par_chunks_mut(ROW_TASK).enumerate().for_each(|(t, chunk)| {
            let first = t * ROW_TASK;
            let from = skip.partition_point(|&i| (i as usize) < first);
            let mut skip = skip[from..].iter().map(|&i| i as usize - first).peekable();
            for (r, oi) in chunk.iter_mut().enumerate() {
                if skip.next_if_eq(&r).is_none() {
                    *oi = self.dot_as::<I>(first + r, v);
                }
            }
        });
    }

    /// `out = Σ_k v[k] row(rows[k])` (overwritten; one entry per column); `spare` holds the
    /// partial sums of the chunks after the first.
    pub fn t_mul_vec_rows(&self, rows: &[u32], v: &[f64], out: &mut [f64], spare: &mut Vec<f64>) {
        at_width!(self, t_mul_vec_rows_as(rows, v, out, spare))
    }

    fn t_mul_vec_rows_as<I: Column>(
        &self,
        rows: &[u32],
        v: &[f64],
        out: &mut [f64],
        spare: &mut Vec<f64>,
    ) {
        assert!(
            out.len() == self.ncols() && v.len() == rows.len(),
            "design mat-vec: wrong lengths"
        );
        let len = chunk_len(rows.len());
        let accs = partials(out, spare, rows.len().div_ceil(len));
        accs.into_par_iter().zip(rows.par_chunks(len)).zip(v.par_chunks(len)).for_each(
            |((acc, r), vc)| {
                acc.fill(0.0);
                for (&i, &vk) in r.iter().zip(vc) {
                    self.add_row_as::<I>(i as usize, vk, acc);
                }
            },
        );
        reduce(out, spare);
    }

    /// [`Design::t_mul_vec_rows`] and the diagonal of X_Jᵀ diag(c) X_J in one pass: `sums`
    /// gets Σ_k v[k] row(rows[k]) and `squares` Σ_k c[k] row(rows[k])² entry by entry (the
    /// bias entry Σ_k c[k]), both overwritten; `spare` as in [`Design::t_mul_vec_rows`].
    pub fn t_mul_vec_diag_rows(
        &self,
        rows: &[u32],
        (v, c): (&[f64], &[f64]),
        (sums, squares): (&mut [f64], &mut [f64]),
        spare: &mut Vec<f64>,
    ) {
        at_width!(self, t_mul_vec_diag_rows_as(rows, (v, c), (sums, squares), spare))
    }

    fn t_mul_vec_diag_rows_as<I: Column>(
        &self,
        rows: &[u32],
        (v, c): (&[f64], &[f64]),
        (sums, squares): (&mut [f64], &mut [f64]),
        spare: &mut Vec<f64>,
    ) {
        let d = self.ncols();
        assert!(
            sums.len() == d && squares.len() == d && v.len() == rows.len() && c.len() == rows.len(),
            "design mat-vec: wrong lengths"
        );
        // Chunk t accumulates into sums (t = 0) or spare, then squares likewise.
        let len = chunk_len(rows.len());
        let chunks = rows.len().div_ceil(len);
        spare.resize(2 * chunks.saturating_sub(1) * d, 0.0);
        let (spare_sums, spare_squares) = spare.split_at_mut(chunks.saturating_sub(1) * d);
        if chunks == 0 {
            sums.fill(0.0);
            squares.fill(0.0);
        }
        let accs: Vec<(&mut [f64], &mut [f64])> = std::iter::once((&mut *sums, &mut *squares))
            .chain(spare_sums.chunks_mut(d).zip(spare_squares.chunks_mut(d)))
            .collect();
        let parts = accs.into_par_iter().zip(rows.par_chunks(len)).zip(v.par_chunks(len));
        parts.zip(c.par_chunks(len)).for_each(|((((acc, sq), r), vc), cc)| {
            acc.fill(0.0);
            sq.fill(0.0);
            for ((&i, &vk), &ck) in r.iter().zip(vc).zip(cc) {
                let (idx, val) = self.row::<I>(i as usize);
                scatter(idx, val, vk, acc);
                acc[self.dim] += vk;
                kernels::scatter_squares(idx, val, ck, sq);
                sq[self.dim] += ck;
            }
        });
        let (spare_sums, spare_squares) = spare.split_at(chunks.saturating_sub(1) * d);
        reduce(sums, spare_sums);
        reduce(squares, spare_squares);
    }

    /// One pass over a row subset: `q[k] = row(rows[k]) · v` and
    /// `out = Σ_k c[k] q[k] row(rows[k])` (Xᵀ diag(c) X v on the subset), each row read once;
    /// returns Σ_k c[k] q[k]² (= vᵀ out), each chunk's sum added in chunk order. `spans` are
    /// the rows' [`Design::spans`], or empty to look the rows up (the same bits either way).
    pub fn gram_mul_vec_rows(
        &self,
        (rows, spans): (&[u32], &[Span]),
        c: &[f64],
        v: &[f64],
        q: &mut [f64],
        out: &mut [f64],
        spare: &mut Vec<f64>,
    ) -> f64 {
        at_width!(self, gram_mul_vec_rows_as((rows, spans), c, v, q, out, spare))
    }

    fn gram_mul_vec_rows_as<I: Column>(
        &self,
        (rows, spans): (&[u32], &[Span]),
        c: &[f64],
        v: &[f64],
        q: &mut [f64],
        out: &mut [f64],
        spare: &mut Vec<f64>,
    ) -> f64 {
        let m = rows.len();
        assert!(
            v.len() == self.ncols() && out.len() == self.ncols() && c.len() == m && q.len() == m,
            "design mat-vec: wrong lengths"
        );
        assert!(spans.is_empty() || spans.len() == m, "design mat-vec: wrong spans");
        let len = chunk_len(m);
        let accs = partials(out, spare, m.div_ceil(len));
        let mut sums = [0.0; MAX_CHUNKS];
        let parts = accs
            .into_par_iter()
            .zip(sums.par_iter_mut())
            .zip(q.par_chunks_mut(len))
            .zip(c.par_chunks(len))
            .enumerate();
        parts.for_each(|(t, (((acc, sum), qc), cc))| {
            let first = t * len;
            *sum = if spans.is_empty() {
                let row = |k: usize| self.row::<I>(rows[first + k] as usize);
                kernels::gram(row, self.dim, cc, v, qc, acc)
            } else {
                let row = |k: usize| self.entries_as::<I>(spans[first + k]);
                kernels::gram(row, self.dim, cc, v, qc, acc)
            };
        });
        reduce(out, spare);
        sums.iter().sum()
    }

    /// A dense copy with the bias column (for tests and small references).
    pub fn to_dense(&self) -> ndarray::Array2<f64> {
        let mut out = ndarray::Array2::zeros((self.nrows(), self.ncols()));
        for (i, mut row) in out.rows_mut().into_iter().enumerate() {
            let row = row.as_slice_mut().expect("standard layout");
            self.add_row(i, 1.0, row);
        }
        out
    }
}

mod chunks;
#[cfg(test)]
mod tests;
