//! A run as a SLURM job array: one array task per shard (`sslab run --shard` on the run
//! folder's config copy), then a merge job that starts once every shard succeeded
//! (`--dependency=afterok`). Three files: the array and merge batch scripts and `submit.sh`,
//! which submits both.
//!
//! Every value reaches the shell single-quoted. `#SBATCH` lines are not shell, so only values
//! of a plain character set go there (the job name with anything else replaced by `_`; an
//! option value outside it is refused, a time limit outside SLURM's formats too); the paths
//! (working folder, log files) are passed quoted on `sbatch`'s command line in `submit.sh`,
//! and the scripts `cd` there too. `--setup` lines are shell by intent (module load, venv
//! activation): they go into both scripts as written, one line each, and a failing one
//! stops the job.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// What the scripts run and where; paths should be absolute (jobs start on other nodes).
#[derive(Debug, Clone)]
pub struct SlurmJob {
    /// The `sslab` binary.
    pub binary: PathBuf,
    /// The config the shards run: the run folder's copy.
    pub config: PathBuf,
    /// The `--out` folder and the run folder inside it (OUT/<name>).
    pub out: PathBuf,
    pub run_dir: PathBuf,
    /// The folder the jobs start in.
    pub workdir: PathBuf,
    pub name: String,
    pub shards: usize,
    pub cpus: usize,
    pub options: SlurmOptions,
}

/// The user's `#SBATCH` options and setup lines.
#[derive(Debug, Clone, Default)]
pub struct SlurmOptions {
    /// Partition (default: the cluster's).
    pub partition: Option<String>,
    /// Time limit per task, in one of SLURM's formats ([`check_time`]).
    pub time: Option<String>,
    /// Memory per node (`--mem`: a number, optionally with K, M, G or T).
    pub mem: Option<String>,
    /// Account charged and quality of service.
    pub account: Option<String>,
    pub qos: Option<String>,
    /// Further `#SBATCH` lines, `KEY=VALUE` or `KEY`.
    pub sbatch: Vec<String>,
    /// Shell lines run before `sslab` in both scripts.
    pub setup: Vec<String>,
}

/// Characters allowed in an `#SBATCH` value.
fn plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_-.:,+@".contains(c)
}

/// `#SBATCH` keys the scripts set themselves, or that have their own option.
const RESERVED: [(&str, &str); 22] = [
    ("array", "set by `sslab slurm` (--shards)"),
    ("job-name", "set by `sslab slurm`"),
    ("J", "set by `sslab slurm`"),
    ("cpus-per-task", "use --cpus"),
    ("c", "use --cpus"),
    ("output", "set by `sslab slurm` (the shard logs)"),
    ("o", "set by `sslab slurm` (the shard logs)"),
    ("error", "set by `sslab slurm` (errors go to the shard logs)"),
    ("e", "set by `sslab slurm` (errors go to the shard logs)"),
    ("chdir", "set by `sslab slurm` (the working folder)"),
    ("D", "set by `sslab slurm` (the working folder)"),
    ("dependency", "set by `sslab slurm` (the merge job)"),
    ("d", "set by `sslab slurm` (the merge job)"),
    ("partition", "use --partition"),
    ("p", "use --partition"),
    ("time", "use --time"),
    ("t", "use --time"),
    ("mem", "use --mem"),
    ("account", "use --account"),
    ("A", "use --account"),
    ("qos", "use --qos"),
    ("q", "use --qos"),
];

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

/// Ok when `t` is a SLURM time limit: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS,
/// or UNLIMITED / INFINITE; minutes and seconds after the first field are below 60.
pub fn check_time(t: &str) -> Result<()> {
    let bad = || {
        Error::param(
            "time",
            format!(
                "--time {t:?}: not a SLURM time limit; use minutes (90), MM:SS, HH:MM:SS (01:30:00), D-HH, D-HH:MM, D-HH:MM:SS (2-00:00:00) or UNLIMITED"
            ),
        )
    };
    if t.eq_ignore_ascii_case("unlimited") || t.eq_ignore_ascii_case("infinite") {
        return Ok(());
    }
    let (days, rest) = match t.split_once('-') {
        Some((d, rest)) => (Some(d), rest),
        None => (None, t),
    };
    let fields: Vec<&str> = rest.split(':').collect();
    let number = |f: &str| {
        (!f.is_empty() && f.len() <= 9 && f.bytes().all(|b| b.is_ascii_digit()))
            .then(|| f.parse::<u64>().ok())
            .flatten()
    };
    if days.is_some_and(|d| number(d).is_none()) || fields.len() > 3 {
        return Err(bad());
    }
    let values = fields.iter().map(|f| number(f)).collect::<Option<Vec<u64>>>().ok_or_else(bad)?;
    // Hours after days are below 24; every field after the first below 60.
    for (i, v) in values.iter().enumerate() {
        let limit = if i == 0 { if days.is_some() { 24 } else { u64::MAX } } else { 60 };
        if *v >= limit {
            return Err(bad());
        }
    }
    Ok(())
}

impl SlurmOptions {
    /// The `#SBATCH` lines of the options; an error names the first value refused.
    fn lines(&self) -> Result<String> {
        let mut head = String::new();
        let named = [
            ("partition", &self.partition),
            ("time", &self.time),
            ("mem", &self.mem),
            ("account", &self.account),
            ("qos", &self.qos),
        ];
        for (flag, value) in named {
            let Some(v) = value else { continue };
            if v.is_empty() || !v.chars().all(plain) {
                return Err(Error::param(
                    flag,
                    format!("--{flag} {v:?}: only letters, digits and _-.:,+@ are allowed"),
                ));
            }
            if flag == "time" {
                check_time(v)?;
            }
            let digits = v.trim_end_matches(['K', 'M', 'G', 'T', 'k', 'm', 'g', 't']);
            let size = digits.len() + 1 >= v.len() && digits.bytes().all(|b| b.is_ascii_digit());
            if flag == "mem" && (digits.is_empty() || !size) {
                return Err(Error::param(
                    "mem",
                    format!("--mem {v:?}: a size in megabytes, or with K, M, G or T (e.g. 8G)"),
                ));
            }
            head.push_str(&format!("#SBATCH --{flag}={v}\n"));
        }
        for line in &self.sbatch {
            let item = line.trim_start_matches('-');
            let (key, value) = item.split_once('=').map_or((item, None), |(k, v)| (k, Some(v)));
            let refuse = |why: String| Error::param("sbatch", format!("--sbatch {line:?}: {why}"));
            if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                return Err(refuse(
                    "expected KEY=VALUE with an option name as KEY (e.g. mail-type=END)".into(),
                ));
            }
            if let Some((_, why)) = RESERVED.iter().find(|(k, _)| *k == key) {
                return Err(refuse((*why).into()));
            }
            match value {
                None => head.push_str(&format!("#SBATCH --{key}\n")),
                Some(v)
                    if !v.is_empty() && v.chars().all(|c| plain(c) || "/=&|[]*%".contains(c)) =>
                {
                    head.push_str(&format!("#SBATCH --{key}={v}\n"))
                }
                Some(_) => {
                    return Err(refuse(
                        "the value may hold only letters, digits and _-.:,+@/=&|[]*%".into(),
                    ));
                }
            }
        }
        Ok(head)
    }

    /// The setup lines as shell, each stopping the job when it fails.
    fn setup(&self) -> Result<String> {
        let mut text = String::new();
        for line in &self.setup {
            if line.trim().is_empty() || line.contains(['\n', '\r', '\0']) {
                return Err(Error::param(
                    "setup",
                    format!("--setup {line:?}: one non-empty line of shell per --setup"),
                ));
            }
            let failed = quote(&format!("sslab: the setup line failed: {line}"));
            text.push_str(&format!("{{ {line}\n}} || {{ echo {failed} >&2; exit 1; }}\n"));
        }
        Ok(text)
    }
}

impl SlurmJob {
    /// `(file name, text)` of `array.sbatch`, `merge.sbatch` and `submit.sh`; an error when
    /// an option holds a value an `#SBATCH` line cannot carry or SLURM would refuse.
    pub fn scripts(&self) -> Result<[(&'static str, String); 3]> {
        let head = format!("#!/bin/bash\n{}", self.options.lines()?);
        let setup = self.options.setup()?;
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
             # One shard per array task, on the run folder's config copy; --resume lets a\n\
             # requeued task keep its finished rows; progress lines go to the shard's log.\n\
             cd {workdir} || exit 1\n{setup}\
             exec {bin} run {config} --shard \"$SLURM_ARRAY_TASK_ID/{n}\" --threads \"${{SLURM_CPUS_PER_TASK:-1}}\" --out {out} --resume\n",
            cpus = self.cpus,
        );
        let merge = format!(
            "{head}#SBATCH --job-name=sslab-{job}-merge\n#SBATCH --cpus-per-task=1\n\
             cd {workdir} || exit 1\n{setup}exec {bin} merge {run_dir}\n",
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
            options: SlurmOptions { partition: Some("short".into()), ..Default::default() },
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
        j.options.partition = Some("debug\ntouch PWNED".into());
        assert!(j.scripts().unwrap_err().to_string().contains("partition"));
        j.options.partition = None;
        j.options.time = Some("1:00 x".into());
        assert!(j.scripts().is_err());
        let refused = |o: SlurmOptions| {
            let mut j = job();
            j.options = o;
            j.scripts().unwrap_err().to_string()
        };
        let sbatch = |s: &str| SlurmOptions { sbatch: vec![s.into()], ..Default::default() };
        assert!(refused(sbatch("mail-user=a b")).contains("the value may hold only"));
        assert!(refused(sbatch("x\ny=1")).contains("expected KEY=VALUE"));
        assert!(refused(sbatch("array=1-9")).contains("set by `sslab slurm`"));
        assert!(refused(sbatch("t=10")).contains("use --time"));
        let mem = |m: &str| SlurmOptions { mem: Some(m.into()), ..Default::default() };
        assert!(refused(mem("8GB")).contains("--mem \"8GB\": a size in megabytes"));
        assert!(refused(mem("G")).contains("a size"));
        let setup = |l: &str| SlurmOptions { setup: vec![l.into()], ..Default::default() };
        assert!(refused(setup("module load x\nrm -rf ~")).contains("one non-empty line"));
    }

    #[test]
    fn options_become_sbatch_lines_and_setup_runs_first() {
        let mut j = job();
        j.options = SlurmOptions {
            time: Some("1-12:00".into()),
            mem: Some("8G".into()),
            account: Some("proj42".into()),
            qos: Some("normal".into()),
            sbatch: vec!["mail-type=END,FAIL".into(), "--exclusive".into()],
            setup: vec!["module load gcc # compilers".into()],
            ..Default::default()
        };
        let [(_, array), (_, merge), _] = j.scripts().unwrap();
        for s in [&array, &merge] {
            let want = "#!/bin/bash\n#SBATCH --time=1-12:00\n#SBATCH --mem=8G\n#SBATCH --account=proj42\n#SBATCH --qos=normal\n#SBATCH --mail-type=END,FAIL\n#SBATCH --exclusive\n";
            assert!(s.starts_with(want), "{s}");
            let setup = "{ module load gcc # compilers\n} || { echo 'sslab: the setup line failed: module load gcc # compilers' >&2; exit 1; }\nexec ";
            assert!(s.contains(setup), "{s}");
        }
    }

    #[test]
    fn time_limits_follow_slurm_formats() {
        let ok =
            ["90", "05:30", "01:30:00", "2-12", "2-12:30", "2-12:30:15", "UNLIMITED", "infinite"];
        for t in ok {
            assert!(check_time(t).is_ok(), "{t}");
        }
        let bad = [
            "tomorrow", "", "1:2:3:4", "1:75", "01:60:00", "2-24", "-5", "2-", "1h", "1::2", "x-1",
        ];
        for t in bad {
            let e = check_time(t).unwrap_err().to_string();
            assert!(e.contains("not a SLURM time limit"), "{t}: {e}");
        }
    }
}
