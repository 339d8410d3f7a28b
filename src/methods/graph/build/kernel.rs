//! Gaussian RBF Gram matrix with a data-driven width (median heuristic).

use faer::Mat;
use ndarray::ArrayView2;

use super::distances::{row_norms, sq_distances_block};
use crate::error::{Error, Result};

/// K_ij = exp(−‖x_i − x_j‖² / (2 s²)) with s = `scale` × the median pairwise distance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RbfKernel {
    pub scale: f64,
}

impl Default for RbfKernel {
    fn default() -> Self {
        RbfKernel { scale: 1.0 }
    }
}

/// A Gram matrix and the width s that produced it.
#[derive(Debug, Clone)]
pub struct Gram {
    pub k: Mat<f64>,
    pub width: f64,
}

impl RbfKernel {
    /// The N × N Gram matrix of the rows of `x` (needs two distinct points).
    pub fn gram(&self, x: ArrayView2<f64>) -> Result<Gram> {
        let n = x.nrows();
        let mut k = Mat::zeros(n, n);
        sq_distances_block(x, &row_norms(x), 0, &mut k);
        let mut upper: Vec<f64> =
            (0..n).flat_map(|j| (0..j).map(move |i| (i, j))).map(|(i, j)| k[(i, j)]).collect();
        if upper.is_empty() {
            return Err(Error::Data("RBF kernel width needs at least two points".into()));
        }
        let mid = upper.len() / 2;
        let (_, median, _) = upper.select_nth_unstable_by(mid, f64::total_cmp);
        let width = self.scale * median.sqrt();
        if !(width > 0.0 && width.is_finite()) {
            return Err(Error::Data(format!("RBF kernel width {width} (all points equal?)")));
        }
        let inv = 1.0 / (2.0 * width * width);
        for j in 0..n {
            for i in 0..n {
                k[(i, j)] = (-k[(i, j)] * inv).exp();
            }
        }
        Ok(Gram { k, width })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn median_width_and_entries() {
        // Pairwise distances 1, 2, 3: median 2.
        let x = array![[0.0], [1.0], [3.0]];
        let g = RbfKernel { scale: 1.5 }.gram(x.view()).unwrap();
        assert!((g.width - 3.0).abs() < 1e-12);
        assert!((g.k[(0, 2)] - (-9.0f64 / 18.0).exp()).abs() < 1e-12);
        assert_eq!(g.k[(1, 1)], 1.0);
        assert_eq!(g.k[(0, 1)], g.k[(1, 0)]);
        assert!(RbfKernel::default().gram(array![[1.0], [1.0]].view()).is_err());
    }
}
