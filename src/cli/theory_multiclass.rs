//! `sslab theory --classes K` for K ≥ 3: the K-class theory's mean score vectors, their
//! common covariance and the argmax error, as text or JSON.

use faer::Mat;
use sslab::methods::qlds::LambdaPolicy;
use sslab::methods::qlds::theory::{
    MulticlassSetting, SPLIT_LIMIT, multiclass_lambda, predict_multiclass,
};
use sslab::{Error, Result};

use super::output::json_number;

/// The setting of `--g` (K×K, uncentred) or of orthogonal means of norm `--mean-norm`.
pub fn setting(
    dim: usize,
    labeled: Vec<usize>,
    unlabeled: Vec<usize>,
    g: Option<Vec<Vec<f64>>>,
    mean_norm: Option<f64>,
) -> Result<MulticlassSetting> {
    match (g, mean_norm) {
        (Some(g), _) => {
            let k = g.len();
            MulticlassSetting::centred(dim, labeled, unlabeled, Mat::from_fn(k, k, |i, j| g[i][j]))
        }
        (None, Some(norm)) => MulticlassSetting::orthogonal(dim, labeled, unlabeled, norm),
        (None, None) => Err(Error::param("mean_norm", "give --mean-norm or --g")),
    }
}

/// Prints the prediction at (α_l, α_u) and the policy's λ (or why the theory has no value).
pub fn run(
    s: &MulticlassSetting,
    al: f64,
    au: f64,
    policy: LambdaPolicy,
    json: bool,
) -> Result<()> {
    let lambda = multiclass_lambda(s, policy, 1.0)?;
    let k = s.classes();
    let list = |v: &[f64]| v.iter().map(|x| json_number(*x)).collect::<Vec<_>>().join(", ");
    let rows = |m: &Mat<f64>| {
        (0..k).map(|i| (0..k).map(|j| m[(i, j)]).collect::<Vec<_>>()).collect::<Vec<_>>()
    };
    match (predict_multiclass(s, al, au, lambda), json) {
        (Ok(p), true) => {
            let matrix = |m: &[Vec<f64>]| {
                m.iter().map(|r| format!("[{}]", list(r))).collect::<Vec<_>>().join(", ")
            };
            println!(
                "{{\"valid\": true, \"classes\": {k}, \"means\": [{}], \"covariance\": [{}], \"class_errors\": [{}], \"error\": {}, \"delta\": {}, \"split_ratio\": {}, \"lambda\": {}}}",
                matrix(&p.means),
                matrix(&rows(&p.covariance)),
                list(&p.class_errors),
                json_number(p.error),
                json_number(p.delta),
                json_number(p.split_ratio),
                json_number(lambda)
            );
        }
        (Err(why), true) => println!(
            "{{\"valid\": false, \"classes\": {k}, \"reason\": \"{why}\", \"lambda\": {}}}",
            json_number(lambda)
        ),
        (Ok(p), false) => {
            let fixed =
                |v: &[f64]| v.iter().map(|x| format!("{x:.6}")).collect::<Vec<_>>().join(", ");
            println!("λ = {lambda:.6} ({}), K = {k} classes", policy.name());
            for (j, (m, e)) in p.means.iter().zip(&p.class_errors).enumerate() {
                println!("class {}: m = ({}), error {e:.6}", j + 1, fixed(m));
            }
            println!("covariance of the scores:");
            for r in rows(&p.covariance) {
                println!("  {}", fixed(&r));
            }
            println!(
                "error = {:.6}\nvalid: yes (δ = {:.6}; finite-n spike split {:.3} < {SPLIT_LIMIT})",
                p.error, p.delta, p.split_ratio
            );
        }
        (Err(why), false) => {
            println!("λ = {lambda:.6} ({}), K = {k} classes\nvalid: no ({why})", policy.name())
        }
    }
    Ok(())
}
