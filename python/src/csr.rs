//! CSR matrices from Python (scipy's `indptr`, `indices`, `data`), for fits and for scoring.

use ndarray::ArrayView1;
use numpy::PyReadonlyArray1;
use sslab::data::Csr;

/// A CSR matrix from Python: `(indptr, indices, data)`.
pub type CsrArrays<'py> =
    (PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, i32>, PyReadonlyArray1<'py, f64>);

/// The arrays of a [`CsrArrays`], readable with the GIL released.
pub type CsrViews<'a> = (ArrayView1<'a, i64>, ArrayView1<'a, i32>, ArrayView1<'a, f64>);

/// The rows `rows` (all when None) of a CSR matrix, checked by [`Csr::new`].
pub fn csr_rows(m: &CsrViews<'_>, n_cols: usize, rows: Option<&[usize]>) -> sslab::Result<Csr> {
    let (indptr, indices, data) = m;
    let n_rows = indptr.len().saturating_sub(1);
    let all: Vec<usize>;
    let rows = match rows {
        Some(r) => r,
        None => {
            all = (0..n_rows).collect();
            &all
        }
    };
    let (mut ptr, mut idx, mut val) = (vec![0usize], Vec::new(), Vec::new());
    for &i in rows {
        let (a, b) = (indptr[i], indptr[i + 1]);
        if a < 0 || b < a || b as usize > indices.len() || b as usize > data.len() {
            return Err(sslab::Error::Data(format!("invalid CSR matrix: indptr at row {i}")));
        }
        for k in a as usize..b as usize {
            let j = u32::try_from(indices[k]).map_err(|_| {
                sslab::Error::Data(format!("invalid CSR matrix: column {}", indices[k]))
            })?;
            idx.push(j);
            val.push(data[k]);
        }
        ptr.push(idx.len());
    }
    Csr::new(n_cols, ptr, idx, val)
}
