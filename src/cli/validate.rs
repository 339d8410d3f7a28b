//! `sslab validate`: check a config without running it; lists the entries (sweeps expanded)
//! and what each tuned method's grid costs.

use std::path::PathBuf;

use sslab::methods::command::Command;
use sslab::protocol::estimate;
use sslab::protocol::progress::duration;
use sslab::{Result, config};

#[derive(clap::Args)]
pub struct Args {
    /// The config file (TOML).
    config: PathBuf,
    /// Also print the run's estimated wall time, from the methods' cost estimates.
    #[arg(long)]
    estimate: bool,
    /// Threads the estimate assumes (default: all cores).
    #[arg(long, value_parser = super::at_least_one)]
    threads: Option<usize>,
}

pub fn run(a: Args) -> Result<()> {
    let exp = config::load(&a.config)?;
    println!(
        "{}: ok (experiment `{}`, {} datasets × {} splits × {} methods, hash {})",
        a.config.display(),
        exp.name,
        exp.datasets.len(),
        exp.splits,
        exp.methods.len(),
        exp.hash
    );
    let show = |swept: &[(String, String)]| {
        swept.iter().map(|(k, v)| format!(" {k}={v}")).collect::<String>()
    };
    for d in &exp.datasets {
        println!("  dataset {}{}", d.name, show(&d.swept));
    }
    for m in &exp.methods {
        let tuned = m.tuning.as_ref().map_or(String::new(), |t| {
            let keys: Vec<&str> = t.grid[0].values.iter().map(|(k, _)| k.as_str()).collect();
            format!(
                " (tunes {}: {} points × {} splits of seed {}, {})",
                keys.join(", "),
                t.grid.len(),
                t.splits,
                t.seed,
                t.criterion.name()
            )
        });
        let runs = m.method.as_any().downcast_ref::<Command>().map_or(String::new(), |c| {
            format!(" runs `{}` (in the working folder)", c.argv.join(" "))
        });
        println!("  method  {}{}{tuned}{runs}", m.name, show(&m.swept));
    }
    if a.estimate {
        let e = estimate::estimate(&exp)?;
        let threads = a.threads.unwrap_or_else(rayon::current_num_threads);
        println!(
            "estimate: {} fits, {:.1} s (tuning {:.1} s); about {} on {threads} threads ({:.1} s of one thread)",
            e.fits,
            e.seconds,
            e.tuning,
            duration(e.seconds(threads)),
            e.seconds(1)
        );
        for (m, x) in exp.methods.iter().zip(&e.methods) {
            println!(
                "  method  {} ({}): {} fits, cost {:.3e} (rows {:.3e}, classes {:.3e}, pairs {:.3e}), {:.3} s of one thread",
                m.name,
                m.kind,
                x.fits,
                x.cost.flops,
                x.cost.rows,
                x.cost.classes,
                x.cost.pairs,
                x.seconds
            );
        }
    }
    Ok(())
}
