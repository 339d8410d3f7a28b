//! `sslab report`: a static HTML site of run folders (default: every run folder under
//! results/) that opens offline; see docs/report.md.

use std::path::PathBuf;

use sslab::Result;
use sslab::report::html;

#[derive(clap::Args)]
pub struct Args {
    /// Run folders (OUT/<name> of `sslab run`); default: every folder under --results
    /// holding a results.csv or a summary.md.
    runs: Vec<PathBuf>,
    /// Output folder of the site (index.html, a page per run, img/).
    #[arg(short, long, default_value = "out/report")]
    out: PathBuf,
    /// Where to look for run folders when none is given.
    #[arg(long, default_value = "results")]
    results: PathBuf,
    /// The repository root: its configs/, figures/ and docs/reproduction/ feed the site.
    #[arg(long, default_value = ".")]
    root: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    let runs = if a.runs.is_empty() { html::run_dirs(&a.results)? } else { a.runs };
    let pages = html::write(&runs, &a.root, &a.out)?;
    println!(
        "wrote {} pages for {} run folders; open {}",
        pages.len(),
        runs.len(),
        a.out.join("index.html").display()
    );
    Ok(())
}
