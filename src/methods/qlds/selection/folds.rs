//! Stratified K-fold assignment of the labeled points.

use crate::error::{Error, Result};

/// Fold of each labeled point (±1 labels `y`) and the number of folds K: [`by_class`] with
/// class 0 the positive points.
pub fn stratified(y: &[f64], folds: usize) -> Result<(usize, Vec<usize>)> {
    let classes: Vec<usize> = y.iter().map(|v| usize::from(*v <= 0.0)).collect();
    by_class(&classes, 2, folds)
}

/// Fold of each labeled point (class ids `classes` < `n_classes`) and the number of folds
/// K = min(`folds`, smallest class count): within each class, in the (random) sample order,
/// the i-th point goes to fold i mod K. Needs ≥ 2 labeled points per class.
pub fn by_class(classes: &[usize], n_classes: usize, folds: usize) -> Result<(usize, Vec<usize>)> {
    let mut seen = vec![0usize; n_classes];
    classes.iter().for_each(|c| seen[*c] += 1);
    let smallest = seen.iter().copied().min().unwrap_or(0);
    if smallest < 2 || folds < 2 {
        return Err(Error::Data(format!(
            "cross-validation needs ≥ 2 folds and ≥ 2 labeled points per class (smallest class has {smallest})"
        )));
    }
    let k = folds.min(smallest);
    seen.fill(0);
    let assign = classes
        .iter()
        .map(|&c| {
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
