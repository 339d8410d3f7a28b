//! The K-class setting estimated from one problem (spec §3 with K classes): G = MᵀM from
//! split halves of each labeled class, unlabeled class counts assumed in the labeled
//! proportions, and the same optional rescaling as for two classes.

use faer::Mat;
use ndarray::{Array1, Array2, ArrayView2, Axis};

use super::multiclass_setting::centre;
use super::{MulticlassSetting, Scale};
use crate::error::{Error, Result};
use crate::methods::qlds::Moments;

/// The estimated K-class setting and the within-class variance per feature it was
/// rescaled by (1 for [`Scale::None`]).
#[derive(Debug, Clone)]
pub struct MulticlassEstimate {
    pub setting: MulticlassSetting,
    pub variance: f64,
}

fn mean(rows: ArrayView2<f64>) -> Array1<f64> {
    rows.mean_axis(Axis(0)).unwrap_or_else(|| Array1::zeros(rows.ncols()))
}

/// Estimates d, the counts and G from the labeled rows of `prep` with class ids
/// `classes_l` (< `n_classes`), as [`super::estimate_setting`] does for two classes: on the
/// raw rows G_jj ≈ μ̂_j^(a)ᵀμ̂_j^(b) over the halves of class j and G_jk ≈ μ̂_jᵀμ̂_k (both
/// unbiased), then centred with the class shares of all n points; negative diagonal
/// entries are clipped to 0. The unlabeled counts are n_u·(labeled shares), rounded, the
/// last class taking the rest. Needs ≥ 2 labeled points per class.
pub fn estimate_multiclass_setting(
    prep: &Moments,
    classes_l: &[usize],
    n_classes: usize,
    scale: Scale,
) -> Result<MulticlassEstimate> {
    if classes_l.len() != prep.x_l.nrows() || classes_l.iter().any(|c| *c >= n_classes) {
        return Err(Error::Data(format!(
            "need one class id < {n_classes} per labeled row ({} rows, {} ids)",
            prep.x_l.nrows(),
            classes_l.len()
        )));
    }
    let classes: Vec<Array2<f64>> = (0..n_classes)
        .map(|c| {
            let rows: Vec<usize> = (0..classes_l.len()).filter(|&i| classes_l[i] == c).collect();
            prep.x_l.select(Axis(0), &rows) + &prep.mean
        })
        .collect();
    if let Some(small) = classes.iter().find(|x| x.nrows() < 2) {
        return Err(Error::Data(format!(
            "estimating G needs ≥ 2 labeled points per class (got {})",
            small.nrows()
        )));
    }
    let means: Vec<Array1<f64>> = classes.iter().map(|x| mean(x.view())).collect();
    let halves: Vec<f64> = classes
        .iter()
        .map(|x| {
            let h = x.nrows() / 2;
            mean(x.slice(ndarray::s![..h, ..])).dot(&mean(x.slice(ndarray::s![h.., ..])))
        })
        .collect();
    let variance = match scale {
        Scale::None => 1.0,
        Scale::LabeledWithin => {
            let ss: f64 =
                classes.iter().zip(&means).map(|(x, m)| (x - m).mapv(|v| v * v).sum()).sum();
            let dof = (classes_l.len() - n_classes).max(1) as f64;
            let v = ss / (dof * prep.dim() as f64);
            if !(v > 0.0 && v.is_finite()) {
                return Err(Error::Data(
                    "labeled within-class variance is 0: cannot rescale".into(),
                ));
            }
            v
        }
    };
    let labeled: Vec<usize> = classes.iter().map(|x| x.nrows()).collect();
    let (n_u, n_l) = (prep.n_unlabeled(), classes_l.len() as f64);
    let mut unlabeled: Vec<usize> =
        labeled.iter().map(|l| (n_u as f64 * *l as f64 / n_l).round() as usize).collect();
    let others: usize = unlabeled[..n_classes - 1].iter().sum();
    unlabeled[n_classes - 1] = n_u.saturating_sub(others);
    let raw = Mat::from_fn(n_classes, n_classes, |j, k| {
        (if j == k { halves[j] } else { means[j].dot(&means[k]) }) / variance
    });
    // A negative estimate of ‖μ_j − μ̄‖² is noise around a small value: clip it to 0 (before
    // the setting's check of G_jj ≥ 0; the SSL-book COIL set has such classes).
    let centred = centre(&labeled, &unlabeled, &raw);
    let g = Mat::from_fn(n_classes, n_classes, |j, k| {
        if j == k { centred[(j, j)].max(0.0) } else { centred[(j, k)] }
    });
    let setting = MulticlassSetting::new(prep.dim(), labeled, unlabeled, g)?;
    Ok(MulticlassEstimate { setting, variance })
}
