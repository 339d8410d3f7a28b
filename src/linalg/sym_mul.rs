//! The product of a symmetric matrix with a few vectors reading only its lower triangle:
//! half the bytes of a full product, for N × N smoothers streamed from memory.

use faer::{Mat, MatMut, MatRef};

use super::{Kernel, widest};

/// Right-hand sides per pass (four f64 fill an AVX2 register).
const RHS: usize = 4;
/// Columns of the matrix per block: each row of the block's lower part is read once for
/// all of them.
const BLOCK: usize = 8;

/// `out` = A G for a symmetric A (N × N, only entries i ≥ j are read) and G (N × c):
/// A_ij (i > j) adds A_ij g_j to row i and A_ij g_i to row j. Summation order differs from
/// faer's product, so results agree to rounding. Panics unless the shapes agree.
pub fn sym_mul(a: &Mat<f64>, g: MatRef<'_, f64>, mut out: MatMut<'_, f64>) {
    let n = a.nrows();
    assert!(a.ncols() == n && g.nrows() == n && out.nrows() == n && out.ncols() == g.ncols());
    for c0 in (0..g.ncols()).step_by(RHS) {
        let cols = RHS.min(g.ncols() - c0);
        let rows: Vec<[f64; RHS]> = (0..n)
            .map(|i| std::array::from_fn(|k| if k < cols { g[(i, c0 + k)] } else { 0.0 }))
            .collect();
        let y = widest(Lower { a: a.as_ref(), g: &rows, y: vec![[0.0; RHS]; n] });
        for (i, yi) in y.iter().enumerate() {
            (0..cols).for_each(|k| out[(i, c0 + k)] = yi[k]);
        }
    }
}

/// The pass over the lower triangle, BLOCK columns at a time.
struct Lower<'a> {
    a: MatRef<'a, f64>,
    g: &'a [[f64; RHS]],
    y: Vec<[f64; RHS]>,
}

impl Kernel for Lower<'_> {
    type Output = Vec<[f64; RHS]>;

    #[inline(always)]
    fn run(mut self) -> Vec<[f64; RHS]> {
        let n = self.g.len();
        let (g, y) = (self.g, &mut self.y[..]);
        for j0 in (0..n).step_by(BLOCK) {
            let width = BLOCK.min(n - j0);
            // The block's own rows: the diagonal and the entries below it inside the block.
            for j in j0..j0 + width {
                let col = self.a.col(j).try_as_col_major().expect("faer columns are contiguous");
                let col = col.as_slice();
                for k in 0..RHS {
                    y[j][k] += col[j] * g[j][k];
                }
                for i in j + 1..j0 + width {
                    for k in 0..RHS {
                        y[i][k] += col[i] * g[j][k];
                        y[j][k] += col[i] * g[i][k];
                    }
                }
            }
            if width < BLOCK {
                continue;
            }
            // Rows below the block: each row's four entries serve both directions.
            let cols: [&[f64]; BLOCK] = std::array::from_fn(|c| {
                self.a.col(j0 + c).try_as_col_major().expect("contiguous").as_slice()
            });
            let gj: [[f64; RHS]; BLOCK] = std::array::from_fn(|c| g[j0 + c]);
            let mut acc = [[0.0; RHS]; BLOCK];
            for i in j0 + BLOCK..n {
                let (gi, mut yi) = (g[i], y[i]);
                for c in 0..BLOCK {
                    let aij = cols[c][i];
                    for k in 0..RHS {
                        yi[k] += aij * gj[c][k];
                        acc[c][k] += aij * gi[k];
                    }
                }
                y[i] = yi;
            }
            for c in 0..BLOCK {
                for k in 0..RHS {
                    y[j0 + c][k] += acc[c][k];
                }
            }
        }
        self.y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equals_the_full_product_to_rounding() {
        // Sizes with and without a partial last block, one to six right-hand sides.
        for (n, c) in [(1, 1), (3, 2), (8, 4), (13, 5), (37, 6)] {
            let b = Mat::from_fn(n, n, |i, j| ((i * 7 + j * 3) as f64 * 0.31).sin());
            let a = &b + b.transpose();
            let g = Mat::from_fn(n, c, |i, k| ((i + 2 * k) as f64 * 0.7).cos());
            let mut out = Mat::zeros(n, c);
            sym_mul(&a, g.as_ref(), out.as_mut());
            let full = &a * &g;
            for i in 0..n {
                for k in 0..c {
                    let (got, want) = (out[(i, k)], full[(i, k)]);
                    assert!((got - want).abs() < 1e-12 * (1.0 + want.abs()), "{n} {c} ({i}, {k})");
                }
            }
        }
    }
}
