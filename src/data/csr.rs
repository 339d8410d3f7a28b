//! Compressed sparse row matrices: the storage of sparse datasets, with mat-vecs linear in
//! the number of non-zeros. Row selections share the stored entries of the matrix they
//! come from (a split of a dataset costs one u32 per row, not a copy of its entries).
//! Column indices take two bytes each up to 65,536 columns ([`Indices`]).

use std::sync::Arc;

use super::columns::{Cols, Column, Indices};

use ndarray::{Array2, ArrayView1, ArrayViewMut1};

use crate::error::{Error, Result};

/// A CSR matrix: row `i` is row `r = rows[i]` of the storage, the column indices
/// `indices[indptr[r]..indptr[r + 1]]` (strictly increasing; u16 up to 65,536 columns, else
/// u32) with `values` alongside; the storage may be shared with the matrices the rows were
/// selected from or into.
#[derive(Debug, Clone)]
pub struct Csr {
    n_cols: usize,
    rows: Vec<u32>,
    nnz: usize,
    indptr: Arc<Vec<usize>>,
    indices: Indices,
    values: Arc<Vec<f64>>,
}

impl PartialEq for Csr {
    /// Equal shapes and equal rows, however the entries are stored.
    fn eq(&self, other: &Self) -> bool {
        self.n_cols == other.n_cols
            && self.nrows() == other.nrows()
            && (0..self.nrows()).all(|i| self.row(i) == other.row(i))
    }
}

impl Csr {
    /// Checks the structure: `indptr` starts at 0 and is nondecreasing up to `indices.len()`,
    /// column indices are strictly increasing within a row and below `n_cols`, values finite.
    pub fn new(
        n_cols: usize,
        indptr: Vec<usize>,
        indices: Vec<u32>,
        values: Vec<f64>,
    ) -> Result<Self> {
        Csr::with_indices(n_cols, indptr, indices, values)
    }

    /// [`Csr::new`] from indices of either type (stored at the width `n_cols` calls for).
    pub fn with_indices<I: Column>(
        n_cols: usize,
        indptr: Vec<usize>,
        indices: Vec<I>,
        values: Vec<f64>,
    ) -> Result<Self> {
        let bad = |m: String| Err(Error::Data(format!("invalid CSR matrix: {m}")));
        if indptr.len() > u32::MAX as usize {
            return bad(format!("{} rows (at most 2³² − 1)", indptr.len() - 1));
        }
        if indptr.first() != Some(&0)
            || indptr.last() != Some(&indices.len())
            || indices.len() != values.len()
        {
            return bad(format!(
                "indptr must run from 0 to nnz = {} (values: {})",
                indices.len(),
                values.len()
            ));
        }
        for (i, w) in indptr.windows(2).enumerate() {
            if w[0] > w[1] {
                return bad(format!("indptr decreases at row {i}"));
            }
            let row = &indices[w[0]..w[1]];
            if row.windows(2).any(|p| p[0].at() >= p[1].at()) {
                return bad(format!("column indices of row {i} are not strictly increasing"));
            }
            if row.last().is_some_and(|&c| c.at() >= n_cols) {
                return bad(format!("row {i} has a column index ≥ {n_cols}"));
            }
        }
        if let Some(p) = values.iter().position(|v| !v.is_finite()) {
            return bad(format!("non-finite value at position {p}"));
        }
        Ok(Csr::from_parts(n_cols, indptr, indices, values))
    }

    /// An n_rows × n_cols matrix with no stored entry (its rows share one empty row).
    pub fn zeros(n_rows: usize, n_cols: usize) -> Csr {
        Csr::from_parts::<u32>(n_cols, vec![0, 0], Vec::new(), Vec::new())
            .with_rows(vec![0; n_rows])
    }

    /// The matrix of checked CSR arrays (fewer than 2³² rows).
    fn from_parts<I: Column>(
        n_cols: usize,
        indptr: Vec<usize>,
        indices: Vec<I>,
        values: Vec<f64>,
    ) -> Csr {
        Csr {
            n_cols,
            rows: (0..indptr.len() as u32 - 1).collect(),
            nnz: indices.len(),
            indptr: Arc::new(indptr),
            indices: I::store(indices, n_cols),
            values: Arc::new(values),
        }
    }

    /// The same storage with other rows (storage row ids).
    fn with_rows(&self, rows: Vec<u32>) -> Csr {
        let span = |&r: &u32| self.indptr[r as usize + 1] - self.indptr[r as usize];
        Csr {
            n_cols: self.n_cols,
            nnz: rows.iter().map(span).sum(),
            rows,
            indptr: Arc::clone(&self.indptr),
            indices: self.indices.clone(),
            values: Arc::clone(&self.values),
        }
    }

    /// Whether these storage arrays are shared with `other`'s.
    fn same_storage(&self, other: &Csr) -> bool {
        Arc::ptr_eq(&self.indptr, &other.indptr)
            && self.indices.ptr_eq(&other.indices)
            && Arc::ptr_eq(&self.values, &other.values)
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.rows.len()
    }

    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.n_cols
    }

    /// Number of stored entries of its rows.
    pub fn nnz(&self) -> usize {
        self.nnz
    }

    /// Column indices and values of row `i`.
    #[inline(always)]
    pub fn row(&self, i: usize) -> (Cols<'_>, &[f64]) {
        let (a, b) = self.storage_range(i);
        (self.indices.slice(a, b), &self.values[a..b])
    }

    /// Whether the column indices are stored as `I` (u16 up to 65,536 columns, else u32).
    pub fn stores<I: Column>(&self) -> bool {
        I::stored(&self.indices).is_some()
    }

    /// Row `i` with its column indices as `I`, which must be the stored type
    /// ([`Csr::stores`]); for loops compiled once per index type.
    #[inline(always)]
    pub fn row_as<I: Column>(&self, i: usize) -> (&[I], &[f64]) {
        self.entries_as(self.storage_range(i))
    }

    /// Where row `i`'s entries are stored (read back by [`Csr::entries_as`]): passes that visit
    /// the same scattered rows many times look each up once.
    #[inline(always)]
    pub fn storage_range(&self, i: usize) -> (usize, usize) {
        let r = self.rows[i] as usize;
        (self.indptr[r], self.indptr[r + 1])
    }

    /// The stored entries `a..b` (a [`Csr::storage_range`]), column indices as `I`, which must
    /// be the stored type.
    #[inline(always)]
    pub fn entries_as<I: Column>(&self, (a, b): (usize, usize)) -> (&[I], &[f64]) {
        let indices = I::stored(&self.indices).expect("rows read at their stored index type");
        (&indices[a..b], &self.values[a..b])
    }

    /// `out = A v` (`out` has one entry per row).
    pub fn mul_vec(&self, v: ArrayView1<f64>, out: ArrayViewMut1<f64>) {
        match self.indices {
            Indices::Narrow(_) => self.mul_vec_as::<u16>(v, out),
            Indices::Wide(_) => self.mul_vec_as::<u32>(v, out),
        }
    }

    /// [`Csr::mul_vec`] at the stored index type `I`.
    fn mul_vec_as<I: Column>(&self, v: ArrayView1<f64>, mut out: ArrayViewMut1<f64>) {
        for (i, o) in out.iter_mut().enumerate() {
            let (idx, val) = self.row_as::<I>(i);
            *o = idx.iter().zip(val).map(|(&j, &x)| x * v[j.at()]).sum();
        }
    }

    /// The rows `rows` (in that order), sharing this matrix's entries.
    pub fn select_rows(&self, rows: &[usize]) -> Csr {
        self.with_rows(rows.iter().map(|&r| self.rows[r]).collect())
    }

    /// Rows `..at` and rows `at..` of the matrix it consumes, sharing its entries.
    pub fn split_rows(self, at: usize) -> (Csr, Csr) {
        let at = at.min(self.nrows());
        (self.with_rows(self.rows[..at].to_vec()), self.with_rows(self.rows[at..].to_vec()))
    }

    /// The rows of `blocks` stacked in order; all blocks must have `n_cols` columns. Blocks
    /// sharing one storage stay on it; others are copied into a new one.
    pub fn vstack(n_cols: usize, blocks: &[&Csr]) -> Result<Csr> {
        if let Some(b) = blocks.iter().find(|b| b.n_cols != n_cols) {
            return Err(Error::Data(format!(
                "cannot stack a {}-column block under {n_cols} columns",
                b.n_cols
            )));
        }
        if let Some(first) = blocks.first().filter(|f| blocks.iter().all(|b| b.same_storage(f))) {
            return Ok(first.with_rows(blocks.iter().flat_map(|b| b.rows.clone()).collect()));
        }
        let mut indptr = vec![0];
        let (mut indices, mut values) = (Vec::<u32>::new(), Vec::new());
        for b in blocks {
            for i in 0..b.nrows() {
                let (idx, val) = b.row(i);
                indices.extend(idx.iter().map(|j| j as u32));
                values.extend_from_slice(val);
                indptr.push(indices.len());
            }
        }
        if indptr.len() > u32::MAX as usize {
            return Err(Error::Data(format!(
                "{} stacked rows (at most 2³² − 1)",
                indptr.len() - 1
            )));
        }
        Ok(Csr::from_parts(n_cols, indptr, indices, values))
    }

    /// Bytes of the matrix in plain CSR form (row pointers, column indices at the stored
    /// width and values of its rows): its CSR size, whatever it shares.
    pub fn size_bytes(&self) -> usize {
        use std::mem::size_of;
        (self.nrows() + 1) * size_of::<usize>()
            + self.nnz * (self.indices.width() + size_of::<f64>())
    }

    /// Applies `f(row, column, value)` to every stored value (the structure is unchanged);
    /// the matrix first gets storage of its own unless it is the only holder of its entries,
    /// laid out once in row order.
    pub fn map_values(&mut self, mut f: impl FnMut(usize, usize, f64) -> f64) {
        let in_order = self.rows.iter().enumerate().all(|(i, &r)| r as usize == i)
            && self.rows.len() + 1 == self.indptr.len();
        if !in_order || Arc::strong_count(&self.values) > 1 {
            *self = self.first_columns(self.n_cols);
        }
        let values = Arc::make_mut(&mut self.values);
        for (i, w) in self.indptr.windows(2).enumerate() {
            let cols = self.indices.slice(w[0], w[1]);
            for (t, k) in (w[0]..w[1]).enumerate() {
                values[k] = f(i, cols.get(t), values[k]);
            }
        }
    }

    /// The first `n` columns (all when there are fewer), in storage of its own.
    pub fn first_columns(&self, n: usize) -> Csr {
        let n_cols = n.min(self.n_cols);
        let mut indptr = Vec::with_capacity(self.nrows() + 1);
        indptr.push(0);
        let (mut indices, mut values) = (Vec::<u32>::new(), Vec::new());
        for i in 0..self.nrows() {
            let (idx, val) = self.row(i);
            let keep = idx.below(n_cols);
            indices.extend(keep.iter().map(|j| j as u32));
            values.extend_from_slice(&val[..keep.len()]);
            indptr.push(indices.len());
        }
        Csr::from_parts(n_cols, indptr, indices, values)
    }

    /// A dense copy.
    pub fn to_dense(&self) -> Array2<f64> {
        let mut out = Array2::zeros((self.nrows(), self.n_cols));
        for i in 0..self.nrows() {
            let (idx, val) = self.row(i);
            for (j, &x) in idx.iter().zip(val) {
                out[[i, j]] = x;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array1, array};

    fn example() -> Csr {
        // [[1, 0, 2], [0, 0, 0], [0, 3, 0]]
        Csr::new(3, vec![0, 2, 2, 3], vec![0, 2, 1], vec![1.0, 2.0, 3.0]).unwrap()
    }

    #[test]
    fn mat_vecs_match_dense() {
        let a = example();
        let dense = a.to_dense();
        assert_eq!(dense, array![[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [0.0, 3.0, 0.0]]);
        let v = array![1.0, -2.0, 0.5];
        let mut out = Array1::zeros(3);
        a.mul_vec(v.view(), out.view_mut());
        assert_eq!(out, dense.dot(&v));
        assert_eq!(a.select_rows(&[2, 0]).to_dense(), array![[0.0, 3.0, 0.0], [1.0, 0.0, 2.0]]);
        assert_eq!(a.first_columns(2).to_dense(), dense.slice(ndarray::s![.., ..2]));
        assert_eq!(a.first_columns(9), a);
        let stacked = Csr::vstack(3, &[&a, &a.select_rows(&[0])]).unwrap();
        assert_eq!(
            stacked.to_dense(),
            ndarray::concatenate![ndarray::Axis(0), dense, array![[1.0, 0.0, 2.0]]]
        );
        assert!(Csr::vstack(4, &[&a]).is_err());
        for at in 0..=3 {
            let (head, tail) = a.clone().split_rows(at);
            assert_eq!(Csr::vstack(3, &[&head, &tail]).unwrap(), a);
            assert_eq!((head.nrows(), tail.nrows()), (at, 3 - at));
        }
    }

    #[test]
    fn selections_share_the_entries_and_map_values_stays_private() {
        let a = example();
        let picked = a.select_rows(&[2, 0, 2]);
        assert!(Arc::ptr_eq(&picked.values, &a.values));
        assert_eq!(picked.nnz(), 4);
        assert_eq!(picked.size_bytes(), 4 * 8 + 4 * 10);
        assert!(picked.same_storage(&a));
        let (head, tail) = picked.clone().split_rows(1);
        let stacked = Csr::vstack(3, &[&head, &tail]).unwrap();
        assert!(Arc::ptr_eq(&stacked.values, &a.values));
        assert_eq!(stacked, picked);
        // A repeated row is scaled once per copy, and the shared original is untouched.
        let mut scaled = picked.clone();
        scaled.map_values(|_, _, v| 2.0 * v);
        assert_eq!(scaled.to_dense(), 2.0 * picked.to_dense());
        assert_eq!(a, example());
        // The sole holder of its entries in row order is scaled in place.
        let mut own = example();
        let before = Arc::as_ptr(&own.values);
        own.map_values(|i, j, v| v + (10 * i + j) as f64);
        assert!(std::ptr::eq(Arc::as_ptr(&own.values), before));
        assert_eq!(own.to_dense(), array![[1.0, 0.0, 4.0], [0.0, 0.0, 0.0], [0.0, 24.0, 0.0]]);
    }

    #[test]
    fn column_indices_take_two_bytes_up_to_65536_columns() {
        use crate::data::NARROW_COLUMNS;
        let cols = |x: &Csr, i| x.row(i).0.iter().collect::<Vec<_>>();
        let wide = Csr::new(NARROW_COLUMNS + 1, vec![0, 2, 3], vec![0, 65_536, 7], vec![1.0; 3]);
        let wide = wide.unwrap();
        assert!(wide.stores::<u32>() && !wide.stores::<u16>());
        assert_eq!(wide.row_as::<u32>(0).0, [0, 65_536]);
        assert_eq!((cols(&wide, 0), wide.size_bytes()), (vec![0, 65_536], 3 * 8 + 3 * 12));
        // Dropping the last column makes the matrix narrow.
        let narrow = wide.first_columns(NARROW_COLUMNS);
        assert!(narrow.stores::<u16>());
        assert_eq!((cols(&narrow, 0), cols(&narrow, 1)), (vec![0], vec![7]));
        // Indices given at the other width are stored at the width the columns call for.
        let a = Csr::with_indices(NARROW_COLUMNS + 5, vec![0, 1], vec![3u16], vec![1.0]).unwrap();
        let b = Csr::with_indices(4, vec![0, 1], vec![3u16], vec![1.0]).unwrap();
        assert!(a.stores::<u32>() && b.stores::<u16>());
        assert_eq!(b, Csr::new(4, vec![0, 1], vec![3], vec![1.0]).unwrap());
        // Stacking blocks of different storages copies them at the same width.
        let other = Csr::new(4, vec![0, 1], vec![1], vec![2.0]).unwrap();
        let stacked = Csr::vstack(4, &[&b, &other]).unwrap();
        assert!(stacked.stores::<u16>() && !stacked.same_storage(&b));
        assert_eq!((cols(&stacked, 0), cols(&stacked, 1)), (vec![3], vec![1]));
    }

    #[test]
    fn malformed_structure_is_rejected() {
        assert!(Csr::new(3, vec![0, 2], vec![2, 0], vec![1.0, 1.0]).is_err());
        assert!(Csr::new(2, vec![0, 1], vec![2], vec![1.0]).is_err());
        assert!(Csr::new(3, vec![0, 1], vec![0], vec![f64::NAN]).is_err());
        assert!(Csr::new(3, vec![1, 1], vec![0], vec![1.0]).is_err());
    }
}
