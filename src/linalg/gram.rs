//! Scaled Gram matrices XᵀX / n.

use faer::{Mat, MatMut};
use ndarray::{Array1, Array2, ArrayView2};

use super::syrk::faer_lower;

/// Side of the tiles in which the lower triangle is mirrored.
const TILE: usize = 32;

/// `xᵀx · scale` for `x` with one sample per row (a d×d matrix). Only the lower triangle is
/// computed and mirrored: by the tile kernel of [`syrk`](super::syrk) with AVX-512 or AVX2,
/// else by faer's triangular product (a SYRK on its blocked kernels, in parallel by faer's
/// global setting). Either way each entry is the sum of faer's full product, bit for bit.
pub fn gram(x: &ArrayView2<f64>, scale: f64) -> Mat<f64> {
    match super::syrk::grams(std::slice::from_ref(x), None, scale, &[false]) {
        Some(mut g) => {
            let mut out = g.swap_remove(0).0;
            mirror_lower(out.as_mut());
            out
        }
        None => faer_gram(x, scale),
    }
}

/// For each block of rows X_b: [`gram`]`(Y_b, scale)` of the centred block Y_b = X_b − 1 meanᵀ
/// (x − m entry by entry), bit for bit, and Y_b itself where `keep` says so; with the tile
/// kernel, every block is centred while it is packed, so X_b is read once (and a block not
/// kept is never written out whole).
pub fn centred_grams(
    blocks: &[ArrayView2<f64>],
    mean: &Array1<f64>,
    scale: f64,
    keep: &[bool],
) -> Vec<(Option<Array2<f64>>, Mat<f64>)> {
    assert_eq!(blocks.len(), keep.len(), "one `keep` per block");
    let mean = mean.as_slice().expect("a contiguous mean");
    match super::syrk::grams(blocks, Some(mean), scale, keep) {
        Some(g) => g
            .into_iter()
            .map(|(mut out, centred)| {
                mirror_lower(out.as_mut());
                (centred, out)
            })
            .collect(),
        None => blocks
            .iter()
            .zip(keep)
            .map(|(x, &keep)| {
                let y = Array2::from_shape_fn(x.raw_dim(), |(i, j)| x[(i, j)] - mean[j]);
                let g = faer_gram(&y.view(), scale);
                (keep.then_some(y), g)
            })
            .collect(),
    }
}

/// [`gram`] by faer's triangular product.
fn faer_gram(x: &ArrayView2<f64>, scale: f64) -> Mat<f64> {
    let mut out = faer_lower(x, scale);
    mirror_lower(out.as_mut());
    out
}

/// Copies the strict lower triangle of the square `a` onto its upper one, tile by tile.
fn mirror_lower(a: MatMut<'_, f64>) {
    let d = a.nrows();
    assert!(a.ncols() == d && a.row_stride() == 1, "a square column-major matrix");
    let (ptr, cs) = (a.as_ptr_mut(), a.col_stride() as usize);
    for j0 in (0..d).step_by(TILE) {
        for i0 in (j0..d).step_by(TILE) {
            for j in j0..(j0 + TILE).min(d) {
                for i in i0.max(j + 1)..(i0 + TILE).min(d) {
                    // SAFETY: i, j < d in a column-major d × d matrix with column stride cs.
                    unsafe { *ptr.add(i * cs + j) = *ptr.add(j * cs + i) };
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::view;
    use faer::Accum;
    use ndarray::{Array2, array};
    use rand::{Rng, SeedableRng};

    #[test]
    fn matches_explicit_product() {
        let x = array![[1.0, 2.0], [3.0, -1.0], [0.5, 0.0]];
        let g = gram(&x.view(), 0.5);
        let expected = x.t().dot(&x) * 0.5;
        for i in 0..2 {
            for j in 0..2 {
                assert!((g[(i, j)] - expected[[i, j]]).abs() < 1e-12);
            }
        }
    }

    /// The lower product (the tile kernel where the CPU has one) gives the full product's
    /// numbers bit for bit (sizes of the benches, several of faer's 512-deep blocks, one
    /// row, no rows, tiny matrices).
    #[test]
    fn the_lower_product_equals_the_full_product() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let sizes = [(1900, 400), (100, 400), (2000, 100), (1100, 1000), (37, 130), (5, 3)];
        for (n, d) in sizes.into_iter().chain([(1, 7), (0, 4), (3, 1), (40, 33)]) {
            let x = Array2::from_shape_fn((n, d), |_| rng.random_range(-1.0..1.0));
            let xf = view(&x.view());
            let mut full = Mat::<f64>::zeros(d, d);
            faer::linalg::matmul::matmul(
                full.as_mut(),
                Accum::Replace,
                xf.transpose(),
                xf,
                0.25,
                faer::Par::Seq,
            );
            assert!(gram(&x.view(), 0.25) == full, "n = {n}, d = {d}");
        }
    }
}
