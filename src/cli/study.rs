//! `sslab study CONFIG`: a theory study (Fig. 4, Fig. 5, the theory check) with its
//! parameters in a config file instead of flags. The file's `[study]` table names the
//! `command` and gives its options as keys (`labeled_per_class = [2, 5]` is
//! `--labeled-per-class 2,5`; `true` is a bare flag); errors name the file and line.

use std::path::{Path, PathBuf};

use sslab::{Error, Result};
use toml::de::{DeTable, DeValue};

/// The subcommands a study config may name.
pub const COMMANDS: [&str; 3] = ["phase-diagram", "proportions", "theory-check"];

#[derive(clap::Args)]
pub struct Args {
    /// A study config (`[study]` with `command = "phase-diagram"` and its options).
    pub config: PathBuf,
}

/// Each option of a study's command line with the config line it came from.
type OptionLines = Vec<(String, usize)>;

/// The command line the config stands for, and the line of each option (for errors).
pub fn command_line(path: &Path) -> Result<(Vec<String>, OptionLines)> {
    let src = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let line = |offset: usize| src[..offset.min(src.len())].matches('\n').count() + 1;
    let error = |offset: usize, message: String| Error::Config {
        path: path.to_path_buf(),
        line: line(offset),
        message,
    };
    let doc = DeTable::parse(&src)
        .map_err(|e| error(e.span().map_or(0, |s| s.start), e.message().to_string()))?;
    if let Some((k, _)) = doc.get_ref().iter().find(|(k, _)| k.get_ref() != "study") {
        return Err(error(
            k.span().start,
            format!("`{}`: a study config has one `[study]` table", k.get_ref()),
        ));
    }
    let Some(study) = doc.get_ref().get("study") else {
        return Err(error(0, "no [study] table".into()));
    };
    let DeValue::Table(study) = study.get_ref() else {
        return Err(error(study.span().start, "study: expected a table".into()));
    };
    let command = match study.get("command") {
        Some(c) => match c.get_ref().as_str() {
            Some(name) if COMMANDS.contains(&name) => name.to_string(),
            _ => {
                return Err(error(
                    c.span().start,
                    format!("study.command: expected one of {}", COMMANDS.join(", ")),
                ));
            }
        },
        None => {
            return Err(error(
                0,
                format!("study.command: missing (one of {})", COMMANDS.join(", ")),
            ));
        }
    };
    let mut argv = vec!["sslab".to_string(), command];
    let mut lines = Vec::new();
    let mut entries: Vec<_> = study.iter().filter(|(k, _)| k.get_ref() != "command").collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    for (k, v) in entries {
        let flag = format!("--{}", k.get_ref().replace('_', "-"));
        lines.push((flag.clone(), line(k.span().start)));
        match v.get_ref() {
            DeValue::Boolean(true) => argv.push(flag),
            DeValue::Boolean(false) => {}
            DeValue::Array(a) => {
                let items: Option<Vec<String>> = a.iter().map(|x| scalar(x.get_ref())).collect();
                let items = items.ok_or_else(|| {
                    error(
                        v.span().start,
                        format!("study.{}: expected a list of numbers or strings", k.get_ref()),
                    )
                })?;
                argv.extend([flag, items.join(",")]);
            }
            other => {
                let value = scalar(other).ok_or_else(|| {
                    error(
                        v.span().start,
                        format!(
                            "study.{}: expected a number, string, boolean or list",
                            k.get_ref()
                        ),
                    )
                })?;
                argv.extend([flag, value]);
            }
        }
    }
    Ok((argv, lines))
}

/// A number or string as a command-line word.
fn scalar(v: &DeValue) -> Option<String> {
    match v {
        DeValue::String(s) => Some(s.to_string()),
        DeValue::Integer(i) => Some(i.as_str().to_string()),
        DeValue::Float(f) => Some(f.as_str().to_string()),
        _ => None,
    }
}

/// A clap error about the study's options, at the line of the option it names.
pub fn option_error(path: &Path, lines: &[(String, usize)], e: &clap::Error) -> Error {
    let text = e.to_string();
    let message = text.lines().next().unwrap_or_default().trim_start_matches("error: ").to_string();
    let line =
        lines.iter().find(|(flag, _)| text.contains(&format!("'{flag}"))).map_or(1, |(_, l)| *l);
    let message = lines
        .iter()
        .fold(message, |m, (flag, _)| m.replace(flag.as_str(), &flag[2..].replace('-', "_")));
    Error::Config { path: path.to_path_buf(), line, message: format!("study: {message}") }
}
