//! Zero-copy faer views of ndarray data and copies back.

use faer::{Col, MatRef};
use ndarray::{Array1, Array2, ArrayView2};

/// A faer view of an ndarray matrix with any strides.
pub fn view<'a>(x: &ArrayView2<'a, f64>) -> MatRef<'a, f64> {
    let (rows, cols) = x.dim();
    let strides = x.strides();
    // SAFETY: the pointer, shape and element strides come from a live ndarray view
    // with lifetime 'a, which is exactly the region faer will read.
    unsafe { MatRef::from_raw_parts(x.as_ptr(), rows, cols, strides[0], strides[1]) }
}

/// Column `j` of `m` as a slice; panics unless the column is contiguous (as in a `Mat`).
pub fn column(m: MatRef<'_, f64>, j: usize) -> &[f64] {
    m.col(j).try_as_col_major().expect("a contiguous column").as_slice()
}

/// Copies a faer matrix into a row-major ndarray.
pub fn to_array2(m: MatRef<'_, f64>) -> Array2<f64> {
    Array2::from_shape_fn((m.nrows(), m.ncols()), |(i, j)| m[(i, j)])
}

/// Copies a faer column into an ndarray vector.
pub fn to_array1(c: &Col<f64>) -> Array1<f64> {
    Array1::from_iter(c.iter().copied())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn views_respect_strides() {
        let a = array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
        let t = a.t();
        let v = view(&t);
        assert_eq!((v.nrows(), v.ncols()), (3, 2));
        assert_eq!(v[(2, 1)], 6.0);
        assert_eq!(to_array2(v), t.to_owned());
    }
}
