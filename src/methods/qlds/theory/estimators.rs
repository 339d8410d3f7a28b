//! Estimates of the setting on data read from files, and the Gaussians N(m_j, σ_j²) of the
//! scores each one predicts (issue 28): the isotropic estimate of spec §3, the common-
//! covariance theorem with C estimated from the labeled rows (shrunk) or from all rows minus
//! the between-class part, and the reference computed with every row's true label.

use faer::Mat;
use ndarray::{Array1, Array2, ArrayView2, Axis, s};

use super::common::{CommonSetting, common_lambda, predict_common};
use super::{Invalid, Scale, estimate_setting, predict, theory_lambda};
use crate::error::{Error, Result};
use crate::linalg::{gram, sym_eigen};
use crate::methods::qlds::{LambdaPolicy, Moments};

/// Which estimate of the setting the theory is evaluated on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Estimator {
    /// (a) G from labeled split halves, isotropic with unit within-class variance (spec §3).
    Isotropic,
    /// (b) common covariance: the labeled rows' pooled within-class covariance with
    /// Ledoit–Wolf shrinkage towards a multiple of I.
    LabeledShrinkage,
    /// (b) common covariance: all rows' covariance minus the between-class part
    /// Σ_k ρ_k μ_kμ_kᵀ estimated from labeled split halves.
    AllMinusBetween,
    /// (c) common covariance and means from all rows with their true labels, true counts:
    /// the theory's own accuracy on the data, a reference and not a usable selector.
    TrueLabels,
}

impl Estimator {
    /// Every estimator, in the order of the issue.
    pub const ALL: [Estimator; 4] = [
        Estimator::Isotropic,
        Estimator::LabeledShrinkage,
        Estimator::AllMinusBetween,
        Estimator::TrueLabels,
    ];

    /// The spelling in tables and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Estimator::Isotropic => "isotropic",
            Estimator::LabeledShrinkage => "labeled_shrinkage",
            Estimator::AllMinusBetween => "all_minus_between",
            Estimator::TrueLabels => "true_labels",
        }
    }

    /// Reads a name of [`Estimator::name`].
    pub fn parse(text: &str) -> Result<Self> {
        Self::ALL.into_iter().find(|e| e.name() == text).ok_or_else(|| {
            let names: Vec<_> = Self::ALL.iter().map(|e| e.name()).collect();
            Error::param("estimator", format!("expected one of {}, got `{text}`", names.join(", ")))
        })
    }
}

/// The rows of class +1 and of class −1 (centred with the global mean) the estimate uses:
/// the labeled rows, or with `y_u` all rows.
fn class_rows(prep: &Moments, y_u: Option<&Array1<f64>>) -> Result<[Array2<f64>; 2]> {
    let pick = |x: &Array2<f64>, y: &Array1<f64>, c: f64| {
        let rows: Vec<usize> = (0..y.len()).filter(|&i| y[i] == c).collect();
        x.select(Axis(0), &rows)
    };
    let classes = [1.0, -1.0].map(|c| {
        let labeled = pick(&prep.x_l, &prep.y_l, c);
        match y_u {
            None => Ok(labeled),
            Some(y) => {
                ndarray::concatenate(Axis(0), &[labeled.view(), pick(&prep.x_u, y, c).view()])
                    .map_err(|e| Error::Data(e.to_string()))
            }
        }
    });
    let [a, b] = classes;
    let classes = [a?, b?];
    if let Some(small) = classes.iter().find(|x| x.nrows() < 2) {
        return Err(Error::Data(format!(
            "the theory's estimate needs ≥ 2 rows per class (got {})",
            small.nrows()
        )));
    }
    Ok(classes)
}

fn mean(rows: ArrayView2<f64>) -> Array1<f64> {
    rows.mean_axis(Axis(0)).unwrap_or_else(|| Array1::zeros(rows.ncols()))
}

/// Σ_k w_k sym(a_k b_kᵀ) subtracted from `c` (in place).
fn subtract_outer(c: &mut Mat<f64>, pairs: &[(f64, &Array1<f64>, &Array1<f64>)]) {
    for (w, a, b) in pairs {
        for i in 0..c.nrows() {
            for j in 0..c.ncols() {
                c[(i, j)] -= 0.5 * w * (a[i] * b[j] + a[j] * b[i]);
            }
        }
    }
}

/// The residuals of each class around its own mean, stacked.
fn residuals(classes: &[Array2<f64>; 2]) -> Array2<f64> {
    let parts = classes.each_ref().map(|x| x - &mean(x.view()));
    ndarray::concatenate(Axis(0), &[parts[0].view(), parts[1].view()])
        .expect("both classes have d columns")
}

/// Ledoit–Wolf (2004): S = ZᵀZ/N of the N residual rows Z shrunk towards νI, ν = tr S/d,
/// with intensity min(b̄², ‖S − νI‖²)/‖S − νI‖², b̄² = Σ_i ‖z_i z_iᵀ − S‖²/N².
fn ledoit_wolf(z: &Array2<f64>) -> Mat<f64> {
    let (rows, d) = (z.nrows() as f64, z.ncols());
    let mut s = gram(&z.view(), 1.0 / rows);
    let nu = (0..d).map(|i| s[(i, i)]).sum::<f64>() / d as f64;
    let s_norm2: f64 =
        (0..d).flat_map(|i| (0..d).map(move |j| (i, j))).map(|(i, j)| s[(i, j)].powi(2)).sum();
    let dist2 = s_norm2 - 2.0 * nu * nu * d as f64 + nu * nu * d as f64;
    let sz = faer::Mat::from_fn(d, z.nrows(), |i, r| z[(r, i)]);
    let s_z = &s * &sz;
    let b_bar2: f64 = (0..z.nrows())
        .map(|r| {
            let norm2: f64 = z.row(r).iter().map(|v| v * v).sum();
            let quad: f64 = (0..d).map(|i| z[(r, i)] * s_z[(i, r)]).sum();
            norm2 * norm2 - 2.0 * quad + s_norm2
        })
        .sum::<f64>()
        / (rows * rows);
    let shrink = if dist2 > 0.0 { (b_bar2.min(dist2) / dist2).clamp(0.0, 1.0) } else { 1.0 };
    for i in 0..d {
        for j in 0..d {
            s[(i, j)] *= 1.0 - shrink;
        }
        s[(i, i)] += shrink * nu;
    }
    s
}

/// The common-covariance setting of an estimator (not [`Estimator::Isotropic`]); `y_u` (the
/// unlabeled truth) is read by [`Estimator::TrueLabels`] only, which needs it.
pub fn common_setting(
    prep: &Moments,
    y_u: Option<&Array1<f64>>,
    estimator: Estimator,
) -> Result<CommonSetting> {
    let truth = match (estimator, y_u) {
        (Estimator::TrueLabels, None) => {
            return Err(Error::param("estimator", "true_labels needs the unlabeled labels"));
        }
        (Estimator::TrueLabels, y) => y,
        _ => None,
    };
    let classes = class_rows(prep, truth)?;
    let labeled = [1.0, -1.0].map(|c| prep.y_l.iter().filter(|&&y| y == c).count());
    let n_u = prep.n_unlabeled();
    let unlabeled = match truth {
        Some(y) => [1.0, -1.0].map(|c| y.iter().filter(|&&v| v == c).count()),
        None => {
            let u1 = (n_u as f64 * labeled[0] as f64 / (labeled[0] + labeled[1]) as f64).round();
            [u1 as usize, n_u - u1 as usize]
        }
    };
    let halves = classes.each_ref().map(|x| {
        let h = x.nrows() / 2;
        [mean(x.slice(s![..h, ..])), mean(x.slice(s![h.., ..]))]
    });
    let means = classes.each_ref().map(|x| mean(x.view()));
    let covariance = match estimator {
        Estimator::LabeledShrinkage => ledoit_wolf(&residuals(&classes)),
        Estimator::TrueLabels => {
            let z = residuals(&classes);
            gram(&z.view(), 1.0 / (z.nrows() as f64 - 2.0))
        }
        Estimator::Isotropic => {
            return Err(Error::param("estimator", "the isotropic estimate has no covariance"));
        }
        Estimator::AllMinusBetween => {
            let n = prep.n() as f64;
            let rho = [0, 1].map(|k| (labeled[k] + unlabeled[k]) as f64 / n);
            let mut c = &prep.c_l + &prep.c_u;
            subtract_outer(
                &mut c,
                &[(rho[0], &halves[0][0], &halves[0][1]), (rho[1], &halves[1][0], &halves[1][1])],
            );
            c
        }
    };
    let eig = sym_eigen(covariance.as_ref(), "eigen-decomposition of the covariance estimate")?;
    let u = &eig.vectors;
    let rotate = |v: &Array1<f64>| -> Vec<f64> {
        (0..u.ncols()).map(|k| (0..u.nrows()).map(|i| u[(i, k)] * v[i]).sum()).collect()
    };
    CommonSetting::new(
        labeled,
        unlabeled,
        eig.values,
        halves.each_ref().map(|h| [rotate(&h[0]), rotate(&h[1])]),
        means.each_ref().map(rotate),
    )
}

/// N(m_j, σ_j²) of the unlabeled scores of class +1 and −1 at (α_l, α_u) with the λ policy
/// the classifier used, under `estimator`; the inner error says why the theory has no value.
pub fn estimated_gaussians(
    prep: &Moments,
    y_u: &Array1<f64>,
    estimator: Estimator,
    policy: LambdaPolicy,
    al: f64,
    au: f64,
) -> Result<std::result::Result<[(f64, f64); 2], Invalid>> {
    if estimator == Estimator::Isotropic {
        let est = estimate_setting(prep, Scale::LabeledWithin)?;
        let lambda = theory_lambda(&est.setting, policy, est.variance)?;
        return Ok(
            predict(&est.setting, al, au, lambda).map(|p| [(p.m[0], p.sigma), (p.m[1], p.sigma)])
        );
    }
    let setting = common_setting(prep, Some(y_u), estimator)?;
    let lambda = common_lambda(&setting, policy)?;
    Ok(predict_common(&setting, al, au, lambda)
        .map(|p| [(p.m[0], p.sigma[0]), (p.m[1], p.sigma[1])]))
}
