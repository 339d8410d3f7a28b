//! QLDS solves in the eigenbasis of C_u = V diag(e) Vᵀ: with U = X_tr V/√n (training
//! labeled rows) and D = λ − α_u e, Vᵀω = D⁻¹Uᵀ(I + α_l U D⁻¹ Uᵀ)⁻¹ y, so every (α_l, α_u)
//! costs a diagonal scaling and an m×m solve (Woodbury); only when m ≥ d (more labeled
//! training points than features) is a d×d system solved instead, the smaller of the two.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};

use crate::error::{Error, Result};
use crate::linalg::{SymEigen, clear_upper_simd, spd_solve, sym_eigen, view};
use crate::methods::qlds::Moments;

/// Eigenvalues and eigenvectors of C_u, and the labeled rows in its eigenbasis, X_l V/√n.
#[derive(Debug, Clone)]
pub struct EigenBasis {
    pub values: Vec<f64>,
    vectors: Mat<f64>,
    scale: f64,
    /// X_l V/√n (n_l × d).
    pub labeled: Mat<f64>,
}

impl EigenBasis {
    /// One eigen-decomposition of C_u and the projection of the labeled rows.
    pub fn new(prep: &Moments) -> Result<Self> {
        Ok(Self::from_eigen(prep, sym_eigen(prep.c_u.as_ref(), "eigen-decomposition of C_u")?))
    }

    /// From the eigen-decomposition of C_u already made.
    pub fn from_eigen(prep: &Moments, eig: SymEigen) -> Self {
        let mut basis = EigenBasis {
            values: eig.values,
            vectors: eig.vectors,
            scale: 1.0 / (prep.n() as f64).sqrt(),
            labeled: Mat::zeros(0, 0),
        };
        basis.labeled = basis.project(&prep.x_l);
        basis
    }

    /// Centred rows `x` in the eigenbasis, scaled by 1/√n: x V/√n.
    pub fn project(&self, x: &ndarray::Array2<f64>) -> Mat<f64> {
        let mut out = Mat::zeros(x.nrows(), self.values.len());
        matmul(
            out.as_mut(),
            Accum::Replace,
            view(&x.view()),
            self.vectors.as_ref(),
            self.scale,
            Par::Seq,
        );
        out
    }

    /// The top eigenvalue of C_u (0 when d = 0).
    pub fn top(&self) -> f64 {
        self.values.iter().fold(0.0, |m: f64, &e| m.max(e))
    }

    /// 1/(λ − α_u e_i); an error when λ does not exceed α_u·λ_max(C_u).
    pub fn inverse_diagonal(&self, lambda: f64, alpha_u: f64) -> Result<Vec<f64>> {
        self.values
            .iter()
            .map(|e| {
                let v = lambda - alpha_u * e;
                if v > 0.0 {
                    Ok(1.0 / v)
                } else {
                    Err(Error::Linalg {
                        context: "QLDS system in the eigenbasis of C_u",
                        message: format!("λ = {lambda} ≤ α_u·λ_max(C_u) with α_u = {alpha_u}: not positive definite"),
                    })
                }
            })
            .collect()
    }
}

/// Training rows (eigenbasis, m×d) with labels, and the rows to score (t×d). With m ≥ d
/// the Woodbury form would not pay: UᵀU and Uᵀy are kept for d×d solves instead.
pub struct Fold {
    train: Mat<f64>,
    y: Vec<f64>,
    test: Mat<f64>,
    /// (UᵀU, Uᵀy) when m ≥ d.
    direct: Option<(Mat<f64>, Mat<f64>)>,
}

impl Fold {
    /// Prepares one fold (one training/test split of the rows).
    pub fn new(train: Mat<f64>, y: Vec<f64>, test: Mat<f64>) -> Self {
        let direct = (train.nrows() >= train.ncols()).then(|| {
            let mut gram = Mat::zeros(train.ncols(), train.ncols());
            matmul(gram.as_mut(), Accum::Replace, train.transpose(), train.as_ref(), 1.0, Par::Seq);
            let yv = Mat::from_fn(y.len(), 1, |i, _| y[i]);
            (gram, train.transpose() * &yv)
        });
        Fold { train, y, test, direct }
    }

    /// Number of rows scored.
    pub fn test_rows(&self) -> usize {
        self.test.nrows()
    }

    /// Scores of the test rows for every α_l in `alphas_l` (one column each), at the α_u
    /// giving `dinv` = 1/(λ − α_u e).
    pub fn scores(&self, dinv: &[f64], alphas_l: &[f64]) -> Result<Mat<f64>> {
        let (m, d) = (self.train.nrows(), self.train.ncols());
        let mut z = Mat::zeros(d, alphas_l.len());
        if let Some((gram, uty)) = &self.direct {
            // Vᵀω = (D + α_l UᵀU)⁻¹ Uᵀy.
            for (c, &al) in alphas_l.iter().enumerate() {
                let a = Mat::from_fn(d, d, |i, j| {
                    al * gram[(i, j)] + if i == j { 1.0 / dinv[i] } else { 0.0 }
                });
                let mut s = uty.clone();
                spd_solve(a.as_ref(), &mut s, "QLDS system D + α_l UᵀU in the eigenbasis")?;
                z.col_mut(c).copy_from(s.col(0));
            }
        } else {
            // Vᵀω = D⁻¹Uᵀ(I + α_l U D⁻¹ Uᵀ)⁻¹ y. The scalar fills follow faer products
            // (see `clear_upper_simd`).
            clear_upper_simd();
            let ud = Mat::from_fn(m, d, |i, j| self.train[(i, j)] * dinv[j]);
            let mut k = Mat::zeros(m, m);
            matmul(k.as_mut(), Accum::Replace, ud.as_ref(), self.train.transpose(), 1.0, Par::Seq);
            let mut system = Mat::zeros(m, m);
            for (c, &al) in alphas_l.iter().enumerate() {
                clear_upper_simd();
                for j in 0..m {
                    for i in 0..m {
                        system[(i, j)] = al * k[(i, j)] + if i == j { 1.0 } else { 0.0 };
                    }
                }
                let mut s = Mat::from_fn(m, 1, |i, _| self.y[i]);
                spd_solve(system.as_ref(), &mut s, "Woodbury system I + α_l U D⁻¹ Uᵀ")?;
                matmul(
                    z.as_mut().subcols_mut(c, 1),
                    Accum::Replace,
                    ud.transpose(),
                    s.as_ref(),
                    1.0,
                    Par::Seq,
                );
            }
        }
        let mut out = Mat::zeros(self.test.nrows(), alphas_l.len());
        matmul(out.as_mut(), Accum::Replace, self.test.as_ref(), z.as_ref(), 1.0, Par::Seq);
        Ok(out)
    }
}

/// The rows `idx` of `x`.
pub fn rows(x: MatRef<'_, f64>, idx: &[usize]) -> Mat<f64> {
    Mat::from_fn(idx.len(), x.ncols(), |i, j| x[(idx[i], j)])
}
