//! `kind = "command"`: a method that is any program. For each (dataset, split) sslab writes
//! the split into a private temporary folder (see [`exchange`] and docs/open-harness.md),
//! runs `argv` (no shell) with the folder as its last argument under a timeout, and reads
//! back the scores the program wrote. Every key of the entry other than `argv` and `timeout`
//! is a parameter of the program, passed in `split.json`'s `params`: it sweeps and tunes
//! like any key (the keys of a `params = { ... }` table count as keys of the entry). A failure (exit status, timeout, missing file, wrong shape, NaN) is an
//! error carrying the reason and the tail of the program's stderr: a `failed` row.

mod exchange;
mod groups;
mod order;
mod process;

use std::path::{Path, PathBuf};
use std::time::Duration;

use toml::Value;

use crate::engine::{Checked, Entry, Family, Fitted, Method, Split};
use crate::error::Result;

/// Seconds a program may run on one split unless the entry sets `timeout`.
pub const DEFAULT_TIMEOUT: f64 = 600.0;

/// The `command` family.
pub struct CommandFamily;

/// A checked `command` method: the argv, the timeout, and the program's parameters.
#[derive(Debug, Clone)]
pub struct Command {
    /// Program and its arguments; the split's folder is appended.
    pub argv: Vec<String>,
    /// How long the program may run on one split before it is killed.
    pub timeout: Duration,
    /// The entry's other keys, in the order written.
    pub params: Vec<(String, Value)>,
}

impl Family for CommandFamily {
    fn kinds(&self) -> &'static [&'static str] {
        &["command"]
    }

    fn multiclass_kinds(&self) -> &'static [&'static str] {
        &["command"]
    }

    fn check(&self, m: &Entry) -> Result<Checked> {
        let Some(argv) = m.get::<Vec<String>>("argv")? else {
            return Err(m.error(
                "argv",
                "required: the program and its arguments, e.g. [\"python3\", \"my_method.py\"]",
            ));
        };
        if argv.is_empty() || argv[0].is_empty() {
            return Err(m.error("argv", "must name a program"));
        }
        if find_program(&argv[0]).is_none() {
            return Err(m.error(
                "argv",
                format!("program `{}` not found (neither a file nor on PATH)", argv[0]),
            ));
        }
        let seconds = m.f64("timeout")?.unwrap_or(DEFAULT_TIMEOUT);
        let timeout = Duration::try_from_secs_f64(seconds)
            .ok()
            .filter(|_| seconds > 0.0)
            .ok_or_else(|| {
                m.error(
                    "timeout",
                    format!("must be > 0 seconds and at most {:e}, got {seconds}", u64::MAX as f64),
                )
            })?;
        let mut params: Vec<(String, Value)> = Vec::new();
        for (key, v) in m.keys().filter(|(k, _)| !["argv", "timeout"].contains(k)) {
            let given = match (key, v) {
                // `params = { k = 10 }` says the same as `k = 10`.
                ("params", Value::Table(t)) => {
                    t.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
                }
                _ => vec![(key.to_string(), v.clone())],
            };
            for (k, v) in given {
                if params.iter().any(|(p, _)| *p == k) {
                    return Err(
                        m.error(key, format!("`{k}` is given twice (as a key and in `params`)"))
                    );
                }
                params.push((k, v));
            }
        }
        let last = argv.last().map(Path::new);
        let stem = last.and_then(Path::file_stem).and_then(|s| s.to_str()).unwrap_or("command");
        let name = stem.to_string();
        Ok(Checked::new(name, Command { argv, timeout, params }))
    }
}

/// The program `name` as run: a path (it has a `/`) when it exists, otherwise the first
/// match on `PATH`.
fn find_program(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        return Path::new(name).exists().then(|| PathBuf::from(name));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

impl Method for Command {
    fn params(&self) -> String {
        let text = |v: &Value| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let pairs: Vec<String> =
            self.params.iter().map(|(k, v)| format!("{k}={}", text(v))).collect();
        pairs.join(" ")
    }

    fn fit(&self, split: &Split) -> Result<Fitted> {
        let folder = process::Folder::create()?;
        let written = exchange::write(folder.io(), split, &self.params)?;
        let seconds = process::run(&self.argv, &folder, self.timeout)?;
        let mut fitted = exchange::read(folder.io(), &written)
            .map_err(|why| crate::error::Error::Data(folder.failure(&self.argv, &why)))?;
        fitted.seconds = Some(seconds);
        Ok(fitted)
    }
}
