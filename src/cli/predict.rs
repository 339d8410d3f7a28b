//! `sslab predict MODEL DATA [--out F]`: scores the raw rows of a csv, npy or SVMlight file
//! (the dataset's preprocessing saved with the model applied first) with a model saved by a
//! run with `save_models = true` (docs/output.md, "Saved models").

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use sslab::data::svmlight::{self, SvmlightOptions};
use sslab::data::{Features, npy, table};
use sslab::engine::model::file;
use sslab::engine::{Model, Scores};
use sslab::{Error, Result};

use super::output::write;

#[derive(clap::Args)]
pub struct Args {
    /// A model file (`models/DATASET/SPLIT/METHOD.npz` of a run folder).
    model: PathBuf,
    /// Rows to score: `.csv` (a header row and the `--label` column, whose values are
    /// ignored: the csv dataset kind's files),
    /// `.npy` (an n × d matrix) or anything else as SVMlight/LIBSVM (gzip or not).
    data: PathBuf,
    /// The label column of a csv file.
    #[arg(long, default_value = "label")]
    label: String,
    /// Output csv (`row,score`, or `row,class,score` for per-class scores); default stdout.
    #[arg(short, long)]
    out: Option<PathBuf>,
}

pub fn run(a: Args) -> Result<()> {
    let model = Model::load(&a.model)?;
    let pre = file::preprocessing(&a.model)?;
    let raw = rows(&a.data, &a.label, pre.as_ref().map_or(model.dim(), |p| p.raw_dim))?;
    let x = match &pre {
        Some(p) => p.transform(raw)?,
        None => raw,
    };
    let mut text = String::new();
    match model.score(&x)? {
        Scores::Binary(s) => {
            text.push_str("row,score\n");
            for (i, v) in s.iter().enumerate() {
                let _ = writeln!(text, "{i},{v:?}");
            }
        }
        Scores::PerClass(s) => {
            text.push_str("row,class,score\n");
            for (i, r) in s.rows().into_iter().enumerate() {
                for (k, v) in r.iter().enumerate() {
                    let _ = writeln!(text, "{i},{k},{v:?}");
                }
            }
        }
    }
    match &a.out {
        Some(out) => write(out, &text),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

/// The rows of `path`, `dim` features each (an error names the file, the line and the width).
fn rows(path: &Path, label: &str, dim: usize) -> Result<Features> {
    let wrong = |line: usize, width: usize| Error::Parse {
        path: path.into(),
        line,
        message: format!("rows of {width} features, the model expects {dim}"),
    };
    match path.extension().and_then(|e| e.to_str()) {
        Some("csv") => {
            let (x, _, _) = table::read_csv(path, label, b',')?;
            match x.ncols() == dim {
                true => Ok(Features::Dense(x)),
                false => Err(wrong(1, x.ncols())),
            }
        }
        Some("npy") => {
            let x = npy::read(path)?.matrix(&path.display().to_string())?;
            match x.ncols() == dim {
                true => Ok(Features::Dense(x)),
                false => Err(Error::Data(format!(
                    "{}: rows of {} features, the model expects {dim}",
                    path.display(),
                    x.ncols()
                ))),
            }
        }
        _ => {
            let opts = SvmlightOptions { n_features: Some(dim), ..SvmlightOptions::default() };
            Ok(Features::Sparse(svmlight::read(path, &opts)?.x))
        }
    }
}
