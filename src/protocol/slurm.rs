//! A run as a SLURM job array: one array task per shard (`sslab run --shard`), then a merge
//! job that starts once every shard succeeded (`--dependency=afterok`). Three files: the
//! array and merge batch scripts and `submit.sh`, which submits both.
//!
//! Every value reaches the shell single-quoted. `#SBATCH` lines are not shell, so only values
//! of a plain character set go there (the job name with anything else replaced by `_`; a
//! partition or time limit outside it is refused); the paths (working folder, log files)
//! are passed quoted on `sbatch`'s command line in `submit.sh`, and the scripts `cd` there too.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// What the scripts run and where; paths should be absolute (jobs start on other nodes).
#[derive(Debug, Clone)]
pub struct SlurmJob {
    /// The `sslab` binary.
    pub binary: PathBuf,
    pub config: PathBuf,
    /// The `--out` folder and the run folder inside it (OUT/<name>).
    pub out: PathBuf,
    pub run_dir: PathBuf,
    /// The folder the jobs start in (relative paths in the config are read from it).
    pub workdir: PathBuf,
    pub name: String,
    pub shards: usize,
    pub cpus: usize,
    pub partition: Option<String>,
    pub time: Option<String>,
}

/// Characters allowed in an `#SBATCH` value.
fn plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_-.:,+@".contains(c)
}

/// `s` as one single-quoted shell word (a `'` inside becomes `'\''`).
pub fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// A path as one shell word; a path that is not UTF-8 is refused.
fn quote_path(what: &'static str, p: &Path) -> Result<String> {
    p.to_str()
        .map(quote)
        .ok_or_else(|| Error::param(what, format!("{} is not valid UTF-8", p.display())))
}

impl SlurmJob {
    /// `(file name, text)` of `array.sbatch`, `merge.sbatch` and `submit.sh`; an error when
    /// the partition or time limit holds characters an `#SBATCH` line cannot carry.
    pub fn scripts(&self) -> Result<[(&'static str, String); 3]> {
        let mut head = String::from("#!/bin/bash\n");
        for (what, flag, value) in
            [("partition", "partition", &self.partition), ("time", "time", &self.time)]
        {
            if let Some(v) = value {
                if v.is_empty() || !v.chars().all(plain) {
                    return Err(Error::param(
                        what,
                        format!("--{flag} {v:?}: only letters, digits and _-.:,+@ are allowed"),
                    ));
                }
                head.push_str(&format!("#SBATCH --{flag}={v}\n"));
            }
        }
        let job: String =
            self.name.chars().map(|c| if plain(c) { c } else { '_' }).take(100).collect();
        let logs = self.run_dir.join("slurm");
        let q = |what, p: &Path| quote_path(what, p);
        let (bin, config, out, run_dir, workdir) = (
            q("binary", &self.binary)?,
            q("config", &self.config)?,
            q("out", &self.out)?,
            q("out", &self.run_dir)?,
            q("workdir", &self.workdir)?,
        );
        let (shard_log, merge_log) =
            (q("out", &logs.join("shard-%a.out"))?, q("out", &logs.join("merge.out"))?);
        let n = self.shards;
        let array = format!(
            "{head}#SBATCH --job-name=sslab-{job}\n#SBATCH --array=1-{n}\n#SBATCH --cpus-per-task={cpus}\n\
             # One shard per array task; --resume lets a requeued task keep its finished rows;\n\
             # progress lines (no terminal) go to the shard's log.\n\
             cd {workdir} || exit 1\n\
             exec {bin} run {config} --shard \"$SLURM_ARRAY_TASK_ID/{n}\" --threads \"${{SLURM_CPUS_PER_TASK:-1}}\" --out {out} --resume\n",
            cpus = self.cpus,
        );
        let merge = format!(
            "{head}#SBATCH --job-name=sslab-{job}-merge\n#SBATCH --cpus-per-task=1\n\
             cd {workdir} || exit 1\nexec {bin} merge {run_dir}\n",
        );
        let submit = format!(
            "#!/bin/bash\n# Submits the shards as a job array and the merge after it; prints both job ids.\nset -euo pipefail\ncd \"$(dirname \"$0\")\"\n\
             array=$(sbatch --parsable --chdir={workdir} --output={shard_log} array.sbatch)\narray=${{array%%;*}}\n\
             merge=$(sbatch --parsable --chdir={workdir} --output={merge_log} --dependency=afterok:\"$array\" merge.sbatch)\nmerge=${{merge%%;*}}\n\
             echo \"array job $array ({n} shards), merge job $merge\"\n",
        );
        Ok([("array.sbatch", array), ("merge.sbatch", merge), ("submit.sh", submit)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job() -> SlurmJob {
        SlurmJob {
            binary: "/opt/sslab".into(),
            config: "/w/c.toml".into(),
            out: "/w/out".into(),
            run_dir: "/w/out/e".into(),
            workdir: "/w".into(),
            name: "e".into(),
            shards: 4,
            cpus: 2,
            partition: Some("short".into()),
            time: None,
        }
    }

    #[test]
    fn scripts_name_the_shards_threads_and_dependency() {
        let [(_, array), (_, merge), (_, submit)] = job().scripts().unwrap();
        assert!(
            array.contains("#SBATCH --array=1-4\n")
                && array.contains("#SBATCH --partition=short\n")
                && !array.contains("--time")
        );
        assert!(array.contains("--shard \"$SLURM_ARRAY_TASK_ID/4\" --threads \"${SLURM_CPUS_PER_TASK:-1}\" --out '/w/out'"), "{array}");
        assert!(merge.contains("exec '/opt/sslab' merge '/w/out/e'"), "{merge}");
        assert!(submit.contains("--dependency=afterok:\"$array\" merge.sbatch"), "{submit}");
        assert!(submit.contains("--output='/w/out/e/slurm/shard-%a.out' array.sbatch"), "{submit}");
    }

    #[test]
    fn values_are_quoted_or_refused() {
        assert_eq!(quote("a'b $(x)"), r"'a'\''b $(x)'");
        let mut j = job();
        j.name = "x$(touch PWNED)\nid".into();
        let [(_, array), _, _] = j.scripts().unwrap();
        assert!(array.contains("#SBATCH --job-name=sslab-x__touch_PWNED__id\n"), "{array}");
        j.partition = Some("debug\ntouch PWNED".into());
        assert!(j.scripts().unwrap_err().to_string().contains("partition"));
        j.partition = None;
        j.time = Some("1:00 x".into());
        assert!(j.scripts().is_err());
    }
}
