//! `kind = "sparse_text"`: two-topic sparse documents, sampled afresh for every split.
//! Keys: `dim` (vocabulary) and `nnz_per_doc` required, `topic_weight` (default 0.1) and
//! `zipf_exponent` (default 1) optional; `test = { per_class }`.

use rand_chacha::ChaCha8Rng;

use super::{DatasetKind, Source, count_within_memory};
use crate::data::sparse_text::SparseText;
use crate::data::{Dataset, Generator, Sampler};
use crate::error::Result;
use crate::support::Entry;

/// The `sparse_text` dataset kind.
pub struct SparseTextKind;

impl DatasetKind for SparseTextKind {
    fn kind(&self) -> &'static str {
        "sparse_text"
    }

    fn read(&self, entry: &Entry, _splits: usize) -> Result<Source> {
        entry.only(&["dim", "nnz_per_doc", "topic_weight", "zipf_exponent", "test"])?;
        let vocabulary = count_within_memory(entry, "dim", 32)?;
        let nnz = entry
            .count("nnz_per_doc")?
            .ok_or_else(|| entry.error("nnz_per_doc", "required for a sparse_text dataset"))?;
        let weight = entry.f64("topic_weight")?.unwrap_or(SparseText::TOPIC_WEIGHT);
        let exponent = entry.f64("zipf_exponent")?.unwrap_or(SparseText::ZIPF_EXPONENT);
        let text = SparseText::new(vocabulary, nnz, weight, exponent)
            .map_err(|e| entry.entry_error(format!("{}: {e}", entry.name())))?;
        Source::generated(entry, text)
    }
}

impl Generator for SparseText {
    fn draw(&self, counts: [usize; 2], rng: &mut ChaCha8Rng) -> Dataset {
        self.sample(counts, rng)
    }

    fn dim(&self) -> usize {
        SparseText::dim(self)
    }

    /// An index and a value per non-zero.
    fn row_bytes(&self) -> f64 {
        16.0 * self.nnz_per_doc() as f64
    }
}
