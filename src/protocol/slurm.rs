//! A run as a SLURM job array: one array task per shard (`sslab run --shard`), then a merge
//! job that starts once every shard succeeded (`--dependency=afterok`). Three files: the
//! array and merge batch scripts and `submit.sh`, which submits both.

use std::path::PathBuf;

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

impl SlurmJob {
    /// `(file name, text)` of `array.sbatch`, `merge.sbatch` and `submit.sh`.
    pub fn scripts(&self) -> [(&'static str, String); 3] {
        let logs = self.run_dir.join("slurm");
        let mut head = String::from("#!/bin/bash\n");
        if let Some(p) = &self.partition {
            head.push_str(&format!("#SBATCH --partition={p}\n"));
        }
        if let Some(t) = &self.time {
            head.push_str(&format!("#SBATCH --time={t}\n"));
        }
        head.push_str(&format!("#SBATCH --chdir={}\n", self.workdir.display()));
        let array = format!(
            "{head}#SBATCH --job-name=sslab-{name}\n#SBATCH --array=1-{n}\n#SBATCH --cpus-per-task={cpus}\n#SBATCH --output={logs}/shard-%a.out\n\
             # One shard per array task; --resume lets a requeued task keep its finished rows;\n\
             # progress lines (no terminal) go to the shard's log.\n\
             exec {bin} run {config} --shard \"$SLURM_ARRAY_TASK_ID/{n}\" --threads \"${{SLURM_CPUS_PER_TASK:-1}}\" --out {out} --resume\n",
            name = self.name,
            n = self.shards,
            cpus = self.cpus,
            logs = logs.display(),
            bin = self.binary.display(),
            config = self.config.display(),
            out = self.out.display(),
        );
        let merge = format!(
            "{head}#SBATCH --job-name=sslab-{name}-merge\n#SBATCH --cpus-per-task=1\n#SBATCH --output={logs}/merge.out\nexec {bin} merge {dir}\n",
            name = self.name,
            logs = logs.display(),
            bin = self.binary.display(),
            dir = self.run_dir.display(),
        );
        let submit = format!(
            "#!/bin/bash\n# Submits the shards as a job array and the merge after it; prints both job ids.\nset -euo pipefail\ncd \"$(dirname \"$0\")\"\n\
             array=$(sbatch --parsable array.sbatch)\narray=${{array%%;*}}\n\
             merge=$(sbatch --parsable --dependency=afterok:$array merge.sbatch)\nmerge=${{merge%%;*}}\n\
             echo \"array job $array ({n} shards), merge job $merge\"\n",
            n = self.shards,
        );
        [("array.sbatch", array), ("merge.sbatch", merge), ("submit.sh", submit)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_name_the_shards_threads_and_dependency() {
        let job = SlurmJob {
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
        };
        let [(_, array), (_, merge), (_, submit)] = job.scripts();
        assert!(
            array.contains("#SBATCH --array=1-4\n")
                && array.contains("#SBATCH --partition=short\n")
                && !array.contains("--time")
        );
        assert!(array.contains("--shard \"$SLURM_ARRAY_TASK_ID/4\" --threads \"${SLURM_CPUS_PER_TASK:-1}\" --out /w/out"), "{array}");
        assert!(merge.contains("exec /opt/sslab merge /w/out/e"), "{merge}");
        assert!(submit.contains("--dependency=afterok:$array merge.sbatch"), "{submit}");
    }
}
