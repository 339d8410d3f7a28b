//! One pass over a matrix's rows for gradients of Σ_i f(x_iᵀw): each row's product with w,
//! then a multiple of the row (a function of that product) added to g. Rows go in blocks of
//! four that share one load and store of g. Every sum is done in the order of ndarray's `dot`
//! (eight partial sums, then the tail) and of `scaled_add` row after row, so the result is
//! bit-identical to that row-at-a-time loop (no fused multiply-adds: Rust never contracts).

use ndarray::ArrayView2;

use super::{Kernel, widest};

/// Partial sums of ndarray's `unrolled_dot`.
const LANES: usize = 8;
/// Rows per block.
const BLOCK: usize = 4;

/// For each row x_i of `x` in order: g += coef(i, x_iᵀw)·x_i, as
/// `let c = coef(i, x_i.dot(&w)); g.scaled_add(c, &x_i)` would, bit for bit. `coef` is
/// called once per row, in row order. Runs on the widest vector unit the CPU has (AVX-512,
/// AVX2, else the baseline): IEEE sums and products round the same in every width. Panics
/// if the lengths of `w`, `g` and the rows differ.
pub fn row_pass(
    x: ArrayView2<f64>,
    w: &[f64],
    g: &mut [f64],
    mut coef: impl FnMut(usize, f64) -> f64,
) {
    let d = w.len();
    assert!(x.ncols() == d && g.len() == d, "row_pass: lengths differ");
    if d == 0 {
        (0..x.nrows()).for_each(|i| _ = coef(i, 0.0));
        return;
    }
    let x = x.as_standard_layout();
    let data = x.as_slice().expect("a standard-layout array is contiguous");
    widest(Pass { data, w, g, coef });
}

/// [`row_pass`] as a [`Kernel`].
struct Pass<'a, F> {
    data: &'a [f64],
    w: &'a [f64],
    g: &'a mut [f64],
    coef: F,
}

impl<F: FnMut(usize, f64) -> f64> Kernel for Pass<'_, F> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        pass(self.data, self.w, self.g, self.coef)
    }
}

/// [`row_pass`] on the rows of `data` (row-major, `w.len()` > 0 columns).
#[inline(always)]
fn pass(data: &[f64], w: &[f64], g: &mut [f64], mut coef: impl FnMut(usize, f64) -> f64) {
    let d = w.len();
    let mut blocks = data.chunks_exact(BLOCK * d);
    let mut i = 0;
    for b in &mut blocks {
        let rows = [&b[..d], &b[d..2 * d], &b[2 * d..3 * d], &b[3 * d..]];
        let mut c = [0.0; BLOCK];
        for r in 0..BLOCK {
            c[r] = coef(i + r, dot(rows[r], w));
        }
        add_rows(g, rows, c);
        i += BLOCK;
    }
    for row in blocks.remainder().chunks_exact(d) {
        let c = coef(i, dot(row, w));
        add_rows(g, [row], [c]);
        i += 1;
    }
}

/// xᵀw in `unrolled_dot`'s order.
#[inline(always)]
fn dot(x: &[f64], w: &[f64]) -> f64 {
    let (x, y) = (x.chunks_exact(LANES), w.chunks_exact(LANES));
    let tail = x.remainder().iter().zip(y.remainder());
    let mut p = [0.0; LANES];
    for (x, y) in x.zip(y) {
        for k in 0..LANES {
            p[k] += x[k] * y[k];
        }
    }
    let mut sum = 0.0;
    sum += p[0] + p[4];
    sum += p[1] + p[5];
    sum += p[2] + p[6];
    sum += p[3] + p[7];
    for (x, y) in tail {
        sum += x * y;
    }
    sum
}

/// g += c_0 x_0, then c_1 x_1, … (one load and store of g per block).
#[inline(always)]
fn add_rows<const R: usize>(g: &mut [f64], rows: [&[f64]; R], c: [f64; R]) {
    let n = g.len();
    let rows: [&[f64]; R] = std::array::from_fn(|r| &rows[r][..n]);
    for (j, gj) in g.iter_mut().enumerate() {
        let mut s = *gj;
        for r in 0..R {
            s += c[r] * rows[r][j];
        }
        *gj = s;
    }
}

#[cfg(test)]
mod tests {
    use ndarray::{Array1, Array2, s};
    use rand::{Rng, SeedableRng};

    use super::*;

    /// The row-at-a-time loop of ndarray's `dot` and `scaled_add`.
    fn reference(x: ArrayView2<f64>, w: &Array1<f64>, g: &mut Array1<f64>) -> Vec<f64> {
        let mut seen = Vec::new();
        for row in x.rows() {
            let m = row.dot(w);
            seen.push(m);
            g.scaled_add((1.3 * m).sin(), &row);
        }
        seen
    }

    #[test]
    fn bit_identical_to_ndarray_rows_for_every_tail() {
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for (n, d) in [(0, 5), (1, 1), (3, 7), (4, 8), (9, 17), (13, 400), (64, 123), (5, 0)] {
            let x = Array2::from_shape_fn((n, d), |_| rng.random_range(-3.0..3.0));
            let w = Array1::from_shape_fn(d, |_| rng.random_range(-1.0..1.0) * 1e3);
            let g0 = Array1::from_shape_fn(d, |_| rng.random_range(-1.0..1.0));
            let mut expected = g0.clone();
            let seen = reference(x.view(), &w, &mut expected);
            // The dispatched kernel (the widest unit) and the baseline one.
            for widest in [true, false] {
                let (mut g, mut got) = (g0.clone(), Vec::new());
                let coef = |i, m: f64| {
                    got.push((i, m));
                    (1.3 * m).sin()
                };
                let (ws, gs) = (w.as_slice().unwrap(), g.as_slice_mut().unwrap());
                match widest || d == 0 {
                    true => row_pass(x.view(), ws, gs, coef),
                    false => pass(x.as_slice().unwrap(), ws, gs, coef),
                }
                let order: Vec<usize> = got.iter().map(|p| p.0).collect();
                assert_eq!(order, (0..n).collect::<Vec<_>>(), "n={n} d={d}");
                let products: Vec<f64> = got.iter().map(|p| p.1).collect();
                assert_eq!(bits(&products), bits(&seen), "products, n={n} d={d}");
                assert_eq!(bits(g.as_slice().unwrap()), bits(expected.as_slice().unwrap()));
            }
        }
    }

    #[test]
    fn reads_views_that_are_not_contiguous() {
        let x = Array2::from_shape_fn((6, 10), |(i, j)| (i * 10 + j) as f64 * 0.37 - 9.0);
        let view = x.slice(s![..;2, 1..9]);
        let w = Array1::from_shape_fn(8, |j| 1.0 / (j as f64 + 1.0));
        let mut expected = Array1::zeros(8);
        reference(view, &w, &mut expected);
        let mut g = vec![0.0; 8];
        row_pass(view, w.as_slice().unwrap(), &mut g, |_, m| (1.3 * m).sin());
        assert_eq!(g, expected.to_vec());
    }
}
