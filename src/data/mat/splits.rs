//! SSL-book split files (`splitsN-labeledK.mat`): `idxLabs` holds one split per row, the
//! 1-based indices of its labelled points (the unlabelled points are all the others).

use std::path::Path;

use super::{bad, read};
use crate::error::Result;

/// The splits of `path` as 0-based row indices into a dataset of `n` rows.
pub fn read_splits(path: &Path, n: usize) -> Result<Vec<Vec<usize>>> {
    let file = read(path)?;
    let x = file.get("idxLabs")?.dense(path)?;
    let mut splits = Vec::with_capacity(x.nrows());
    for (s, row) in x.rows().into_iter().enumerate() {
        let mut seen = vec![false; n];
        let mut split = Vec::with_capacity(row.len());
        for &v in row {
            let i = v as usize;
            if v.fract() != 0.0 || v < 1.0 || i > n {
                return Err(bad(path, format!("split {}: {v} is not an index in 1..={n}", s + 1)));
            }
            if std::mem::replace(&mut seen[i - 1], true) {
                return Err(bad(path, format!("split {}: index {i} listed twice", s + 1)));
            }
            split.push(i - 1);
        }
        splits.push(split);
    }
    if splits.is_empty() {
        return Err(bad(path, "`idxLabs` has no splits"));
    }
    Ok(splits)
}
