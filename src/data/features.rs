//! Feature matrices, dense or sparse: one row per sample either way.

use std::borrow::Cow;

use ndarray::{Array2, Axis, concatenate};

use super::Csr;
use crate::error::{Error, Result};

/// A feature matrix: dense (row-major ndarray) or sparse (CSR).
#[derive(Debug, Clone, PartialEq)]
pub enum Features {
    Dense(Array2<f64>),
    Sparse(Csr),
}

impl Features {
    /// Number of rows (samples).
    pub fn nrows(&self) -> usize {
        match self {
            Features::Dense(x) => x.nrows(),
            Features::Sparse(x) => x.nrows(),
        }
    }

    /// Number of columns (features).
    pub fn ncols(&self) -> usize {
        match self {
            Features::Dense(x) => x.ncols(),
            Features::Sparse(x) => x.ncols(),
        }
    }

    /// The rows `rows`, in that order, in the same storage.
    pub fn select_rows(&self, rows: &[usize]) -> Features {
        match self {
            Features::Dense(x) => Features::Dense(x.select(Axis(0), rows)),
            Features::Sparse(x) => Features::Sparse(x.select_rows(rows)),
        }
    }

    /// The rows of `blocks` one under the other (each `n_cols` wide): sparse when every
    /// block is, dense otherwise.
    pub fn stack(blocks: &[&Features], n_cols: usize) -> Result<Features> {
        let sparse: Vec<&Csr> = blocks
            .iter()
            .filter_map(|b| if let Features::Sparse(c) = b { Some(c) } else { None })
            .collect();
        if sparse.len() == blocks.len() {
            return Csr::vstack(n_cols, &sparse).map(Features::Sparse);
        }
        let dense: Vec<_> = blocks.iter().map(|b| b.to_dense()).collect();
        let views: Vec<_> = dense.iter().map(|d| d.view()).collect();
        concatenate(Axis(0), &views)
            .map(Features::Dense)
            .map_err(|e| Error::Data(format!("cannot stack rows under {n_cols} columns: {e}")))
    }

    /// A dense view: borrowed when already dense, densified otherwise (for the dense methods).
    pub fn to_dense(&self) -> Cow<'_, Array2<f64>> {
        match self {
            Features::Dense(x) => Cow::Borrowed(x),
            Features::Sparse(x) => Cow::Owned(x.to_dense()),
        }
    }
}

impl From<Array2<f64>> for Features {
    fn from(x: Array2<f64>) -> Self {
        Features::Dense(x)
    }
}
