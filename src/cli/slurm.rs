//! `sslab slurm`: writes OUT/<name>/slurm/{array.sbatch, merge.sbatch, submit.sh} to run a
//! config as a SLURM job array (one shard per task) and merge it when all succeeded.

use std::path::{Path, PathBuf};

use sslab::protocol::SlurmJob;
use sslab::{Error, Result, config};

use super::output::write;

#[derive(clap::Args)]
pub struct Args {
    config: PathBuf,
    /// Number of shards (array tasks).
    #[arg(long, default_value_t = 4)]
    shards: usize,
    /// CPUs per array task (each shard runs with that many threads).
    #[arg(long, default_value_t = 2)]
    cpus: usize,
    /// SLURM partition (default: the cluster's default).
    #[arg(long)]
    partition: Option<String>,
    /// Time limit per task, in SLURM's format (e.g. 01:00:00).
    #[arg(long)]
    time: Option<String>,
    /// Output folder of the run, on a filesystem every node sees.
    #[arg(short, long, default_value = "results")]
    out: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    if a.shards == 0 || a.cpus == 0 {
        return Err(Error::param("shards", "--shards and --cpus must be ≥ 1"));
    }
    let exp = config::load(&a.config)?;
    sslab::protocol::shard::check_count(&exp, a.shards)?;
    let workdir = std::env::current_dir().map_err(|e| Error::io(".", e))?;
    let absolute = |p: &Path| if p.is_absolute() { p.to_path_buf() } else { workdir.join(p) };
    let out = absolute(&a.out);
    let run_dir = out.join(&exp.name);
    let job = SlurmJob {
        binary: std::env::current_exe().map_err(|e| Error::io("sslab", e))?,
        config: absolute(&a.config),
        run_dir: run_dir.clone(),
        out,
        workdir: workdir.clone(),
        name: exp.name.clone(),
        shards: a.shards,
        cpus: a.cpus,
        partition: a.partition,
        time: a.time,
    };
    let scripts = job.scripts()?;
    let folder = run_dir.join("slurm");
    std::fs::create_dir_all(&folder).map_err(|e| Error::io(&folder, e))?;
    for (name, text) in scripts {
        write(&folder.join(name), &text)?;
    }
    println!(
        "wrote {0}/array.sbatch, merge.sbatch and submit.sh; submit with `bash {0}/submit.sh`",
        folder.display()
    );
    Ok(())
}
