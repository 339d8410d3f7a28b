//! `sslab table`: tables from result files (OUT/NAME.{md,tex,csv}) and, with --published,
//! the comparison with the paper (OUT/NAME_vs_paper.md).

use std::path::PathBuf;

use sslab::report::tables::{self, rank_csv, rank_render};
use sslab::report::{self};
use sslab::{Error, Result};

use super::output::{hashes, read_all, write};

#[derive(clap::Args)]
pub struct Args {
    /// One or more results.csv files (their rows are pooled).
    #[arg(required = true)]
    results: Vec<PathBuf>,
    /// Base name of the outputs.
    #[arg(long)]
    name: String,
    /// Output folder of NAME.md, NAME.tex and NAME.csv.
    #[arg(short, long, default_value = "results/tables")]
    out: PathBuf,
    /// A published-numbers file (configs/published/*.csv) to compare with.
    #[arg(long)]
    published: Option<PathBuf>,
    /// Only these methods, in this order (comma-separated); significance is computed
    /// among them.
    #[arg(long, value_delimiter = ',')]
    methods: Option<Vec<String>>,
    /// What the cells summarise: error or prbep on the unlabeled rows, test_error or
    /// test_prbep on the held-out test rows (in %; PRBEP: higher is better), or any other
    /// numeric column of results.csv as written (a value the fits reported such as lambda
    /// or gamma, a swept key, fit_seconds; lower taken as better).
    #[arg(long, default_value = "error")]
    value: String,
    /// Only these datasets, in this order (comma-separated; names as in results.csv before
    /// --rows relabels them).
    #[arg(long, value_delimiter = ',')]
    datasets: Option<Vec<String>>,
    /// One table row per value of this swept key (a results.csv column) instead of one
    /// per dataset; a method key is dropped from the method names.
    #[arg(long)]
    rows: Option<String>,
    /// Also the comparison across datasets: average ranks over the datasets every ranked
    /// method ran on, the Friedman and Iman–Davenport tests, Nemenyi and Holm post-hoc
    /// tests, and where each method family wins (appended to NAME.md and NAME.tex;
    /// NAME_ranks.csv, NAME_friedman.csv, NAME_pairs.csv; the critical-difference diagram
    /// FIGURES/NAME_cd.{png,svg}).
    #[arg(long)]
    rank: bool,
    /// With --rank: the control method of the Holm comparisons (default: the best average
    /// rank).
    #[arg(long, requires = "rank")]
    control: Option<String>,
    /// With --rank: the folder of the critical-difference diagram.
    #[arg(long, default_value = "figures")]
    figures: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    let mut rows = read_all(&a.results)?;
    let measure = match a.value.as_str() {
        "error" => tables::ERROR,
        "prbep" => tables::PRBEP,
        "test_error" => tables::TEST_ERROR,
        "test_prbep" => tables::TEST_PRBEP,
        column => tables::Measure::column(&rows, column)?,
    };
    if let Some(list) = &a.datasets {
        let known = tables::distinct(&rows, |r| &r.dataset);
        if let Some(missing) = list.iter().find(|d| !known.contains(&d.as_str())) {
            return Err(tables::no_match("dataset", missing, &known));
        }
        rows.retain(|r| list.contains(&r.dataset));
        rows.sort_by_key(|r| list.iter().position(|d| *d == r.dataset));
    }
    if let Some(key) = &a.rows {
        rows = report::swept::along(&rows, key)?.into_iter().map(|(r, _)| r).collect();
    }
    if let Some(list) = &a.methods {
        let known = tables::distinct(&rows, |r| &r.method);
        if let Some(missing) = list.iter().find(|m| !known.contains(&m.as_str())) {
            return Err(tables::no_match("method", missing, &known));
        }
        rows.retain(|r| list.contains(&r.method));
        rows.sort_by_key(|r| list.iter().position(|m| *m == r.method));
    }
    let t = tables::build(&rows, measure, &report::stamp(&hashes(&rows)))?;
    let (out, name) = (&a.out, &a.name);
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let (mut md, mut tex) = (tables::markdown(&t), tables::latex(&t));
    if a.rank {
        let families = tables::rank::families(&t, &rows)?;
        let across = tables::across::across(&t, a.control.as_deref())?;
        md.push_str(&rank_render::markdown(&t, &families, &across, name));
        tex.push_str(&rank_render::latex(&t, &families, &across));
        write(&out.join(format!("{name}_ranks.csv")), &rank_csv::csv(&t, &families, &across)?)?;
        write(&out.join(format!("{name}_friedman.csv")), &rank_csv::friedman_csv(&t, &across)?)?;
        write(&out.join(format!("{name}_pairs.csv")), &rank_csv::pairs_csv(&t, &across)?)?;
        if across.friedman.is_some() {
            std::fs::create_dir_all(&a.figures).map_err(|e| Error::io(&a.figures, e))?;
            for ext in ["png", "svg"] {
                let path = a.figures.join(format!("{name}_cd.{ext}"));
                report::figures::cd_diagram(
                    &report::figures::CdDiagram::new(&t, &across),
                    &t.stamp,
                    &path,
                )?;
                println!("wrote {}", path.display());
            }
        }
    }
    write(&out.join(format!("{name}.md")), &md)?;
    write(&out.join(format!("{name}.tex")), &tex)?;
    write(&out.join(format!("{name}.csv")), &tables::csv(&t)?)?;
    println!("{md}");
    if let Some(p) = &a.published {
        let cmp = report::compare::markdown(
            &t,
            &report::compare::load_published(p)?,
            &p.display().to_string(),
        );
        write(&out.join(format!("{name}_vs_paper.md")), &cmp)?;
        println!("{cmp}");
    }
    println!("wrote {}/{name}.{{md,tex,csv}}", out.display());
    Ok(())
}
