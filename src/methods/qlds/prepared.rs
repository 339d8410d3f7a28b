//! Per-problem quantities shared by every (α_l, α_u, λ): the global mean, centred data,
//! C_l, C_u and the right-hand side X_l y_l/√n. Computed once, reused across a grid.

use std::sync::OnceLock;

use faer::Mat;
use ndarray::{Array1, Array2};

use super::LambdaPolicy;
use crate::data::{Problem, column_means};
use crate::engine::{Linear, Model};
use crate::error::{Error, Result};
use crate::linalg::{centred_grams, top_eigenvalue, top_eigenvalue_of_sum};

/// Centred data and second moments of one problem (n = n_l + n_u).
#[derive(Debug, Clone)]
pub struct Moments {
    /// Global mean of all training points, subtracted before anything else.
    pub mean: Array1<f64>,
    /// Centred labeled rows.
    pub x_l: Array2<f64>,
    /// Centred unlabeled rows (0 × d in the moments of [`for_fit`](Self::for_fit)).
    pub x_u: Array2<f64>,
    /// Labels of the labeled rows (±1).
    pub y_l: Array1<f64>,
    /// C_l = X_lᵀX_l / n.
    pub c_l: Mat<f64>,
    /// C_u = X_uᵀX_u / n.
    pub c_u: Mat<f64>,
    /// X_lᵀ y_l / √n.
    pub rhs: Mat<f64>,
    /// n = n_l + n_u.
    n: usize,
    /// λ_max(C_l + C_u) and λ_max(C_u), computed on first use.
    top_all: OnceLock<f64>,
    top_unlabeled: OnceLock<f64>,
}

impl Moments {
    /// The model ωᵀ(x − mean)/√n of raw rows x, for ω fitted on these moments.
    pub fn model(&self, omega: Array1<f64>) -> Model {
        Model::Linear(Linear::centred(omega, self.mean.clone(), (self.n() as f64).sqrt()))
    }

    /// Centres with the global mean and forms C_l, C_u and the right-hand side.
    pub fn new(p: &Problem) -> Result<Self> {
        Self::build(p, true)
    }

    /// [`new`](Self::new) without the centred unlabeled rows (`x_u` is 0 × d): all a fit at
    /// one (α_l, α_u) or the theory reads, C_u formed without writing a centred copy of X_u.
    pub(super) fn for_fit(p: &Problem) -> Result<Self> {
        Self::build(p, false)
    }

    /// The moments, with the centred unlabeled rows when `keep_unlabeled`.
    fn build(p: &Problem, keep_unlabeled: bool) -> Result<Self> {
        if p.n_labeled() == 0 {
            return Err(Error::Data("QLDS needs at least one labeled point".into()));
        }
        if p.x_u.ncols() != p.dim() {
            return Err(Error::Data(format!(
                "labeled rows have {} features, unlabeled rows {}",
                p.dim(),
                p.x_u.ncols()
            )));
        }
        let (x_l, x_u) = (p.x_l.to_dense(), p.x_u.to_dense());
        let mean = column_means(&[x_l.view(), x_u.view()]);
        let n = (p.n_labeled() + p.n_unlabeled()) as f64;
        let keep = [true, keep_unlabeled];
        let mut grams = centred_grams(&[x_l.view(), x_u.view()], &mean, 1.0 / n, &keep);
        let ((x_u, c_u), (x_l, c_l)) = (grams.pop().expect("two"), grams.pop().expect("two"));
        let x_l = x_l.expect("kept");
        let x_u = x_u.unwrap_or_else(|| Array2::zeros((0, p.dim())));
        let b = x_l.t().dot(&p.y_l) / n.sqrt();
        let rhs = Mat::from_fn(b.len(), 1, |i, _| b[i]);
        Ok(Moments {
            mean,
            x_l,
            x_u,
            y_l: p.y_l.clone(),
            c_l,
            c_u,
            rhs,
            n: p.n_labeled() + p.n_unlabeled(),
            top_all: OnceLock::new(),
            top_unlabeled: OnceLock::new(),
        })
    }

    /// Total number of training points n = n_l + n_u.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Number of unlabeled training points n_u (also when `x_u` is not kept).
    pub fn n_unlabeled(&self) -> usize {
        self.n - self.x_l.nrows()
    }

    /// Number of features.
    pub fn dim(&self) -> usize {
        self.x_l.ncols()
    }

    /// λ_max(X Xᵀ/n) = λ_max(C_l + C_u).
    pub fn top_eig_all(&self) -> Result<f64> {
        once(&self.top_all, || {
            top_eigenvalue_of_sum(self.c_l.as_ref(), self.c_u.as_ref(), "top eigenvalue of X Xᵀ/n")
        })
    }

    /// λ_max(C_u).
    pub fn top_eig_unlabeled(&self) -> Result<f64> {
        once(&self.top_unlabeled, || top_eigenvalue(self.c_u.as_ref(), "top eigenvalue of C_u"))
    }

    /// The λ a policy gives on this problem.
    pub fn lambda(&self, policy: LambdaPolicy) -> Result<f64> {
        Ok(match policy {
            LambdaPolicy::MaxEigAll { epsilon } => (1.0 + epsilon) * self.top_eig_all()?,
            LambdaPolicy::MaxEigUnlabeled { epsilon } => {
                (1.0 + epsilon) * self.top_eig_unlabeled()?
            }
            LambdaPolicy::Fixed(l) => l,
        })
    }
}

/// The value in `cell`, computed by `f` on first success.
fn once(cell: &OnceLock<f64>, f: impl FnOnce() -> Result<f64>) -> Result<f64> {
    if let Some(v) = cell.get() {
        return Ok(*v);
    }
    let v = f()?;
    Ok(*cell.get_or_init(|| v))
}
