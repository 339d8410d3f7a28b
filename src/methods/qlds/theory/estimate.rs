//! The setting estimated from one problem (spec §3): G = MᵀM from split halves of each
//! labeled class, unlabeled class counts assumed in the labeled proportions, and an
//! optional rescaling to unit within-class variance.

use ndarray::{Array1, ArrayView2, Axis};

use super::Setting;
use super::setting::centre_gram;
use crate::error::{Error, Result};
use crate::methods::qlds::Moments;

/// How the data are rescaled before the isotropic theory is applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scale {
    /// Use the data as they are (right for N(μ_k, I_d) data).
    None,
    /// Divide X by √(tr Ĉ_w/d), Ĉ_w the pooled within-class covariance of the labeled data,
    /// so that the average within-class variance per feature is 1.
    #[default]
    LabeledWithin,
}

impl Scale {
    /// The config spelling (`none`, `labeled_within`).
    pub fn name(self) -> &'static str {
        match self {
            Scale::None => "none",
            Scale::LabeledWithin => "labeled_within",
        }
    }
}

/// The estimated setting and the within-class variance per feature it was rescaled by.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    pub setting: Setting,
    /// tr Ĉ_w/d for [`Scale::LabeledWithin`], 1 for [`Scale::None`].
    pub variance: f64,
}

fn mean(rows: ArrayView2<f64>) -> Array1<f64> {
    rows.mean_axis(Axis(0)).unwrap_or_else(|| Array1::zeros(rows.ncols()))
}

/// Estimates d, the counts and G from the labeled rows of `prep`. On the raw (uncentred)
/// rows, μ_jᵀμ_j ≈ μ̂_j^(a)ᵀμ̂_j^(b) over the two halves of class j and μ_1ᵀμ_2 ≈ μ̂_1ᵀμ̂_2,
/// both unbiased; then G = P Ĝ Pᵀ with P = I − 1ρᵀ gives the population-centred means
/// (ρ: class shares of all n points). Centring with the sample mean first would bias G by
/// −d/n. Needs ≥ 2 labeled points per class.
pub fn estimate_setting(prep: &Moments, scale: Scale) -> Result<Estimate> {
    let classes = [1.0, -1.0].map(|c| {
        let rows: Vec<usize> = (0..prep.y_l.len()).filter(|&i| prep.y_l[i] == c).collect();
        prep.x_l.select(Axis(0), &rows) + &prep.mean
    });
    if let Some(small) = classes.iter().find(|x| x.nrows() < 2) {
        return Err(Error::Data(format!(
            "estimating G needs ≥ 2 labeled points per class (got {})",
            small.nrows()
        )));
    }
    let halves = classes.each_ref().map(|x| {
        let h = x.nrows() / 2;
        mean(x.slice(ndarray::s![..h, ..])).dot(&mean(x.slice(ndarray::s![h.., ..])))
    });
    let means = classes.each_ref().map(|x| mean(x.view()));
    let g12 = means[0].dot(&means[1]);
    let var = match scale {
        Scale::None => 1.0,
        Scale::LabeledWithin => {
            let ss: f64 =
                classes.iter().zip(&means).map(|(x, m)| (x - m).mapv(|v| v * v).sum()).sum();
            let dof = (prep.y_l.len() - 2).max(1) as f64;
            let v = ss / (dof * prep.dim() as f64);
            if !(v > 0.0 && v.is_finite()) {
                return Err(Error::Data(
                    "labeled within-class variance is 0: cannot rescale".into(),
                ));
            }
            v
        }
    };
    let labeled = classes.each_ref().map(|x| x.nrows());
    let n_u = prep.n_unlabeled();
    let n_l = (labeled[0] + labeled[1]) as f64;
    let u1 = ((n_u as f64) * labeled[0] as f64 / n_l).round() as usize;
    let unlabeled = [u1, n_u - u1];
    let n = (labeled[0] + labeled[1] + n_u) as f64;
    let rho = [0, 1].map(|k| (labeled[k] + unlabeled[k]) as f64 / n);
    let centred = centre_gram([[halves[0], g12], [g12, halves[1]]], rho);
    let g = centred.map(|row| row.map(|v| v / var));
    // A negative estimate of ‖μ_j − μ̄‖² is noise around a small value: clip it to 0.
    let g = [[g[0][0].max(0.0), g[0][1]], [g[0][1], g[1][1].max(0.0)]];
    Ok(Estimate { setting: Setting::new(prep.dim(), labeled, unlabeled, g)?, variance: var })
}
