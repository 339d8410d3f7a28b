//! `sslab slurm`: leaves the config in OUT/<name>/ (the copy the array runs) and writes
//! OUT/<name>/slurm/{array.sbatch, merge.sbatch, submit.sh} to run it as a SLURM job array
//! (one shard per task) and merge it when all succeeded.

use std::path::{Path, PathBuf};

use sslab::protocol::{SlurmJob, SlurmOptions};
use sslab::{Error, Result, config};

use super::output::write;

#[derive(clap::Args)]
pub struct Args {
    /// The experiment config (TOML); its copy in the run folder is what the array runs.
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
    /// Time limit per task: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED.
    #[arg(long)]
    time: Option<String>,
    /// Memory per node, in megabytes or with K, M, G or T (e.g. 8G).
    #[arg(long)]
    mem: Option<String>,
    /// Account charged for the jobs.
    #[arg(long)]
    account: Option<String>,
    /// Quality of service of the jobs.
    #[arg(long)]
    qos: Option<String>,
    /// A further `#SBATCH --KEY=VALUE` line (or `KEY` alone), e.g. mail-type=END; repeatable.
    #[arg(long, value_name = "KEY=VALUE")]
    sbatch: Vec<String>,
    /// A shell line run before sslab in each job (module load, venv activation); repeatable.
    #[arg(long, value_name = "LINE")]
    setup: Vec<String>,
    /// The sslab binary the jobs run (default: this one), on a path every node sees.
    #[arg(long)]
    binary: Option<PathBuf>,
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
    let absolute = |p: &Path| std::path::absolute(p).map_err(|e| Error::io(p, e));
    let workdir = std::env::current_dir().map_err(|e| Error::io(".", e))?;
    let out = absolute(&a.out)?;
    let run_dir = out.join(&exp.name);
    let binary = match &a.binary {
        Some(b) => absolute(b)?,
        None => std::env::current_exe().map_err(|e| Error::io("sslab", e))?,
    };
    let job = SlurmJob {
        binary,
        config: run_dir.join("config.toml"),
        run_dir: run_dir.clone(),
        out,
        workdir,
        name: exp.name.clone(),
        shards: a.shards,
        cpus: a.cpus,
        options: SlurmOptions {
            partition: a.partition,
            time: a.time,
            mem: a.mem,
            account: a.account,
            qos: a.qos,
            sbatch: a.sbatch,
            setup: a.setup,
        },
    };
    let scripts = job.scripts()?;
    let copy = &job.config;
    if let Ok(theirs) = std::fs::read_to_string(copy)
        && config::hash(&theirs).unwrap_or_default() != exp.hash
    {
        return Err(Error::Data(format!(
            "{}: holds another config (hash {} ≠ {}); use another --out",
            run_dir.display(),
            config::hash(&theirs).unwrap_or_default(),
            exp.hash
        )));
    }
    let folder = run_dir.join("slurm");
    std::fs::create_dir_all(&folder).map_err(|e| Error::io(&folder, e))?;
    sslab::protocol::copy_config(&exp, &run_dir)?;
    for (name, text) in scripts {
        write(&folder.join(name), &text)?;
    }
    let (bin, dir, data, paths) = (
        job.binary.display(),
        job.workdir.display(),
        exp.base.data_dir.display(),
        exp.base.config_dir.display(),
    );
    println!(
        "binary          {bin}\nworking folder  {dir}\nconfig copy     {} (of {}; paths in it read from {paths}, data from {data})\nwrote           {}/{{array.sbatch, merge.sbatch, submit.sh}}\n\
         check that every node sees these paths, then submit with `bash {}/submit.sh`",
        copy.display(),
        a.config.display(),
        folder.display(),
        folder.display(),
    );
    Ok(())
}
