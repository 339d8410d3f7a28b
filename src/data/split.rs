//! Stratified labeled/unlabeled splits of a dataset's rows, drawn from a seeded RNG.

use rand::Rng;
use rand::seq::SliceRandom;

use super::Dataset;
use crate::error::{Error, Result};

/// Labeled, unlabeled and held-out test row indices (each sorted, disjoint; `test` empty
/// unless the dataset draws a test set per split).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SplitRows {
    pub labeled: Vec<usize>,
    pub unlabeled: Vec<usize>,
    pub test: Vec<usize>,
}

impl SplitRows {
    /// `labeled` (sorted) and every other row of `0..n` as unlabeled.
    pub fn complement(labeled: &[usize], n: usize) -> SplitRows {
        let mut is_labeled = vec![false; n];
        for i in labeled {
            is_labeled[*i] = true;
        }
        let mut labeled = labeled.to_vec();
        labeled.sort_unstable();
        SplitRows {
            labeled,
            unlabeled: (0..n).filter(|i| !is_labeled[*i]).collect(),
            test: Vec::new(),
        }
    }
}

/// Draws `labeled[k]` labeled, `test[k]` test and `unlabeled[k]` unlabeled rows of class k,
/// uniformly without replacement (no test rows: `test` empty); an error when a class has
/// too few rows.
pub fn stratified<R: Rng + ?Sized>(
    data: &Dataset,
    labeled: &[usize],
    unlabeled: &[usize],
    test: &[usize],
    rng: &mut R,
) -> Result<SplitRows> {
    let test = if test.is_empty() { vec![0; data.n_classes()] } else { test.to_vec() };
    if labeled.len() != data.n_classes()
        || unlabeled.len() != data.n_classes()
        || test.len() != data.n_classes()
    {
        return Err(Error::Data(format!(
            "split sizes for {} and {} classes, but the dataset has {}",
            labeled.len(),
            unlabeled.len(),
            data.n_classes()
        )));
    }
    let mut split = SplitRows::default();
    for (k, mut rows) in data.class_rows().into_iter().enumerate() {
        let (l, u, t) = (labeled[k], unlabeled[k], test[k]);
        if l + u + t > rows.len() {
            return Err(Error::Data(format!(
                "the split asks for {l} labeled + {u} unlabeled + {t} test points of class `{}`, which has only {}",
                data.class_names[k],
                rows.len()
            )));
        }
        // Without test rows the draw is the one before test sets existed.
        let (chosen, _) = rows.partial_shuffle(rng, l + t + u);
        split.labeled.extend_from_slice(&chosen[..l]);
        split.test.extend_from_slice(&chosen[l..l + t]);
        split.unlabeled.extend_from_slice(&chosen[l + t..]);
    }
    split.labeled.sort_unstable();
    split.unlabeled.sort_unstable();
    split.test.sort_unstable();
    Ok(split)
}

/// Each class's share of the rows (for spreading a total split size over the classes).
pub fn class_shares(data: &Dataset) -> Vec<f64> {
    let n = data.len().max(1) as f64;
    data.class_counts().iter().map(|c| *c as f64 / n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Features;
    use ndarray::Array2;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn data() -> Dataset {
        let classes: Vec<usize> = (0..30).map(|i| usize::from(i % 3 == 0)).collect();
        Dataset::with_classes(
            Features::Dense(Array2::zeros((30, 1))),
            classes,
            vec!["a".into(), "b".into()],
        )
        .unwrap()
    }

    #[test]
    fn split_is_stratified_disjoint_and_seeded() {
        let d = data();
        let s = stratified(&d, &[2, 3], &[10, 5], &[], &mut ChaCha8Rng::seed_from_u64(4)).unwrap();
        let count = |rows: &[usize], k| rows.iter().filter(|i| d.classes[**i] == k).count();
        assert_eq!((count(&s.labeled, 0), count(&s.labeled, 1)), (2, 3));
        assert_eq!((count(&s.unlabeled, 0), count(&s.unlabeled, 1)), (10, 5));
        assert!(s.labeled.iter().all(|i| !s.unlabeled.contains(i)));
        assert_eq!(
            s,
            stratified(&d, &[2, 3], &[10, 5], &[], &mut ChaCha8Rng::seed_from_u64(4)).unwrap()
        );
        assert_ne!(
            s,
            stratified(&d, &[2, 3], &[10, 5], &[], &mut ChaCha8Rng::seed_from_u64(5)).unwrap()
        );
        assert_eq!(class_shares(&d), [20.0 / 30.0, 10.0 / 30.0]);
        assert_eq!(
            SplitRows::complement(&[3, 1], 5),
            SplitRows { labeled: vec![1, 3], unlabeled: vec![0, 2, 4], test: vec![] }
        );
    }

    #[test]
    fn test_rows_are_held_out_disjoint_and_seeded() {
        let d = data();
        let s =
            stratified(&d, &[2, 3], &[5, 2], &[4, 3], &mut ChaCha8Rng::seed_from_u64(4)).unwrap();
        assert_eq!(
            s,
            stratified(&d, &[2, 3], &[5, 2], &[4, 3], &mut ChaCha8Rng::seed_from_u64(4)).unwrap()
        );
        let count = |rows: &[usize], k| rows.iter().filter(|i| d.classes[**i] == k).count();
        assert_eq!(
            (count(&s.test, 0), count(&s.test, 1), count(&s.unlabeled, 0), count(&s.unlabeled, 1)),
            (4, 3, 5, 2)
        );
        let mut all: Vec<usize> =
            s.labeled.iter().chain(&s.unlabeled).chain(&s.test).copied().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 5 + 7 + 7, "the three sets are disjoint");
    }

    #[test]
    fn split_larger_than_a_class_is_an_error() {
        let msg = stratified(&data(), &[1, 5], &[1, 6], &[], &mut ChaCha8Rng::seed_from_u64(0))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("class `b`, which has only 10"), "{msg}");
    }
}
