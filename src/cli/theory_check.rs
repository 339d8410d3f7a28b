//! `sslab theory-check`: Monte-Carlo check of the theory on spec §5's grid (120 settings):
//! a CSV with theory and empirical mean/std/error per setting and a PNG of theory against
//! simulation.

use std::path::PathBuf;

use sslab::methods::qlds::LambdaPolicy;
use sslab::methods::qlds::theory::{CheckRow, run_check, spec_grid};
use sslab::report::{self, figures};
use sslab::{Error, Result};

use super::output::create_parent;

#[derive(clap::Args)]
pub struct Args {
    /// Independent draws per setting.
    #[arg(long, default_value_t = 5)]
    draws: usize,
    #[arg(long, default_value_t = 2023)]
    seed: u64,
    /// `max_eig_all` or `max_eig_unlabeled`.
    #[arg(long, default_value = "max_eig_all")]
    lambda: String,
    #[arg(short, long, default_value = "results/theory_check.csv")]
    out: PathBuf,
    #[arg(long, default_value = "figures/theory_check.png")]
    figure: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    let policy = LambdaPolicy::parse(&a.lambda, LambdaPolicy::EPSILON)
        .filter(|p| !matches!(p, LambdaPolicy::Fixed(_)))
        .ok_or_else(|| {
            Error::param(
                "lambda",
                format!("expected max_eig_all or max_eig_unlabeled, got `{}`", a.lambda),
            )
        })?;
    faer::set_global_parallelism(faer::Par::Seq);
    let rows = run_check(&spec_grid(), policy, a.draws, a.seed, true)?;
    create_parent(&a.out)?;
    create_parent(&a.figure)?;
    report::write_csv(&a.out, &rows)?;
    let points: Vec<_> = rows
        .iter()
        .filter_map(|r| {
            r.theory_error.map(|t| figures::ErrorPair {
                theory: t,
                empirical: r.empirical_error,
                empirical_std: r.empirical_error_std,
            })
        })
        .collect();
    let count = |f: fn(&CheckRow) -> bool| rows.iter().filter(|r| f(r)).count();
    let title = format!(
        "QLDS theory vs simulation: {} settings × {} draws, λ: {}",
        rows.len(),
        a.draws,
        a.lambda
    );
    let stamp = report::stamp(&format!("theory-check seed {}", a.seed));
    figures::theory_check(&points, &title, &stamp, &a.figure)?;
    println!(
        "{} settings: theory valid {}, error within 0.02: {}, m and σ within 10%: {}, m/σ within 10%: {}\nwrote {} and {}",
        rows.len(),
        count(|r| r.theory_valid),
        count(|r| r.error_within_002),
        count(|r| r.moments_within_10pct),
        count(|r| r.ratio_within_10pct),
        a.out.display(),
        a.figure.display()
    );
    Ok(())
}
