//! SVMlin's own format: an examples file (SVMlight lines without labels) and a labels file
//! (one label per line, `+1`/`-1`, `0` = unlabeled), as in the SVMlin paper's pcmac.

use std::io::BufRead;
use std::path::Path;

use ndarray::{Array1, Axis};

use super::svmlight::{self, SvmlightOptions};
use super::{Csr, Features, Problem, dense};
use crate::error::{Error, Result};

/// Examples and their labels: +1, −1, or 0 for an unlabeled row.
#[derive(Debug, Clone)]
pub struct SvmlinSet {
    pub x: Csr,
    pub labels: Array1<f64>,
}

impl SvmlinSet {
    /// Rows with label ±1 (labeled) and with label 0 (unlabeled).
    pub fn labeled_unlabeled(&self) -> (Vec<usize>, Vec<usize>) {
        (0..self.labels.len()).partition(|i| self.labels[*i] != 0.0)
    }

    /// The problem with the first `l` rows labeled and the others unlabeled (their labels
    /// the hidden truth), sharing the set's entries.
    pub fn first_labeled(self, l: usize) -> Problem {
        let l = l.min(self.x.nrows());
        let (x_l, x_u) = self.x.split_rows(l);
        let (y_l, y_u) = self.labels.view().split_at(Axis(0), l);
        Problem::new(Features::Sparse(x_l), y_l.to_owned(), Features::Sparse(x_u), y_u.to_owned())
    }
}

/// Reads `examples` and `labels`; `n_features` is the declared width (None: largest index).
pub fn read(examples: &Path, labels: &Path, n_features: Option<usize>) -> Result<SvmlinSet> {
    let opts = SvmlightOptions { n_features, unlabeled: true, labels: None };
    let x = svmlight::read(examples, &opts)?.x;
    pair(x, dense::read_labels(labels)?, examples, labels)
}

/// [`read`] from two readers; the paths are only used in messages.
pub fn parse<R: BufRead, S: BufRead>(
    examples: R,
    labels: S,
    paths: (&Path, &Path),
    n_features: Option<usize>,
) -> Result<SvmlinSet> {
    let opts = SvmlightOptions { n_features, unlabeled: true, labels: None };
    let x = svmlight::parse(examples, paths.0, &opts)?.x;
    pair(x, dense::parse_labels(labels, paths.1)?, paths.0, paths.1)
}

/// The examples with their labels: as many labels as rows, each +1, −1 or 0.
fn pair(x: Csr, y: Vec<f64>, examples: &Path, labels: &Path) -> Result<SvmlinSet> {
    if y.len() != x.nrows() {
        return Err(Error::Data(format!(
            "{} has {} labels but {} has {} rows",
            labels.display(),
            y.len(),
            examples.display(),
            x.nrows()
        )));
    }
    if let Some(p) = y.iter().position(|v| ![1.0, -1.0, 0.0].contains(v)) {
        return Err(Error::Data(format!(
            "{}: label {} of row {} is not +1, -1 or 0",
            labels.display(),
            y[p],
            p + 1
        )));
    }
    Ok(SvmlinSet { x, labels: Array1::from(y) })
}
