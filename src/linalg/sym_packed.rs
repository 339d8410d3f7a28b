//! A symmetric matrix kept as the 8 × 8 tiles of its lower triangle, and its products with
//! vectors and matrices bit for bit as faer computes them from the full matrix: half the
//! bytes streamed per product (the smoother of a graph method, one product per step).

use faer::linalg::matmul::matmul;
use faer::{Accum, ColMut, ColRef, Mat, MatMut, MatRef, Par};
#[cfg(target_arch = "x86_64")]
use rayon::prelude::*;

/// Tile side: eight f64 fill an AVX-512 register.
const T: usize = 8;
/// The smallest N whose tiles are built by several threads.
#[cfg(target_arch = "x86_64")]
const PARALLEL_DIM: usize = 512;

/// An exactly symmetric N × N matrix for repeated products with vectors: with AVX-512, its
/// lower tiles (I, J), J ≤ I, row by row of tiles, tile entries (r, c) = A[8I + r, 8J + c]
/// row-major and zero outside N × N; else the matrix itself.
#[derive(Debug, Clone)]
pub struct SymPacked<'a> {
    n: usize,
    form: Form<'a>,
}

/// How a [`SymPacked`] holds its matrix.
#[derive(Debug, Clone)]
enum Form<'a> {
    /// The lower tiles (AVX-512).
    #[cfg(target_arch = "x86_64")]
    Tiles(Vec<f64>),
    /// The caller's matrix, for faer's product.
    Borrowed(MatRef<'a, f64>),
    /// A sum formed here, for faer's product.
    Owned(Mat<f64>),
}

impl<'a> SymPacked<'a> {
    /// Prepares `a` (exactly symmetric: the tiles are read from its lower triangle).
    pub fn new(a: MatRef<'a, f64>) -> Self {
        assert_eq!(a.ncols(), a.nrows(), "a square matrix");
        #[cfg(target_arch = "x86_64")]
        if super::simd::level() >= super::Level::Avx512 {
            return SymPacked { n: a.nrows(), form: Form::Tiles(tiles(a, None)) };
        }
        SymPacked { n: a.nrows(), form: Form::Borrowed(a) }
    }

    /// Prepares A + B (both exactly symmetric, of one size), entry by entry a_ij + b_ij as
    /// faer's sum forms it, without forming the sum when the tiles are used.
    pub fn sum(a: MatRef<'a, f64>, b: MatRef<'a, f64>) -> Self {
        assert!(a.ncols() == a.nrows() && b.nrows() == a.nrows() && b.ncols() == a.nrows());
        #[cfg(target_arch = "x86_64")]
        if super::simd::level() >= super::Level::Avx512 {
            return SymPacked { n: a.nrows(), form: Form::Tiles(tiles(a, Some(b))) };
        }
        SymPacked { n: a.nrows(), form: Form::Owned(a + b) }
    }

    /// N.
    pub fn dim(&self) -> usize {
        self.n
    }

    /// The matrix for faer's product, when there are no tiles.
    fn matrix(&self) -> Option<MatRef<'_, f64>> {
        match &self.form {
            #[cfg(target_arch = "x86_64")]
            Form::Tiles(_) => None,
            Form::Borrowed(a) => Some(*a),
            Form::Owned(a) => Some(a.as_ref()),
        }
    }

    /// `out` = A x with the bits of faer's product of the column-major A: each out_i starts
    /// at +0 and adds A_ij x_j for j = 0, 1, … by fused multiply-adds (from the tiles with
    /// AVX-512, else faer's sequential product itself). Panics unless the lengths are N.
    pub fn mul_vec(&self, x: &[f64], out: &mut [f64]) {
        let n = self.n;
        assert!(x.len() == n && out.len() == n);
        #[cfg(target_arch = "x86_64")]
        if let Form::Tiles(tiles) = &self.form {
            // SAFETY: tiles are built only when the CPU has AVX-512F.
            unsafe { avx512::product(tiles, n, [x], usize::MAX, [out]) };
            return;
        }
        let a = self.matrix().expect("no tiles");
        let (x, y) = (ColRef::from_slice(x).as_mat(), ColMut::from_slice_mut(out).as_mat_mut());
        matmul(y, Accum::Replace, a, x, 1.0, Par::Seq);
    }

    /// `out` = A T with the bits of faer's product `A * T` for T of two or more columns
    /// (its matrix product sums each entry's fused multiply-adds in blocks of
    /// [`GEMM_DEPTH`] steps, each from +0, and adds the blocks' sums in order). Panics
    /// unless T and `out` are N × c, c ≥ 2, with contiguous columns.
    pub fn mul_mat(&self, t: MatRef<'_, f64>, mut out: MatMut<'_, f64>) {
        let n = self.n;
        assert!(t.nrows() == n && out.nrows() == n && t.ncols() == out.ncols() && t.ncols() >= 2);
        #[cfg(target_arch = "x86_64")]
        if let Form::Tiles(tiles) = &self.form {
            let block = GEMM_DEPTH / T;
            for c0 in (0..t.ncols()).step_by(4) {
                let cols = 4.min(t.ncols() - c0);
                let x: Vec<&[f64]> = (c0..c0 + cols)
                    .map(|c| t.col(c).try_as_col_major().expect("contiguous columns").as_slice())
                    .collect();
                let mut y: Vec<&mut [f64]> = out
                    .as_mut()
                    .subcols_mut(c0, cols)
                    .col_iter_mut()
                    .map(|c| c.try_as_col_major_mut().expect("contiguous columns").as_slice_mut())
                    .collect();
                // SAFETY: tiles are built only when the CPU has AVX-512F.
                unsafe {
                    match cols {
                        4 => avx512::product::<4>(tiles, n, arr(&x), block, arr_mut(&mut y)),
                        3 => avx512::product::<3>(tiles, n, arr(&x), block, arr_mut(&mut y)),
                        2 => avx512::product::<2>(tiles, n, arr(&x), block, arr_mut(&mut y)),
                        _ => avx512::product::<1>(tiles, n, arr(&x), block, arr_mut(&mut y)),
                    }
                }
            }
            return;
        }
        out.copy_from(self.matrix().expect("no tiles") * t);
    }
}

/// Steps per block of faer's matrix product (private-gemm-x86's `kc`, 512 for every type
/// and CPU in faer 0.24).
pub const GEMM_DEPTH: usize = 512;

/// The first C slices as an array.
fn arr<'s, const C: usize>(v: &[&'s [f64]]) -> [&'s [f64]; C] {
    std::array::from_fn(|c| v[c])
}

/// The first C mutable slices as an array.
fn arr_mut<'v, const C: usize>(v: &'v mut [&mut [f64]]) -> [&'v mut [f64]; C] {
    let mut it = v.iter_mut();
    std::array::from_fn(|_| &mut **it.next().expect("C slices"))
}

/// The lower tiles of A, or of A + B (entries a_ij + b_ij), a diagonal tile's upper half
/// mirrored from its lower half; rows of tiles shared among threads from [`PARALLEL_DIM`]
/// on (copies and sums of two numbers: the same values at any thread count).
#[cfg(target_arch = "x86_64")]
fn tiles(a: MatRef<'_, f64>, b: Option<MatRef<'_, f64>>) -> Vec<f64> {
    let n = a.nrows();
    let blocks = n.div_ceil(T);
    let mut tiles = vec![0.0; blocks * (blocks + 1) / 2 * T * T];
    // Row of tiles I holds tiles (I, 0..=I), one after the other.
    let mut rows = Vec::with_capacity(blocks);
    let mut rest = tiles.as_mut_slice();
    for bi in 0..blocks {
        let (row, tail) = rest.split_at_mut((bi + 1) * T * T);
        rows.push((bi, row));
        rest = tail;
    }
    // Entry (i, j) from the lower triangle: (j, i) above the diagonal.
    let entry = |i: usize, j: usize| {
        let (i, j) = (i.max(j), i.min(j));
        let value = |m: MatRef<'_, f64>| match m.col(j).try_as_col_major() {
            Some(col) => col.as_slice()[i],
            None => m[(i, j)],
        };
        b.map_or(value(a), |b| value(a) + value(b))
    };
    let fill = |(bi, row): (usize, &mut [f64])| {
        for (bj, tile) in row.chunks_exact_mut(T * T).enumerate() {
            for c in (0..T).filter(|c| bj * T + c < n) {
                for r in (0..T).filter(|r| bi * T + r < n) {
                    tile[r * T + c] = entry(bi * T + r, bj * T + c);
                }
            }
        }
    };
    if n >= PARALLEL_DIM && rayon::current_num_threads() > 1 {
        rows.into_par_iter().with_min_len(8).for_each(fill);
    } else {
        rows.into_iter().for_each(fill);
    }
    tiles
}

/// Offset of tile (I, J), J ≤ I, in the row-by-row order.
fn tile_start(bi: usize, bj: usize) -> usize {
    (bi * (bi + 1) / 2 + bj) * T * T
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::_mm512_permutex2var_pd;
    use std::arch::x86_64::{__m512d, _mm512_add_pd, _mm512_fmadd_pd, _mm512_loadu_pd};
    use std::arch::x86_64::{_mm512_set_epi64, _mm512_set1_pd, _mm512_setzero_pd};
    use std::arch::x86_64::{_mm512_storeu_pd, _mm512_unpackhi_pd, _mm512_unpacklo_pd};

    use super::{T, tile_start};

    /// One chain of C entries (a block of 8 rows, C columns): the running sum of the current
    /// step block and the sum of the finished ones (`None` before the first ends).
    #[derive(Clone, Copy)]
    struct Chain<const C: usize> {
        acc: [__m512d; C],
        done: Option<[__m512d; C]>,
    }

    impl<const C: usize> Chain<C> {
        #[target_feature(enable = "avx512f")]
        fn new() -> Self {
            Chain { acc: [_mm512_setzero_pd(); C], done: None }
        }

        /// Ends a step block: its sum joins the finished ones and the next starts at +0.
        #[target_feature(enable = "avx512f")]
        fn end_block(&mut self) {
            let acc = self.acc;
            self.done = Some(match self.done {
                None => acc,
                Some(done) => std::array::from_fn(|c| _mm512_add_pd(done[c], acc[c])),
            });
            self.acc = [_mm512_setzero_pd(); C];
        }
    }

    /// Tiles in row order. Tile (I, J < I) serves two chains: rows of block J take its rows
    /// as steps j = 8I + r (their chains have reached 8I: blocks J+1 … I−1 came in earlier
    /// rows of tiles), and rows of block I its columns (transposed in registers) as steps
    /// 8J + c. Block I's own chain starts at the row's first tile and ends with the
    /// diagonal tile, whose column c is its row c by symmetry. A chain's steps go in blocks
    /// of `block` tiles (8·`block` steps), each summed from +0, the sums added in order.
    #[target_feature(enable = "avx512f")]
    pub(super) fn product<const C: usize>(
        tiles: &[f64],
        n: usize,
        x: [&[f64]; C],
        block: usize,
        out: [&mut [f64]; C],
    ) {
        let blocks = n.div_ceil(T);
        let mut xs = vec![[0.0; C]; blocks * T];
        for (i, xi) in xs[..n].iter_mut().enumerate() {
            (0..C).for_each(|c| xi[c] = x[c][i]);
        }
        let mut chains = vec![Chain::<C>::new(); blocks];
        for bi in 0..blocks {
            let steps_i = T.min(n - bi * T);
            let xi = &xs[bi * T..(bi + 1) * T];
            let mut own = Chain::<C>::new();
            for bj in 0..bi {
                if bj > 0 && bj % block == 0 {
                    own.end_block();
                }
                let tile = &tiles[tile_start(bi, bj)..][..T * T];
                // SAFETY: the tile holds T rows of T values.
                let rows: [__m512d; T] =
                    std::array::from_fn(|r| unsafe { _mm512_loadu_pd(tile.as_ptr().add(r * T)) });
                let other = &mut chains[bj];
                if bi % block == 0 {
                    other.end_block();
                }
                for r in 0..steps_i {
                    for c in 0..C {
                        let x = _mm512_set1_pd(xi[r][c]);
                        other.acc[c] = _mm512_fmadd_pd(rows[r], x, other.acc[c]);
                    }
                }
                let cols = transpose(rows);
                let xj = &xs[bj * T..(bj + 1) * T];
                for (col, xj) in cols.iter().zip(xj) {
                    for c in 0..C {
                        own.acc[c] = _mm512_fmadd_pd(*col, _mm512_set1_pd(xj[c]), own.acc[c]);
                    }
                }
            }
            if bi > 0 && bi % block == 0 {
                own.end_block();
            }
            let tile = &tiles[tile_start(bi, bi)..][..T * T];
            for (k, xk) in xi.iter().enumerate().take(steps_i) {
                // SAFETY: the tile holds T rows of T values.
                let col = unsafe { _mm512_loadu_pd(tile.as_ptr().add(k * T)) };
                for c in 0..C {
                    own.acc[c] = _mm512_fmadd_pd(col, _mm512_set1_pd(xk[c]), own.acc[c]);
                }
            }
            chains[bi] = own;
        }
        let mut sums = [0.0; T];
        for (bi, chain) in chains.iter_mut().enumerate() {
            chain.end_block();
            let done = chain.done.expect("a block ended");
            let rows = bi * T..(bi * T + T).min(n);
            for c in 0..C {
                // SAFETY: `sums` holds T values.
                unsafe { _mm512_storeu_pd(sums.as_mut_ptr(), done[c]) };
                out[c][rows.clone()].copy_from_slice(&sums[..rows.len()]);
            }
        }
    }

    /// The columns of the 8 × 8 tile whose rows are `t`.
    #[target_feature(enable = "avx512f")]
    fn transpose(t: [__m512d; T]) -> [__m512d; T] {
        // Pairs: p[2k] = (t[2k]_0, t[2k+1]_0, t[2k]_2, t[2k+1]_2, …), p[2k+1] the odd entries.
        let p: [__m512d; T] = std::array::from_fn(|k| match k % 2 {
            0 => _mm512_unpacklo_pd(t[k], t[k + 1]),
            _ => _mm512_unpackhi_pd(t[k - 1], t[k]),
        });
        // Quads: entries c and c + 4 of four rows.
        let (even, odd) = (
            _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0),
            _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2),
        );
        let q = [
            _mm512_permutex2var_pd(p[0], even, p[2]), // c = 0, 4 of rows 0-3
            _mm512_permutex2var_pd(p[1], even, p[3]), // c = 1, 5
            _mm512_permutex2var_pd(p[0], odd, p[2]),  // c = 2, 6
            _mm512_permutex2var_pd(p[1], odd, p[3]),  // c = 3, 7
            _mm512_permutex2var_pd(p[4], even, p[6]), // c = 0, 4 of rows 4-7
            _mm512_permutex2var_pd(p[5], even, p[7]),
            _mm512_permutex2var_pd(p[4], odd, p[6]),
            _mm512_permutex2var_pd(p[5], odd, p[7]),
        ];
        let (low, high) = (
            _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0),
            _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4),
        );
        std::array::from_fn(|c| {
            let (k, half) = (c % 4, if c < 4 { low } else { high });
            _mm512_permutex2var_pd(q[k], half, q[k + 4])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::mat_vec;
    use faer::Mat;

    #[test]
    fn products_have_the_bits_of_the_full_column_major_product() {
        // Sizes around the tile: partial first and last tiles, one and several rows of tiles.
        for n in [1, 3, 7, 8, 9, 16, 21, 40, 67] {
            let b = Mat::from_fn(n, n, |i, j| ((i * 7 + j * 3) as f64 * 0.31).sin() * 1e3);
            let a = Mat::from_fn(n, n, |i, j| 0.5 * (b[(i, j)] + b[(j, i)]));
            let x: Vec<f64> = (0..n).map(|i| ((i * 5) as f64 * 0.7).cos() - 0.1).collect();
            let (mut got, mut want) = (vec![0.0; n], vec![0.0; n]);
            SymPacked::new(a.as_ref()).mul_vec(&x, &mut got);
            mat_vec(a.as_ref(), &x, &mut want);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&got), bits(&want), "n = {n}");
        }
    }

    #[test]
    fn matrix_products_have_the_bits_of_faers_product() {
        // Depths across several blocks of GEMM_DEPTH steps (1,100 rows: two full blocks and
        // a partial one), with 2 to 6 columns (groups of four and a remainder).
        for (n, cols) in [(1100, 4), (1029, 6), (600, 2), (37, 3)] {
            let a = Mat::from_fn(n, n, |i, j| {
                (((i * j) % 97) as f64 * 0.013 + (i + j) as f64 * 1e-4).sin()
            });
            let t = Mat::from_fn(n, cols, |i, c| ((i * 3 + c) as f64 * 0.7).cos());
            let mut got = Mat::zeros(n, cols);
            SymPacked::new(a.as_ref()).mul_mat(t.as_ref(), got.as_mut());
            let want = &a * &t;
            for c in 0..cols {
                for i in 0..n {
                    assert_eq!(
                        got[(i, c)].to_bits(),
                        want[(i, c)].to_bits(),
                        "n = {n}, ({i}, {c})"
                    );
                }
            }
        }
    }
}
