//! Column indices of a [`Csr`](super::Csr) matrix's stored entries: two bytes each when the
//! matrix has at most [`NARROW_COLUMNS`] columns, four otherwise. The width follows from the
//! number of columns alone, so matrices of equal width store their indices alike and the
//! mat-vec loops are compiled once per index type ([`Column`]).

use std::sync::Arc;

/// Matrices of at most this many columns store their column indices as u16.
pub const NARROW_COLUMNS: usize = 1 << 16;

/// A type of stored column index (u16 or u32).
pub trait Column: Copy + Send + Sync + 'static {
    /// The index.
    fn at(self) -> usize;
    /// Index `j` (below 2¹⁶ for u16: callers check the width first).
    fn from_u32(j: u32) -> Self;
    /// The indices of `stored` when they are of this type.
    fn stored(stored: &Indices) -> Option<&[Self]>;
    /// The indices stored for a matrix of `n_cols` columns (a copy only when the width changes).
    fn store(indices: Vec<Self>, n_cols: usize) -> Indices;
}

impl Column for u16 {
    #[inline(always)]
    fn at(self) -> usize {
        self as usize
    }

    #[inline(always)]
    fn from_u32(j: u32) -> Self {
        j as u16
    }

    #[inline(always)]
    fn stored(stored: &Indices) -> Option<&[Self]> {
        match stored {
            Indices::Narrow(v) => Some(v),
            Indices::Wide(_) => None,
        }
    }

    fn store(indices: Vec<Self>, n_cols: usize) -> Indices {
        match n_cols <= NARROW_COLUMNS {
            true => Indices::Narrow(Arc::new(indices)),
            false => Indices::Wide(Arc::new(indices.into_iter().map(u32::from).collect())),
        }
    }
}

impl Column for u32 {
    #[inline(always)]
    fn at(self) -> usize {
        self as usize
    }

    #[inline(always)]
    fn from_u32(j: u32) -> Self {
        j
    }

    #[inline(always)]
    fn stored(stored: &Indices) -> Option<&[Self]> {
        match stored {
            Indices::Wide(v) => Some(v),
            Indices::Narrow(_) => None,
        }
    }

    fn store(indices: Vec<Self>, n_cols: usize) -> Indices {
        match n_cols <= NARROW_COLUMNS {
            // Indices are below n_cols ≤ 2¹⁶, so they fit.
            true => Indices::Narrow(Arc::new(indices.into_iter().map(|j| j as u16).collect())),
            false => Indices::Wide(Arc::new(indices)),
        }
    }
}

/// The column indices of a matrix's storage (shared by the matrices selected from it).
#[derive(Debug, Clone)]
pub enum Indices {
    Narrow(Arc<Vec<u16>>),
    Wide(Arc<Vec<u32>>),
}

impl Indices {
    /// Number of stored indices.
    pub fn len(&self) -> usize {
        match self {
            Indices::Narrow(v) => v.len(),
            Indices::Wide(v) => v.len(),
        }
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Indices `a..b`.
    #[inline(always)]
    pub fn slice(&self, a: usize, b: usize) -> Cols<'_> {
        match self {
            Indices::Narrow(v) => Cols::Narrow(&v[a..b]),
            Indices::Wide(v) => Cols::Wide(&v[a..b]),
        }
    }

    /// Whether both are the same shared storage.
    pub fn ptr_eq(&self, other: &Indices) -> bool {
        match (self, other) {
            (Indices::Narrow(a), Indices::Narrow(b)) => Arc::ptr_eq(a, b),
            (Indices::Wide(a), Indices::Wide(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// Bytes per index.
    pub fn width(&self) -> usize {
        match self {
            Indices::Narrow(_) => 2,
            Indices::Wide(_) => 4,
        }
    }
}

/// The column indices of one row, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cols<'a> {
    Narrow(&'a [u16]),
    Wide(&'a [u32]),
}

impl<'a> Cols<'a> {
    /// Number of indices.
    pub fn len(&self) -> usize {
        match self {
            Cols::Narrow(v) => v.len(),
            Cols::Wide(v) => v.len(),
        }
    }

    /// True for a row without entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Index `k`.
    #[inline]
    pub fn get(&self, k: usize) -> usize {
        match self {
            Cols::Narrow(v) => v[k] as usize,
            Cols::Wide(v) => v[k] as usize,
        }
    }

    /// The indices in order.
    pub fn iter(self) -> impl Iterator<Item = usize> + 'a {
        (0..self.len()).map(move |k| self.get(k))
    }

    /// The indices below `n` (a prefix: indices increase within a row).
    pub fn below(self, n: usize) -> Cols<'a> {
        match self {
            Cols::Narrow(v) => Cols::Narrow(&v[..v.partition_point(|&j| (j as usize) < n)]),
            Cols::Wide(v) => Cols::Wide(&v[..v.partition_point(|&j| (j as usize) < n)]),
        }
    }
}
