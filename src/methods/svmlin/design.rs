//! The training design: labeled rows, then unlabeled rows, read in place from the problem's
//! CSR blocks (dense blocks are converted once), with a constant feature 1 appended
//! implicitly (the bias is the last weight, regularised with w; no copy of the data).
//!
//! Mat-vecs over row subsets run on the rayon pool in fixed chunks: a subset of m rows has
//! clamp(m / CHUNK_ROWS, 1, MAX_CHUNKS) chunks whatever the number of threads, and the
//! chunks' partial sums are added in chunk order, so results are identical for any number of
//! threads (and, below 2·CHUNK_ROWS rows, identical to a sequential pass).

use std::borrow::Cow;

use rayon::prelude::*;

use super::kernels::{self, LANES, gather, gather_lanes, scatter};
use crate::data::{Csr, Features};
use crate::error::{Error, Result};

/// Subset rows per chunk of a scattered (transposed) mat-vec, at least.
const CHUNK_ROWS: usize = 8192;
/// Chunks of a scattered mat-vec at most (each holds one partial sum of d + 1 entries).
const MAX_CHUNKS: usize = 4;
/// Output entries per task of the row-wise mat-vecs (no reduction, so any split is exact).
const ROW_TASK: usize = 2048;

/// The rows of the given blocks, in order, each with a trailing 1.
#[derive(Debug, Clone)]
pub struct Design<'a> {
    blocks: Vec<Cow<'a, Csr>>,
    /// First design row of each block, then the number of rows.
    starts: Vec<usize>,
    dim: usize,
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
    Ok(Design { blocks, starts, dim })
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

    /// Feature indices and values of row `i` (without the bias).
    #[inline(always)]
    fn row(&self, i: usize) -> (&[u32], &[f64]) {
        let b = self.starts[1..self.blocks.len()].partition_point(|&s| s <= i);
        self.blocks[b].row(i - self.starts[b])
    }

    /// ‖row `i`‖² with its bias 1.
    pub(super) fn row_norm2(&self, i: usize) -> f64 {
        self.row(i).1.iter().map(|v| v * v).sum::<f64>() + 1.0
    }

    /// Row `i` · v (v has [`Design::ncols`] entries, checked by the callers).
    #[inline]
    pub(super) fn dot(&self, i: usize, v: &[f64]) -> f64 {
        let (idx, val) = self.row(i);
        gather(idx, val, v) + v[self.dim]
    }

    /// acc += scale · row `i` (acc has [`Design::ncols`] entries, checked by the callers).
    #[inline]
    pub(super) fn add_row(&self, i: usize, scale: f64, acc: &mut [f64]) {
        let (idx, val) = self.row(i);
        scatter(idx, val, scale, acc);
        acc[self.dim] += scale;
    }

    /// `o = X w` over every row.
    pub fn mul_vec(&self, w: &[f64], o: &mut [f64]) {
        assert!(
            w.len() == self.ncols() && o.len() == self.nrows(),
            "design mat-vec: wrong lengths"
        );
        o.par_chunks_mut(ROW_TASK).enumerate().for_each(|(t, chunk)| {
            let first = t * ROW_TASK;
            let done = chunk.len() - chunk.len() % LANES;
            for (g, og) in chunk[..done].chunks_exact_mut(LANES).enumerate() {
                let rows = std::array::from_fn(|k| self.row(first + g * LANES + k));
                og.copy_from_slice(&gather_lanes(&rows, w).map(|d| d + w[self.dim]));
            }
            for (r, oi) in chunk.iter_mut().enumerate().skip(done) {
                *oi = self.dot(first + r, w);
            }
        });
    }

    /// `out[k] = row(rows[k]) · v`: the mat-vec of a row subset, linear in its non-zeros.
    pub fn mul_vec_rows(&self, rows: &[u32], v: &[f64], out: &mut [f64]) {
        assert!(
            v.len() == self.ncols() && out.len() == rows.len(),
            "design mat-vec: wrong lengths"
        );
        out.par_chunks_mut(ROW_TASK).zip(rows.par_chunks(ROW_TASK)).for_each(|(o, r)| {
            for (ok, &i) in o.iter_mut().zip(r) {
                *ok = self.dot(i as usize, v);
            }
        });
    }

    /// `o[i] = row(i) · v` for every row i not in `skip` (strictly increasing), leaving the
    /// rows of `skip` alone: the mat-vec of a subset's complement, linear in its non-zeros.
    pub fn mul_vec_other_rows(&self, skip: &[u32], v: &[f64], o: &mut [f64]) {
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
                    *oi = self.dot(first + r, v);
                }
            }
        });
    }

    /// `out = Σ_k v[k] row(rows[k])` (overwritten; one entry per column); `spare` holds the
    /// partial sums of the chunks after the first.
    pub fn t_mul_vec_rows(&self, rows: &[u32], v: &[f64], out: &mut [f64], spare: &mut Vec<f64>) {
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
                    self.add_row(i as usize, vk, acc);
                }
            },
        );
        reduce(out, spare);
    }

    /// One pass over a row subset: `q[k] = row(rows[k]) · v` and
    /// `out = Σ_k c[k] q[k] row(rows[k])` (Xᵀ diag(c) X v on the subset), each row read once;
    /// returns Σ_k c[k] q[k]² (= vᵀ out), each chunk's sum added in chunk order.
    pub fn gram_mul_vec_rows(
        &self,
        rows: &[u32],
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
        let len = chunk_len(m);
        let accs = partials(out, spare, m.div_ceil(len));
        let mut sums = [0.0; MAX_CHUNKS];
        let parts = accs
            .into_par_iter()
            .zip(sums.par_iter_mut())
            .zip(q.par_chunks_mut(len))
            .zip(rows.par_chunks(len))
            .zip(c.par_chunks(len));
        parts.for_each(|((((acc, sum), qc), r), cc)| {
            *sum = kernels::gram(|k| self.row(r[k] as usize), self.dim, cc, v, qc, acc);
        });
        reduce(out, spare);
        sums.iter().sum()
    }

    /// A dense copy with the bias column (for tests and small references).
    pub fn to_dense(&self) -> ndarray::Array2<f64> {
        let mut out = ndarray::Array2::zeros((self.nrows(), self.ncols()));
        for (i, mut row) in out.rows_mut().into_iter().enumerate() {
            self.add_row(i, 1.0, row.as_slice_mut().expect("standard layout"));
        }
        out
    }
}

/// Rows per chunk of a scattered mat-vec over `m` rows (fixed by m alone).
fn chunk_len(m: usize) -> usize {
    m.div_ceil((m / CHUNK_ROWS).clamp(1, MAX_CHUNKS)).max(1)
}

/// Accumulators of `chunks` chunks: `out` for the first, slices of `spare`. Each task zeroes
/// its own just before its scatter, so that the accumulator is in that core's cache; with no
/// chunk (an empty subset) `out` is zeroed here.
fn partials<'s>(out: &'s mut [f64], spare: &'s mut Vec<f64>, chunks: usize) -> Vec<&'s mut [f64]> {
    let d = out.len();
    if chunks == 0 {
        out.fill(0.0);
    }
    spare.resize(chunks.saturating_sub(1) * d, 0.0);
    std::iter::once(out).chain(spare.chunks_mut(d.max(1))).collect()
}

/// out += each partial sum of `spare`, in chunk order (entry by entry, so any split of the
/// entries across threads gives the same sums).
fn reduce(out: &mut [f64], spare: &[f64]) {
    if spare.is_empty() {
        return;
    }
    let d = out.len();
    out.par_chunks_mut(ROW_TASK).enumerate().for_each(|(t, o)| {
        for part in spare.chunks(d) {
            for (oj, pj) in o.iter_mut().zip(&part[t * ROW_TASK..]) {
                *oj += pj;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array1, array};

    fn example() -> Features {
        // [[1, 0, 2], [0, 0, 0], [0, 3, 0]]
        Features::Sparse(Csr::new(3, vec![0, 2, 2, 3], vec![0, 2, 1], vec![1.0, 2.0, 3.0]).unwrap())
    }

    #[test]
    fn stacks_blocks_with_the_bias_column() {
        let (a, b) = (example(), Features::Dense(array![[0.0, 5.0, 0.0]]));
        let x = with_bias(&[&a, &b]).unwrap();
        assert_eq!(
            x.to_dense(),
            array![
                [1.0, 0.0, 2.0, 1.0],
                [0.0, 0.0, 0.0, 1.0],
                [0.0, 3.0, 0.0, 1.0],
                [0.0, 5.0, 0.0, 1.0]
            ]
        );
        let c = Features::Dense(array![[1.0, 2.0]]);
        assert!(with_bias(&[&a, &c]).is_err());
    }

    #[test]
    fn row_subset_mat_vecs_match_dense() {
        let a = example();
        let x = with_bias(&[&a]).unwrap();
        let dense = x.to_dense();
        let rows = [2u32, 0, 2];
        let v = [1.0, -2.0, 0.5, 0.25];
        let mut out = [0.0; 3];
        x.mul_vec_rows(&rows, &v, &mut out);
        for (k, &i) in rows.iter().enumerate() {
            assert_eq!(out[k], dense.row(i as usize).dot(&Array1::from(v.to_vec())));
        }
        let (mut t, mut spare) = ([9.0; 4], Vec::new());
        x.t_mul_vec_rows(&rows, &v[..3], &mut t, &mut spare);
        // 1·row2 − 2·row0 + 0.5·row2 = [−2, 4.5, −4, −0.5].
        assert_eq!(t, [-2.0, 4.5, -4.0, -0.5]);
        let (c, mut q, mut g) = ([2.0, 1.0, 0.5], [0.0; 3], [0.0; 4]);
        let cqq = x.gram_mul_vec_rows(&rows, &c, &v, &mut q, &mut g, &mut spare);
        let mut cq = [0.0; 3];
        x.mul_vec_rows(&rows, &v, &mut cq);
        assert_eq!(q, cq);
        let vg: f64 = v.iter().zip(&g).map(|(a, b)| a * b).sum();
        assert!((cqq - vg).abs() < 1e-12 && cqq > 0.0, "{cqq} against {vg}");
        // The complement of rows {1, 2}: row 0 only.
        let mut o = [7.0; 3];
        x.mul_vec_other_rows(&[1, 2], &v, &mut o);
        assert_eq!(o, [dense.row(0).dot(&Array1::from(v.to_vec())), 7.0, 7.0]);
        let weighted: Vec<f64> = q.iter().zip(&c).map(|(a, b)| a * b).collect();
        x.t_mul_vec_rows(&rows, &weighted, &mut t, &mut spare);
        assert_eq!(g, t);
        // An empty subset gives zeros.
        x.gram_mul_vec_rows(&[], &[], &v, &mut [], &mut g, &mut spare);
        x.t_mul_vec_rows(&[], &[], &mut t, &mut spare);
        assert_eq!((g, t), ([0.0; 4], [0.0; 4]));
    }

    /// A design of `n` random rows: the chunked mat-vecs are bit-identical inside pools of 1
    /// and 2 threads, and agree with the dense product.
    #[test]
    fn chunked_mat_vecs_do_not_depend_on_the_number_of_threads() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let (n, d) = (3 * CHUNK_ROWS + 17, 40);
        let (mut indptr, mut indices, mut values) = (vec![0], Vec::new(), Vec::new());
        for _ in 0..n {
            for j in 0..d {
                if rng.random_bool(0.2) {
                    indices.push(j as u32);
                    values.push(rng.random_range(-1.0..1.0));
                }
            }
            indptr.push(indices.len());
        }
        let f = Features::Sparse(Csr::new(d, indptr, indices, values).unwrap());
        let x = with_bias(&[&f]).unwrap();
        let rows: Vec<u32> = (0..n as u32).filter(|i| i % 5 != 1).collect();
        let c: Vec<f64> = rows.iter().map(|_| rng.random_range(0.0..2.0)).collect();
        let v: Vec<f64> = (0..=d).map(|_| rng.random_range(-1.0..1.0)).collect();
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| {
                let (mut q, mut g, mut t, mut o, mut spare) = (
                    vec![0.0; rows.len()],
                    vec![0.0; d + 1],
                    vec![0.0; d + 1],
                    vec![0.0; n],
                    Vec::new(),
                );
                let cqq = x.gram_mul_vec_rows(&rows, &c, &v, &mut q, &mut g, &mut spare);
                x.t_mul_vec_rows(&rows, &c, &mut t, &mut spare);
                x.mul_vec(&v, &mut o);
                let mut other = vec![0.0; n];
                x.mul_vec_other_rows(&rows, &v, &mut other);
                // The complement's outputs are those of the full product.
                let skipped = |i: usize| rows.binary_search(&(i as u32)).is_ok();
                assert!((0..n).all(|i| skipped(i) || other[i] == o[i]));
                (q, g, t, o, cqq.to_bits())
            })
        };
        let one = run(1);
        assert_eq!(one, run(2));
        let dense = x.to_dense();
        let rows: Vec<usize> = rows.iter().map(|&i| i as usize).collect();
        let sub = dense.select(ndarray::Axis(0), &rows);
        let expect = sub.t().dot(&(&Array1::from(c.clone()) * &sub.dot(&Array1::from(v.clone()))));
        assert!(one.1.iter().zip(&expect).all(|(a, b)| (a - b).abs() < 1e-9));
        assert!(one.3.iter().zip(&dense.dot(&Array1::from(v))).all(|(a, b)| (a - b).abs() < 1e-12));
    }
}
