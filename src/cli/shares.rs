//! `sslab shares`: what a method predicts on each split, to see how it goes wrong: the error,
//! the share of unlabeled points predicted as each class beside the true share, and the
//! mean unlabeled score (binary: one mean, the offset of the scores; per class: one per class).

use sslab::engine::{Scores, Split, Store, argmax_rows};
use sslab::{Error, Result, protocol};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pick: super::Pick,
    /// Splits 0..N (default: all of the config's).
    #[arg(long)]
    splits: Option<usize>,
}

pub fn run(a: Args) -> Result<()> {
    let (exp, d, m) = a.pick.load()?;
    let (spec, method) = (&exp.datasets[d], &exp.methods[m]);
    let splits = a.splits.unwrap_or(exp.splits).min(exp.splits);
    let dataset_store = Store::default();
    println!(
        "{} on {} (shares of the unlabeled points, %: predicted / true)\n",
        method.name, spec.name
    );
    for s in 0..splits {
        let drawn = protocol::draw(spec, exp.seed, s)?;
        let problem = &drawn.problem;
        let split_store = Store::default();
        let split = Split {
            problem,
            source: Some(&spec.source),
            rows: drawn.rows.as_deref(),
            dataset_store: &dataset_store,
            split_store: &split_store,
            test: None,
            seed: protocol::derive_seed(exp.seed, &spec.name, s),
            index: s,
        };
        let fitted = method.method.fit(&split)?;
        let (predicted, means) = match &fitted.scores {
            Scores::Binary(f) => (
                f.iter().map(|v| usize::from(*v < 0.0)).collect(),
                vec![f.mean().unwrap_or(f64::NAN)],
            ),
            Scores::PerClass(f) => (
                argmax_rows(f),
                f.mean_axis(ndarray::Axis(0)).map(|m| m.to_vec()).unwrap_or_default(),
            ),
        };
        let share = |ids: &[usize], k: usize| {
            100.0 * ids.iter().filter(|&&c| c == k).count() as f64 / ids.len().max(1) as f64
        };
        let cells: Vec<String> = (0..problem.n_classes)
            .map(|k| format!("{:.1}/{:.1}", share(&predicted, k), share(&problem.classes_u, k)))
            .collect();
        let means: Vec<String> = means.iter().map(|v| format!("{v:+.3}")).collect();
        println!(
            "split {s}: error {:.2} %, shares {}, mean score {}",
            100.0 * fitted.scores.error(problem),
            cells.join(" "),
            means.join(" ")
        );
    }
    if splits == 0 {
        return Err(Error::Data("no split to run".into()));
    }
    Ok(())
}
