//! `sslab plot-scores`: histogram of one method's unlabeled scores on one split, per true
//! class (PNG), optionally with the method's theoretical score distributions.

use std::path::PathBuf;

use sslab::engine::{Scores, Split, Store};
use sslab::report::{self, figures};
use sslab::{Error, Result, protocol};

use super::output::create_parent;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pick: super::Pick,
    #[arg(long, default_value_t = 0)]
    split: usize,
    #[arg(long, default_value_t = 40)]
    bins: usize,
    /// Overlay the theoretical Gaussians N(m_j, σ_j²) at the α the method used (QLDS
    /// methods; true means on synthetic data, estimated ones otherwise).
    #[arg(long)]
    theory: bool,
    /// Output PNG.
    #[arg(long)]
    out: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    let (exp, d, m) = a.pick.load()?;
    if a.split >= exp.splits {
        return Err(Error::Data(format!(
            "split {} does not exist ({} splits)",
            a.split, exp.splits
        )));
    }
    let (spec, method) = (&exp.datasets[d], &exp.methods[m]);
    let drawn = protocol::draw(spec, exp.seed, a.split)?;
    let problem = &drawn.problem;
    let (dataset_store, split_store) = (Store::default(), Store::default());
    let split = Split {
        problem,
        source: &spec.source,
        rows: drawn.rows.as_deref(),
        dataset_store: &dataset_store,
        split_store: &split_store,
        test: None,
    };
    let fitted = method.method.fit(&split)?;
    let Scores::Binary(scores) = &fitted.scores else {
        return Err(Error::Data(format!(
            "`{}` gives per-class scores; the histogram needs binary ones",
            method.name
        )));
    };
    let error = fitted.scores.error(problem);
    let gaussians = match a.theory {
        false => None,
        true => Some(method.method.theory(&split, &fitted)?.ok_or_else(|| {
            Error::param(
                "theory",
                "the overlay needs a method with a theory (QLDS, fixed or selected α)",
            )
        })?),
    };
    create_parent(&a.out)?;
    let hist = figures::ScoreHistogram {
        scores: scores.as_slice().unwrap_or(&[]),
        labels: problem.y_u.as_slice().unwrap_or(&[]),
        title: match (fitted.number("alpha_l"), fitted.number("alpha_u")) {
            (Some(al), Some(au)) => format!(
                "{} (α_l = {al:.2}, α_u = {au:.2}) on {}, split {}: error {:.2}%",
                method.name,
                spec.name,
                a.split,
                100.0 * error
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
    figures::score_histogram(&hist, &a.out)?;
    println!("wrote {}", a.out.display());
    Ok(())
}
