//! `sslab plot-scores`: histogram of one method's unlabeled scores on one split, per true
//! class (PNG), optionally with the method's theoretical score distributions and, beside the
//! PNG, a CSV of the per-class empirical and theoretical means and spreads.

use std::path::PathBuf;

use sslab::data::DataSource;
use sslab::engine::Scores;
use sslab::methods::qlds::theory::Estimator;
use sslab::report::{self, figures};
use sslab::{Error, Result};

use super::output::{create_parent, write_formats};
use super::theory_fit::{SplitFit, class_moments, fit_rows, fit_split};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pick: super::Pick,
    #[arg(long, default_value_t = 0)]
    split: usize,
    #[arg(long, default_value_t = 40)]
    bins: usize,
    /// Overlay the theoretical Gaussians N(m_j, σ_j²) at the α the method used (QLDS
    /// methods; true means on synthetic data, estimated ones otherwise) and write the
    /// per-class fit beside the PNG (same name, .csv).
    #[arg(long)]
    theory: bool,
    /// The estimate of the setting on data read from files (`sslab theory-fit` compares
    /// them): isotropic, labeled_shrinkage, all_minus_between, true_labels (a reference).
    #[arg(long, default_value = "isotropic")]
    estimator: String,
    /// Other datasets of the config laid over the first in one panel (Fig. 3: the sizes of
    /// a concentration study), as score densities per dataset and class (comma-separated;
    /// no theory overlay then).
    #[arg(long, value_delimiter = ',')]
    overlay: Vec<String>,
    /// Output file; its extension is replaced per --format.
    #[arg(short, long)]
    out: PathBuf,
    /// png, svg or both (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "png", value_parser = ["png", "svg"])]
    format: Vec<String>,
}

/// The binary unlabeled scores of `method` on dataset `d`, split `split`, with the labels.
fn binary_scores(
    exp: &sslab::config::Experiment,
    d: usize,
    m: usize,
    split: usize,
) -> Result<(Vec<f64>, Vec<f64>)> {
    let (problem, _, fitted) = fit_split(exp, &exp.datasets[d], &exp.methods[m], split)?;
    let Scores::Binary(scores) = &fitted.scores else {
        return Err(Error::Data(format!(
            "`{}` gives per-class scores; the histogram needs binary ones",
            exp.methods[m].name
        )));
    };
    Ok((scores.to_vec(), problem.y_u.to_vec()))
}

/// `--overlay`: the densities of every listed dataset in one panel.
fn overlay(a: &Args, exp: &sslab::config::Experiment, d: usize, m: usize) -> Result<()> {
    let names: Vec<&str> = exp.datasets.iter().map(|x| x.name.as_str()).collect();
    let mut runs = vec![(names[d].to_string(), binary_scores(exp, d, m, a.split)?)];
    for name in &a.overlay {
        let Some(k) = names.iter().position(|n| n == name) else {
            let hint = sslab::support::suggest::did_you_mean(name, names.iter().copied());
            return Err(Error::Data(format!(
                "--overlay: no dataset `{name}` in the config{hint} (datasets: {})",
                names.join(", ")
            )));
        };
        runs.push((name.clone(), binary_scores(exp, k, m, a.split)?));
    }
    let runs: Vec<(String, Vec<f64>, Vec<f64>)> =
        runs.into_iter().map(|(n, (s, l))| (n, s, l)).collect();
    let curves = figures::scores::density_curves(&runs, a.bins)?;
    let plot = figures::curves::CurvePlot {
        curves: &curves,
        title: format!(
            "{} scores on unlabeled points, one curve per dataset and class, split {}",
            exp.methods[m].name, a.split
        ),
        x_label: "score f(x) on unlabeled points (central 99 % of all runs)".into(),
        y_label: "density".into(),
        stamp: report::stamp(&exp.hash),
        bounds: (Some(0.0), None),
        facet: false,
    };
    write_formats(&a.out, &a.format, |out| figures::curves::draw(&plot, out))
}

pub fn run(a: Args) -> Result<()> {
    let (exp, d, m) = a.pick.load()?;
    if a.split >= exp.splits {
        return Err(Error::Data(format!(
            "split {} does not exist ({} splits)",
            a.split, exp.splits
        )));
    }
    if !a.overlay.is_empty() {
        return overlay(&a, &exp, d, m);
    }
    let (spec, method) = (&exp.datasets[d], &exp.methods[m]);
    let estimator = Estimator::parse(&a.estimator)?;
    let (problem, rows, fitted) = fit_split(&exp, spec, method, a.split)?;
    let problem = &problem;
    let Scores::Binary(scores) = &fitted.scores else {
        return Err(Error::Data(format!(
            "`{}` gives per-class scores; the histogram needs binary ones",
            method.name
        )));
    };
    let error = fitted.scores.error(problem);
    let no_theory = || {
        Error::param(
            "theory",
            "the overlay needs a method with a theory (QLDS, fixed or selected α)",
        )
    };
    // Synthetic data: the method's own overlay with the true means; otherwise the estimate.
    let (gaussians, fit, named) = match (a.theory, &spec.source) {
        (false, _) => (None, None, None),
        (true, DataSource::Generated(g)) if g.mixture().is_some() => {
            let (Some(al), Some(au), Some(lambda)) =
                (fitted.number("alpha_l"), fitted.number("alpha_u"), fitted.number("lambda"))
            else {
                return Err(no_theory());
            };
            let split = sslab::engine::Split {
                problem,
                source: Some(&spec.source),
                rows: rows.as_deref(),
                dataset_store: &Default::default(),
                split_store: &Default::default(),
                test: None,
                seed: sslab::protocol::derive_seed(exp.seed, &spec.name, a.split),
                index: a.split,
            };
            let g = method.method.theory(&split, &fitted)?.ok_or_else(no_theory)?;
            let fit = SplitFit {
                dataset: &spec.name,
                split: a.split,
                method: &method.name,
                alpha: (al, au),
                lambda,
                empirical: class_moments(scores, &problem.y_u),
            };
            (Some(g), Some(fit.rows("true_mixture", Ok(g)).to_vec()), None)
        }
        (true, _) => {
            let rows = fit_rows(&spec.name, a.split, method, problem, &fitted, &[estimator])?;
            let g = match rows.as_slice() {
                [p, q] => p.theory_mean.zip(p.theory_std).zip(q.theory_mean.zip(q.theory_std)),
                _ => None,
            };
            let g = g.ok_or_else(|| {
                Error::Data(format!("the theory has no value here: {}", rows[0].invalid))
            })?;
            (Some([g.0, g.1]), Some(rows), Some(estimator.name()))
        }
    };
    create_parent(&a.out)?;
    let hist = figures::ScoreHistogram {
        scores: scores.as_slice().unwrap_or(&[]),
        labels: problem.y_u.as_slice().unwrap_or(&[]),
        title: match (fitted.number("alpha_l"), fitted.number("alpha_u")) {
            (Some(al), Some(au)) => format!(
                "{} (αₗ = {al:.2}, αᵤ = {au:.2}) on {}, split {}: error {:.2}%{}",
                method.name,
                spec.name,
                a.split,
                100.0 * error,
                named.map_or(String::new(), |e| format!(" · theory: {e}"))
            ),
            _ => format!(
                "{} on {} (split {}): error {:.2}%",
                method.name,
                spec.name,
                a.split,
                100.0 * error
            ),
        },
        stamp: report::stamp(&exp.hash),
        bins: a.bins,
        gaussians,
    };
    write_formats(&a.out, &a.format, |out| figures::score_histogram(&hist, out))?;
    if let Some(rows) = fit {
        let csv = a.out.with_extension("csv");
        report::write_csv(&csv, &rows)?;
        println!("wrote {}", csv.display());
    }
    Ok(())
}
