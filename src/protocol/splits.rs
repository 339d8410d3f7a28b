//! Persisted split indices: for every dataset read from files, `splits/<dataset>.csv` in the
//! run's folder lists each split's labeled and unlabeled rows (the tuning splits of a tuning
//! seed S in `splits/tune-seed-S/`), so every method sees the same splits and a run can be
//! audited or replayed. A resumed run checks that the splits it draws
//! are the ones on disk. Synthetic datasets draw fresh points per split; their split seeds
//! are in the result rows.

use std::fmt::Write;
use std::path::Path;

use rayon::prelude::*;

use super::derive_seed;
use super::draw::loaded_split;
use crate::config::Experiment;
use crate::data::split::SplitRows;
use crate::error::{Error, Result};
use crate::support::atomic::write_atomic;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Draws the splits of every file-backed dataset and writes them under `dir/splits/`, and
/// those of each tuning seed S (as many as its methods use) under `dir/splits/tune-seed-S/`;
/// with `resume`, existing files must hold exactly these splits.
pub fn persist(exp: &Experiment, dir: &Path, resume: bool) -> Result<()> {
    let folder = dir.join("splits");
    persist_seed(exp, &folder, exp.seed, exp.splits, resume)?;
    let mut tuning: Vec<(u64, usize)> = Vec::new();
    for t in exp.methods.iter().filter_map(|m| m.tuning.as_ref()) {
        match tuning.iter_mut().find(|(seed, _)| *seed == t.seed) {
            Some((_, n)) => *n = (*n).max(t.splits),
            None => tuning.push((t.seed, t.splits)),
        }
    }
    for (seed, count) in tuning {
        persist_seed(exp, &folder.join(format!("tune-seed-{seed}")), seed, count, resume)?;
    }
    Ok(())
}

/// Writes splits `0..count` of `seed` of every file-backed dataset into `folder`.
fn persist_seed(
    exp: &Experiment,
    folder: &Path,
    seed: u64,
    count: usize,
    resume: bool,
) -> Result<()> {
    for spec in &exp.datasets {
        let Some(data) = spec.loaded()? else { continue };
        let splits = (0..count)
            .into_par_iter()
            .map(|s| {
                loaded_split(
                    spec,
                    data,
                    s,
                    &mut ChaCha8Rng::seed_from_u64(derive_seed(seed, &spec.name, s)),
                )
            })
            .collect::<Result<Vec<_>>>()?;
        let path = folder.join(format!("{}.csv", spec.name));
        if resume && path.exists() && read(&path)? != splits {
            return Err(Error::Data(format!(
                "{}: the splits on disk differ from the ones drawn now (data or code changed); run without --resume",
                path.display()
            )));
        }
        std::fs::create_dir_all(folder).map_err(|e| Error::io(folder, e))?;
        write(&path, &splits)?;
    }
    Ok(())
}

/// Writes `split,labeled,unlabeled` lines (and a `test` column when a split holds test
/// rows), row indices 0-based and space-separated (whole or not at all: shards of a run
/// write the same files).
pub fn write(path: &Path, splits: &[SplitRows]) -> Result<()> {
    let with_test = splits.iter().any(|s| !s.test.is_empty());
    let mut text = String::from(if with_test {
        "split,labeled,unlabeled,test\n"
    } else {
        "split,labeled,unlabeled\n"
    });
    // Lines formatted in parallel (a protocol of 500 splits of 70,000 rows writes 200 MB).
    let lines: Vec<String> = splits
        .par_iter()
        .enumerate()
        .map(|(i, s)| {
            let mut line = format!("{i},");
            join(&s.labeled, &mut line);
            line.push(',');
            join(&s.unlabeled, &mut line);
            if with_test {
                line.push(',');
                join(&s.test, &mut line);
            }
            line.push('\n');
            line
        })
        .collect();
    lines.iter().for_each(|l| text.push_str(l));
    write_atomic(path, text.as_bytes())
}

/// Appends the indices `v` to `out`, space-separated.
fn join(v: &[usize], out: &mut String) {
    for (k, i) in v.iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        write!(out, "{i}").expect("writing to a String cannot fail");
    }
}

/// Reads a file written by [`write`].
pub fn read(path: &Path) -> Result<Vec<SplitRows>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let bad = |line: usize| Error::Csv {
        path: path.to_path_buf(),
        message: format!("line {line}: expected split,labeled,unlabeled[,test]"),
    };
    let indices = |field: &str, line: usize| -> Result<Vec<usize>> {
        field.split_whitespace().map(|v| v.parse().map_err(|_| bad(line))).collect()
    };
    text.lines()
        .enumerate()
        .skip(1)
        .map(|(i, l)| {
            let fields: Vec<&str> = l.split(',').collect();
            match fields.as_slice() {
                [_, labeled, unlabeled, rest @ ..] if rest.len() <= 1 => Ok(SplitRows {
                    labeled: indices(labeled, i + 1)?,
                    unlabeled: indices(unlabeled, i + 1)?,
                    test: rest.first().map_or(Ok(Vec::new()), |t| indices(t, i + 1))?,
                }),
                _ => Err(bad(i + 1)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_round_trip_and_bad_lines_are_named() {
        let dir = std::env::temp_dir().join(format!("sslab-splits-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("d.csv");
        let splits = vec![
            SplitRows { labeled: vec![0, 5], unlabeled: vec![1, 2, 3], test: vec![] },
            SplitRows { labeled: vec![4], unlabeled: vec![], test: vec![] },
        ];
        write(&path, &splits).unwrap();
        assert_eq!(read(&path).unwrap(), splits);
        assert!(
            std::fs::read_to_string(&path).unwrap().starts_with("split,labeled,unlabeled\n"),
            "no test column without test rows"
        );
        let with_test = vec![
            SplitRows { labeled: vec![0], unlabeled: vec![1], test: vec![2, 3] },
            SplitRows { labeled: vec![1], unlabeled: vec![0], test: vec![] },
        ];
        write(&path, &with_test).unwrap();
        assert_eq!(read(&path).unwrap(), with_test);
        std::fs::write(&path, "split,labeled,unlabeled\n0,1 x,2\n").unwrap();
        assert!(read(&path).unwrap_err().to_string().contains("line 2"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
