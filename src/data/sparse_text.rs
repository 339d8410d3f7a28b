//! Synthetic sparse text: two topics over a Zipf vocabulary, in CSR, fast enough for
//! 10⁶ documents × 10⁵ words.
//!
//! Word k belongs to topic +1 when k ≡ 0 (mod 3), to topic −1 when k ≡ 1, and to no topic
//! when k ≡ 2. Each word of a document is drawn, with probability `topic_weight`, from its
//! class's topic (Zipf over that topic's words in index order), otherwise from the shared
//! background (Zipf over the whole vocabulary). Words are drawn until the document has
//! `nnz_per_doc` distinct words (or after 4× as many draws); a word seen c times gets
//! log(1 + c), and every row is scaled to unit Euclidean norm.

use ndarray::{Array1, s};
use rand::Rng;
use rand_distr::{Distribution, Zipf};

use super::{Csr, Dataset, Features, Sampler};
use crate::error::{Error, Result};

/// The generator's parameters (validated by [`SparseText::new`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SparseText {
    vocabulary: usize,
    nnz_per_doc: usize,
    topic_weight: f64,
    zipf_exponent: f64,
}

impl SparseText {
    /// Defaults of the configs: topic weight and Zipf exponent.
    pub const TOPIC_WEIGHT: f64 = 0.1;
    pub const ZIPF_EXPONENT: f64 = 1.0;

    /// Checks: 3 ≤ vocabulary < 2³², 1 ≤ nnz_per_doc ≤ vocabulary/3, topic_weight in [0, 1],
    /// zipf_exponent ≥ 0.
    pub fn new(
        vocabulary: usize,
        nnz_per_doc: usize,
        topic_weight: f64,
        zipf_exponent: f64,
    ) -> Result<Self> {
        let bad = |m: String| Err(Error::Data(format!("sparse text: {m}")));
        if !(3..=u32::MAX as usize).contains(&vocabulary) {
            return bad(format!("vocabulary must be at least 3, got {vocabulary}"));
        }
        if nnz_per_doc == 0 || nnz_per_doc > vocabulary / 3 {
            return bad(format!(
                "nnz_per_doc must lie in [1, vocabulary/3 = {}], got {nnz_per_doc}",
                vocabulary / 3
            ));
        }
        if !(0.0..=1.0).contains(&topic_weight) {
            return bad(format!("topic_weight must lie in [0, 1], got {topic_weight}"));
        }
        if !(zipf_exponent.is_finite() && zipf_exponent >= 0.0) {
            return bad(format!("zipf_exponent must be finite and ≥ 0, got {zipf_exponent}"));
        }
        Ok(SparseText { vocabulary, nnz_per_doc, topic_weight, zipf_exponent })
    }

    /// Non-zeros per document.
    pub fn nnz_per_doc(&self) -> usize {
        self.nnz_per_doc
    }

    /// Number of features (the vocabulary size).
    pub fn dim(&self) -> usize {
        self.vocabulary
    }
}

impl Sampler for SparseText {
    /// Draws `counts[0]` documents of class +1 followed by `counts[1]` of class −1.
    fn sample<R: Rng + ?Sized>(&self, counts: [usize; 2], rng: &mut R) -> Dataset {
        let v = self.vocabulary;
        // Zipf::new only fails for n < 1 or s < 0, excluded by `new`.
        let zipf =
            |n: usize| Zipf::new(n as f64, self.zipf_exponent).unwrap_or_else(|_| unreachable!());
        let background = zipf(v);
        let topics = [zipf(v.div_ceil(3)), zipf((v - 1).div_ceil(3))];
        let n = counts[0] + counts[1];
        let mut indptr = Vec::with_capacity(n + 1);
        indptr.push(0);
        let mut indices = Vec::with_capacity(n * self.nnz_per_doc);
        let mut values = Vec::with_capacity(n * self.nnz_per_doc);
        let mut words: Vec<(u32, f64)> = Vec::with_capacity(self.nnz_per_doc);
        for doc in 0..n {
            let class = usize::from(doc >= counts[0]);
            words.clear();
            for _ in 0..4 * self.nnz_per_doc {
                let word = if rng.random_bool(self.topic_weight) {
                    3 * (topics[class].sample(rng) as usize - 1) + class
                } else {
                    background.sample(rng) as usize - 1
                } as u32;
                match words.binary_search_by_key(&word, |w| w.0) {
                    Ok(at) => words[at].1 += 1.0,
                    Err(at) => words.insert(at, (word, 1.0)),
                }
                if words.len() == self.nnz_per_doc {
                    break;
                }
            }
            let norm = words.iter().map(|w| (1.0 + w.1).ln().powi(2)).sum::<f64>().sqrt();
            for &(j, c) in &words {
                indices.push(j);
                values.push((1.0 + c).ln() / norm);
            }
            indptr.push(indices.len());
        }
        let x = Csr::new(v, indptr, indices, values)
            .unwrap_or_else(|e| unreachable!("generated CSR is valid: {e}"));
        let mut y = Array1::<f64>::ones(n);
        y.slice_mut(s![counts[0]..]).fill(-1.0);
        Dataset::from_signs(Features::Sparse(x), y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn documents_are_seeded_sparse_normalised_and_topical() {
        let g = SparseText::new(3000, 20, 0.3, 1.0).unwrap();
        let a = g.sample([400, 600], &mut ChaCha8Rng::seed_from_u64(1));
        let b = g.sample([400, 600], &mut ChaCha8Rng::seed_from_u64(1));
        assert_eq!(a.x, b.x);
        assert_eq!(crate::data::class_counts(a.y.view()), (400, 600));
        let Features::Sparse(x) = &a.x else { panic!("sparse expected") };
        assert_eq!(x.ncols(), 3000);
        // Topic words (k mod 3 = class) outnumber the other topic's words in each class.
        let mut mass = [[0.0; 3]; 2];
        for i in 0..x.nrows() {
            let (idx, val) = x.row(i);
            assert!(!idx.is_empty() && idx.len() <= 20);
            assert!((val.iter().map(|v| v * v).sum::<f64>() - 1.0).abs() < 1e-12);
            for j in idx.iter() {
                mass[usize::from(i >= 400)][j % 3] += 1.0;
            }
        }
        assert!(mass[0][0] > 1.2 * mass[0][1] && mass[1][1] > 1.2 * mass[1][0], "{mass:?}");
        let nnz_mean = x.nnz() as f64 / x.nrows() as f64;
        assert!(nnz_mean > 19.0, "{nnz_mean} words per document");
    }

    #[test]
    fn invalid_parameters_are_errors() {
        assert!(SparseText::new(2, 1, 0.1, 1.0).is_err());
        assert!(SparseText::new(30, 11, 0.1, 1.0).is_err());
        assert!(SparseText::new(30, 5, 1.5, 1.0).is_err());
        assert!(SparseText::new(30, 5, 0.1, -1.0).is_err());
    }
}
