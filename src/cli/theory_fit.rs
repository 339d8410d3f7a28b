//! `sslab theory-fit`: how well Theorem 1 describes a QLDS method's unlabeled scores on
//! every split of a config, per estimate of the setting: one CSV row per split, estimator
//! and class (empirical mean/std, theoretical m_j, σ_j), and a summary per dataset and
//! estimator (mean over splits of σ_th/σ_emp and (m_th − m_emp)/σ_emp).

use std::path::{Path, PathBuf};

use ndarray::Array1;
use rayon::prelude::*;
use serde::Serialize;

use sslab::config::{DatasetSpec, Experiment, MethodSpec};
use sslab::data::Problem;
use sslab::engine::{Fitted, Scores, Split, Store};
use sslab::methods::qlds::theory::{Estimator, estimated_gaussians};
use sslab::methods::qlds::{LambdaPolicy, Moments};
use sslab::{Error, Result, protocol, report};

use super::output::{create_parent, write};

#[derive(clap::Args)]
pub struct Args {
    config: PathBuf,
    /// Datasets (comma-separated; default: all of the config's).
    #[arg(long, value_delimiter = ',')]
    datasets: Vec<String>,
    /// The QLDS method whose scores are compared (default: `QLDS(th)`).
    #[arg(long, default_value = "QLDS(th)")]
    method: String,
    /// Estimators (comma-separated; default: all).
    #[arg(long, value_delimiter = ',')]
    estimators: Vec<String>,
    /// Output folder: fit.csv (per split) and summary.csv, summary.md.
    #[arg(long)]
    out: PathBuf,
}

/// One class of one split under one estimator.
#[derive(Debug, Clone, Serialize)]
pub struct FitRow {
    pub dataset: String,
    pub split: usize,
    pub method: String,
    pub alpha_l: f64,
    pub alpha_u: f64,
    pub lambda: f64,
    pub estimator: &'static str,
    /// +1 or −1.
    pub class: i8,
    /// Unlabeled points of the class.
    pub count: usize,
    pub empirical_mean: f64,
    pub empirical_std: f64,
    /// Empty where the theory has no value (then `invalid` says why).
    pub theory_mean: Option<f64>,
    pub theory_std: Option<f64>,
    /// σ_th/σ_emp and (m_th − m_emp)/σ_emp.
    pub std_ratio: Option<f64>,
    pub mean_shift: Option<f64>,
    pub invalid: String,
}

/// A dataset's split `split` drawn as the runner draws it (its problem and, for subsets of
/// a dataset, its rows), with `method` fitted on it.
pub fn fit_split(
    exp: &Experiment,
    spec: &DatasetSpec,
    method: &MethodSpec,
    split: usize,
) -> Result<(Problem, Option<Vec<usize>>, Fitted)> {
    let drawn = protocol::draw(spec, exp.seed, split)?;
    let (dataset_store, split_store) = (Store::default(), Store::default());
    let fitted = method.method.fit(&Split {
        problem: &drawn.problem,
        source: Some(&spec.source),
        rows: drawn.rows.as_deref(),
        dataset_store: &dataset_store,
        split_store: &split_store,
        test: None,
        seed: protocol::derive_seed(exp.seed, &spec.name, split),
        index: split,
    })?;
    Ok((drawn.problem, drawn.rows, fitted))
}

/// Mean and sample standard deviation of the scores of class +1 and of class −1.
pub fn class_moments(scores: &Array1<f64>, y: &Array1<f64>) -> [(usize, f64, f64); 2] {
    [1.0, -1.0].map(|label| {
        let class: Vec<f64> =
            scores.iter().zip(y).filter(|(_, t)| **t == label).map(|(s, _)| *s).collect();
        let k = class.len() as f64;
        let mean = class.iter().sum::<f64>() / k;
        let var = class.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (k - 1.0);
        (class.len(), mean, var.sqrt())
    })
}

/// What the rows of one split share: where they come from and the fitted point.
pub struct SplitFit<'a> {
    pub dataset: &'a str,
    pub split: usize,
    pub method: &'a str,
    pub alpha: (f64, f64),
    pub lambda: f64,
    /// Count, mean and std of the unlabeled scores of class +1 and −1.
    pub empirical: [(usize, f64, f64); 2],
}

impl SplitFit<'_> {
    /// The two rows (class +1, −1) of one estimator's Gaussians, or why it has none.
    pub fn rows(
        &self,
        estimator: &'static str,
        theory: std::result::Result<[(f64, f64); 2], String>,
    ) -> [FitRow; 2] {
        [0, 1].map(|j| {
            let (count, mean, std) = self.empirical[j];
            let th = theory.as_ref().ok().map(|t| t[j]);
            FitRow {
                dataset: self.dataset.to_string(),
                split: self.split,
                method: self.method.to_string(),
                alpha_l: self.alpha.0,
                alpha_u: self.alpha.1,
                lambda: self.lambda,
                estimator,
                class: if j == 0 { 1 } else { -1 },
                count,
                empirical_mean: mean,
                empirical_std: std,
                theory_mean: th.map(|t| t.0),
                theory_std: th.map(|t| t.1),
                std_ratio: th.map(|t| t.1 / std),
                mean_shift: th.map(|t| (t.0 - mean) / std),
                invalid: theory.as_ref().err().cloned().unwrap_or_default(),
            }
        })
    }
}

/// The rows of one fitted QLDS split for the given estimators.
pub fn fit_rows(
    dataset: &str,
    split: usize,
    method: &MethodSpec,
    problem: &Problem,
    fitted: &Fitted,
    estimators: &[Estimator],
) -> Result<Vec<FitRow>> {
    let Scores::Binary(scores) = &fitted.scores else {
        return Err(Error::Data(format!("`{}` does not give binary scores", method.name)));
    };
    let (Some(al), Some(au), Some(lambda)) =
        (fitted.number("alpha_l"), fitted.number("alpha_u"), fitted.number("lambda"))
    else {
        return Err(Error::param("method", format!("`{}` is not a QLDS method", method.name)));
    };
    let label = fitted.label("lambda_policy").unwrap_or_default();
    let policy = match LambdaPolicy::parse(label, LambdaPolicy::EPSILON) {
        Some(LambdaPolicy::Fixed(_)) | None => LambdaPolicy::Fixed(lambda),
        Some(p) => p,
    };
    let prep = Moments::new(problem)?;
    let fit = SplitFit {
        dataset,
        split,
        method: &method.name,
        alpha: (al, au),
        lambda,
        empirical: class_moments(scores, &problem.y_u),
    };
    let mut rows = Vec::new();
    for &estimator in estimators {
        let theory = estimated_gaussians(&prep, &problem.y_u, estimator, policy, al, au)?;
        rows.extend(fit.rows(estimator.name(), theory.map_err(|e| e.to_string())));
    }
    Ok(rows)
}

/// Per dataset, estimator and class: means over the valid splits.
#[derive(Debug, Clone, Serialize)]
pub struct SummaryRow {
    pub dataset: String,
    pub estimator: &'static str,
    pub class: i8,
    pub valid_splits: usize,
    pub splits: usize,
    /// Mean of σ_th/σ_emp and of |σ_th/σ_emp − 1|.
    pub std_ratio: Option<f64>,
    pub abs_std_error: Option<f64>,
    /// Mean of (m_th − m_emp)/σ_emp and of its absolute value.
    pub mean_shift: Option<f64>,
    pub abs_mean_shift: Option<f64>,
}

/// The summary of `rows` in their order of first appearance.
pub fn summarise(rows: &[FitRow]) -> Vec<SummaryRow> {
    let mut keys: Vec<(&str, &'static str, i8)> = Vec::new();
    for r in rows {
        let k = (r.dataset.as_str(), r.estimator, r.class);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    keys.into_iter()
        .map(|(dataset, estimator, class)| {
            let group: Vec<&FitRow> = rows
                .iter()
                .filter(|r| r.dataset == dataset && r.estimator == estimator && r.class == class)
                .collect();
            let valid: Vec<&&FitRow> = group.iter().filter(|r| r.std_ratio.is_some()).collect();
            let avg = |f: &dyn Fn(&FitRow) -> f64| {
                (!valid.is_empty())
                    .then(|| valid.iter().map(|r| f(r)).sum::<f64>() / valid.len() as f64)
            };
            SummaryRow {
                dataset: dataset.to_string(),
                estimator,
                class,
                valid_splits: valid.len(),
                splits: group.len(),
                std_ratio: avg(&|r| r.std_ratio.unwrap_or(f64::NAN)),
                abs_std_error: avg(&|r| (r.std_ratio.unwrap_or(f64::NAN) - 1.0).abs()),
                mean_shift: avg(&|r| r.mean_shift.unwrap_or(f64::NAN)),
                abs_mean_shift: avg(&|r| r.mean_shift.unwrap_or(f64::NAN).abs()),
            }
        })
        .collect()
}

fn markdown(exp: &Experiment, method: &str, summary: &[SummaryRow]) -> String {
    let f = |v: Option<f64>| v.map_or("–".to_string(), |v| format!("{v:.3}"));
    let mut md = format!(
        "# Theory fit of {method} on {} ({} splits)\n\nPer class (+1 / −1): mean over the valid splits of σ_th/σ_emp, |σ_th/σ_emp − 1|, (m_th − m_emp)/σ_emp and its absolute value.\n\n| dataset | estimator | valid | σ_th/σ_emp | \\|σ_th/σ_emp − 1\\| | (m_th − m_emp)/σ_emp | \\|m_th − m_emp\\|/σ_emp |\n|---|---|---|---|---|---|---|\n",
        exp.name, exp.splits
    );
    for pair in summary.chunks(2) {
        let [a, b] = pair else { continue };
        md += &format!(
            "| {} | {} | {}/{} | {} / {} | {} / {} | {} / {} | {} / {} |\n",
            a.dataset,
            a.estimator,
            a.valid_splits.min(b.valid_splits),
            a.splits,
            f(a.std_ratio),
            f(b.std_ratio),
            f(a.abs_std_error),
            f(b.abs_std_error),
            f(a.mean_shift),
            f(b.mean_shift),
            f(a.abs_mean_shift),
            f(b.abs_mean_shift)
        );
    }
    md + &format!("\n{}\n", report::stamp(&exp.hash))
}

pub fn run(a: Args) -> Result<()> {
    let exp = sslab::config::load(&a.config)?;
    let method = exp.methods.iter().find(|m| m.name == a.method).ok_or_else(|| {
        Error::Data(format!("no method `{}` in {}", a.method, exp.path.display()))
    })?;
    for d in &a.datasets {
        if !exp.datasets.iter().any(|s| &s.name == d) {
            return Err(Error::Data(format!("no dataset `{d}` in {}", exp.path.display())));
        }
    }
    let estimators = match a.estimators.is_empty() {
        true => Estimator::ALL.to_vec(),
        false => a.estimators.iter().map(|e| Estimator::parse(e)).collect::<Result<_>>()?,
    };
    let specs: Vec<&DatasetSpec> = exp
        .datasets
        .iter()
        .filter(|s| a.datasets.is_empty() || a.datasets.contains(&s.name))
        .collect();
    faer::set_global_parallelism(faer::Par::Seq);
    let jobs: Vec<(&DatasetSpec, usize)> =
        specs.iter().flat_map(|s| (0..exp.splits).map(move |k| (*s, k))).collect();
    let bar = indicatif::ProgressBar::new(jobs.len() as u64);
    let rows: Vec<Vec<FitRow>> = jobs
        .par_iter()
        .map(|&(spec, split)| {
            let (problem, _, fitted) = fit_split(&exp, spec, method, split)?;
            let rows = fit_rows(&spec.name, split, method, &problem, &fitted, &estimators);
            bar.inc(1);
            rows
        })
        .collect::<Result<_>>()?;
    bar.finish_and_clear();
    let rows: Vec<FitRow> = rows.into_iter().flatten().collect();
    let summary = summarise(&rows);
    write_outputs(&a.out, &exp, &a.method, &rows, &summary)
}

fn write_outputs(
    dir: &Path,
    exp: &Experiment,
    method: &str,
    rows: &[FitRow],
    summary: &[SummaryRow],
) -> Result<()> {
    let (fit, csv, md) = (dir.join("fit.csv"), dir.join("summary.csv"), dir.join("summary.md"));
    create_parent(&fit)?;
    report::write_csv(&fit, rows)?;
    report::write_csv(&csv, summary)?;
    let text = markdown(exp, method, summary);
    write(&md, &text)?;
    println!("{text}\nwrote {}, {} and {}", fit.display(), csv.display(), md.display());
    Ok(())
}
