//! Stratified K-fold assignment of the labeled points.

use crate::error::{Error, Result};

/// Fold of each labeled point and the number of folds K = min(`folds`, smallest class
/// count): within each class, in the (random) sample order, the i-th point goes to fold
/// i mod K. Needs ≥ 2 labeled points per class.
pub fn stratified(y: &[f64], folds: usize) -> Result<(usize, Vec<usize>)> {
    let pos = y.iter().filter(|v| **v > 0.0).count();
    let smallest = pos.min(y.len() - pos);
    if smallest < 2 || folds < 2 {
        return Err(Error::Data(format!(
            "cross-validation needs ≥ 2 folds and ≥ 2 labeled points per class (smallest class has {smallest})"
        )));
    }
    let k = folds.min(smallest);
    let mut seen = [0usize; 2];
    let assign = y
        .iter()
        .map(|v| {
            let c = usize::from(*v <= 0.0);
            seen[c] += 1;
            (seen[c] - 1) % k
        })
        .collect();
    Ok((k, assign))
}

/// Indices in fold `f` and outside it.
pub fn split(assign: &[usize], f: usize) -> (Vec<usize>, Vec<usize>) {
    (0..assign.len()).partition(|&i| assign[i] != f)
}
