//! Compressed sparse row matrices: the storage of sparse datasets, with mat-vecs linear in
//! the number of non-zeros.

use ndarray::{Array2, ArrayView1, ArrayViewMut1};

use crate::error::{Error, Result};

/// A CSR matrix: row `i` holds `indices[indptr[i]..indptr[i+1]]` (strictly increasing
/// column indices) with `values` alongside.
#[derive(Debug, Clone, PartialEq)]
pub struct Csr {
    n_cols: usize,
    indptr: Vec<usize>,
    indices: Vec<u32>,
    values: Vec<f64>,
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
        let bad = |m: String| Err(Error::Data(format!("invalid CSR matrix: {m}")));
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
            if row.windows(2).any(|p| p[0] >= p[1]) {
                return bad(format!("column indices of row {i} are not strictly increasing"));
            }
            if row.last().is_some_and(|&c| c as usize >= n_cols) {
                return bad(format!("row {i} has a column index ≥ {n_cols}"));
            }
        }
        if let Some(p) = values.iter().position(|v| !v.is_finite()) {
            return bad(format!("non-finite value at position {p}"));
        }
        Ok(Csr { n_cols, indptr, indices, values })
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.indptr.len() - 1
    }

    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.n_cols
    }

    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.values.len()
    }

    /// Column indices and values of row `i`.
    pub fn row(&self, i: usize) -> (&[u32], &[f64]) {
        let r = self.indptr[i]..self.indptr[i + 1];
        (&self.indices[r.clone()], &self.values[r])
    }

    /// `out = A v` (`out` has one entry per row).
    pub fn mul_vec(&self, v: ArrayView1<f64>, mut out: ArrayViewMut1<f64>) {
        for (i, o) in out.iter_mut().enumerate() {
            let (idx, val) = self.row(i);
            *o = idx.iter().zip(val).map(|(&j, &x)| x * v[j as usize]).sum();
        }
    }

    /// The rows `rows` (in that order) as a new matrix.
    pub fn select_rows(&self, rows: &[usize]) -> Csr {
        let mut indptr = Vec::with_capacity(rows.len() + 1);
        indptr.push(0);
        let (mut indices, mut values) = (Vec::new(), Vec::new());
        for &r in rows {
            let (idx, val) = self.row(r);
            indices.extend_from_slice(idx);
            values.extend_from_slice(val);
            indptr.push(indices.len());
        }
        Csr { n_cols: self.n_cols, indptr, indices, values }
    }

    /// Rows `..at` and rows `at..` of the matrix it consumes: the larger part keeps the
    /// storage in place and only the smaller one is copied.
    pub fn split_rows(mut self, at: usize) -> (Csr, Csr) {
        let at = at.min(self.nrows());
        let cut = self.indptr[at];
        if 2 * at <= self.nrows() {
            let head = Csr {
                n_cols: self.n_cols,
                indptr: self.indptr[..=at].to_vec(),
                indices: self.indices[..cut].to_vec(),
                values: self.values[..cut].to_vec(),
            };
            self.indices.drain(..cut);
            self.values.drain(..cut);
            self.indptr.drain(..at);
            self.indptr.iter_mut().for_each(|p| *p -= cut);
            (head, self)
        } else {
            let indptr = self.indptr[at..].iter().map(|p| p - cut).collect();
            let tail = Csr {
                n_cols: self.n_cols,
                indptr,
                indices: self.indices[cut..].to_vec(),
                values: self.values[cut..].to_vec(),
            };
            self.indptr.truncate(at + 1);
            self.indices.truncate(cut);
            self.values.truncate(cut);
            (self, tail)
        }
    }

    /// The rows of `blocks` stacked in order; all blocks must have `n_cols` columns.
    pub fn vstack(n_cols: usize, blocks: &[&Csr]) -> Result<Csr> {
        if let Some(b) = blocks.iter().find(|b| b.n_cols != n_cols) {
            return Err(Error::Data(format!(
                "cannot stack a {}-column block under {n_cols} columns",
                b.n_cols
            )));
        }
        let mut indptr = vec![0];
        let (mut indices, mut values) = (Vec::new(), Vec::new());
        for b in blocks {
            indptr.extend(b.indptr[1..].iter().map(|p| p + indices.len()));
            indices.extend_from_slice(&b.indices);
            values.extend_from_slice(&b.values);
        }
        Ok(Csr { n_cols, indptr, indices, values })
    }

    /// Bytes held by the three arrays (at their lengths): the CSR size of the matrix.
    pub fn size_bytes(&self) -> usize {
        use std::mem::size_of;
        self.indptr.len() * size_of::<usize>()
            + self.indices.len() * size_of::<u32>()
            + self.values.len() * size_of::<f64>()
    }

    /// Applies `f(column, value)` to every stored value (the structure is unchanged).
    pub fn map_values(&mut self, mut f: impl FnMut(usize, usize, f64) -> f64) {
        for i in 0..self.nrows() {
            for k in self.indptr[i]..self.indptr[i + 1] {
                self.values[k] = f(i, self.indices[k] as usize, self.values[k]);
            }
        }
    }

    /// The first `n` columns (all when there are fewer).
    pub fn first_columns(&self, n: usize) -> Csr {
        let n_cols = n.min(self.n_cols);
        let mut indptr = Vec::with_capacity(self.indptr.len());
        indptr.push(0);
        let (mut indices, mut values) = (Vec::new(), Vec::new());
        for i in 0..self.nrows() {
            let (idx, val) = self.row(i);
            let keep = idx.partition_point(|&j| (j as usize) < n_cols);
            indices.extend_from_slice(&idx[..keep]);
            values.extend_from_slice(&val[..keep]);
            indptr.push(indices.len());
        }
        Csr { n_cols, indptr, indices, values }
    }

    /// A dense copy.
    pub fn to_dense(&self) -> Array2<f64> {
        let mut out = Array2::zeros((self.nrows(), self.n_cols));
        for i in 0..self.nrows() {
            let (idx, val) = self.row(i);
            for (&j, &x) in idx.iter().zip(val) {
                out[[i, j as usize]] = x;
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
    fn malformed_structure_is_rejected() {
        assert!(Csr::new(3, vec![0, 2], vec![2, 0], vec![1.0, 1.0]).is_err());
        assert!(Csr::new(2, vec![0, 1], vec![2], vec![1.0]).is_err());
        assert!(Csr::new(3, vec![0, 1], vec![0], vec![f64::NAN]).is_err());
        assert!(Csr::new(3, vec![1, 1], vec![0], vec![1.0]).is_err());
    }
}
