//! Gaussian RBF Gram matrix with a data-driven width (median heuristic): dense, or as a
//! Nyström factor (`nystrom`) when the kernel has a rank.

use faer::Mat;
use ndarray::ArrayView2;

use super::distances::{exponentiate, median_width, row_norms, sq_distances_block};
use super::nystrom::Landmarks;
use crate::error::{Error, Result};

/// K_ij = exp(−‖x_i − x_j‖² / (2 s²)) with s = `scale` × the median pairwise distance.
/// With `rank` = Some(m), K ≈ Z Zᵀ from m landmark points (Nyström, see [`Gram`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RbfKernel {
    pub scale: f64,
    /// Landmarks of the low-rank kernel (config `kernel_rank`); None: the dense N × N K.
    pub rank: Option<usize>,
}

impl Default for RbfKernel {
    fn default() -> Self {
        RbfKernel { scale: 1.0, rank: None }
    }
}

/// The kernel matrix of a [`Gram`].
#[derive(Debug, Clone)]
pub enum KernelMatrix {
    /// The N × N Gram matrix K.
    Dense(Mat<f64>),
    /// Z (N × r, r ≤ m landmarks) with K ≈ Z Zᵀ = K_Nm K_mm⁻¹ K_mN (Nyström), and its
    /// landmarks (which do not depend on the order of the N points).
    LowRank(Mat<f64>, Landmarks),
}

/// A Gram matrix (or its low-rank factor) and the width s that produced it.
#[derive(Debug, Clone)]
pub struct Gram {
    pub k: KernelMatrix,
    pub width: f64,
}

impl Gram {
    /// Number of points N.
    pub fn n(&self) -> usize {
        match &self.k {
            KernelMatrix::Dense(k) | KernelMatrix::LowRank(k, _) => k.nrows(),
        }
    }

    /// The dense K, or a parameter error for a method that has no low-rank form.
    pub fn dense(&self) -> Result<&Mat<f64>> {
        match &self.k {
            KernelMatrix::Dense(k) => Ok(k),
            KernelMatrix::LowRank(..) => Err(Error::param(
                "kernel_rank",
                "this method needs the dense kernel (low rank: binary RLS, Lap-RLS, TV-RLS, \
                 Cheeger-RLS only)",
            )),
        }
    }

    /// The Nyström factor Z, when the kernel is low-rank.
    pub fn factor(&self) -> Option<&Mat<f64>> {
        match &self.k {
            KernelMatrix::Dense(_) => None,
            KernelMatrix::LowRank(z, _) => Some(z),
        }
    }

    /// The Nyström landmarks, when the kernel is low-rank.
    pub fn landmarks(&self) -> Option<&Landmarks> {
        match &self.k {
            KernelMatrix::Dense(_) => None,
            KernelMatrix::LowRank(_, l) => Some(l),
        }
    }
}

impl RbfKernel {
    /// The Gram matrix of the rows of `x` (needs two distinct points): dense N × N, or the
    /// Nyström factor when `rank` is set.
    pub fn gram(&self, x: ArrayView2<f64>) -> Result<Gram> {
        if let Some(m) = self.rank {
            let (z, width, landmarks) = super::nystrom::factor(x, self.scale, m)?;
            return Ok(Gram { k: KernelMatrix::LowRank(z, landmarks), width });
        }
        let n = x.nrows();
        let mut k = Mat::zeros(n, n);
        sq_distances_block(x, &row_norms(x), 0, &mut k);
        let width = median_width(&k, self.scale)?;
        exponentiate(&mut k, width);
        Ok(Gram { k: KernelMatrix::Dense(k), width })
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
        let g = RbfKernel { scale: 1.5, rank: None }.gram(x.view()).unwrap();
        assert!((g.width - 3.0).abs() < 1e-12);
        let g = g.dense().unwrap();
        assert!((g[(0, 2)] - (-9.0f64 / 18.0).exp()).abs() < 1e-12);
        assert_eq!(g[(1, 1)], 1.0);
        assert_eq!(g[(0, 1)], g[(1, 0)]);
        assert!(RbfKernel::default().gram(array![[1.0], [1.0]].view()).is_err());
        let low = RbfKernel { scale: 1.5, rank: Some(2) }.gram(x.view()).unwrap();
        assert_eq!((low.n(), low.factor().map(|z| z.ncols())), (3, Some(2)));
        assert!(matches!(low.dense(), Err(Error::Param { param: "kernel_rank", .. })));
    }
}
