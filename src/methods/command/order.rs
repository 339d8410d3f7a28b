//! The order a program sees the unlabeled and test rows in: a random permutation of each,
//! drawn from the split's seed on a stream of its own (so a rerun of the split hands over the
//! same order, and no other draw moves), and the program's scores put back in row order for
//! scoring. Rows in index order are grouped by class in many datasets (and in every
//! generated split), so a program reading no feature could score by position alone.

use ndarray::{Array1, Array2, Axis};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::engine::Scores;

/// The ChaCha stream of the row-order draws (the split's other draws use stream 0).
const STREAM: u64 = 0x6f_7264_6572; // "order"

/// Row `order[k]` of the split is handed over as row k, for the unlabeled and the test rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Order {
    pub unlabeled: Vec<usize>,
    pub test: Vec<usize>,
}

impl Order {
    /// The orders of `n_unlabeled` and `n_test` rows of the split with seed `seed`.
    pub fn draw(seed: u64, n_unlabeled: usize, n_test: usize) -> Order {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(STREAM);
        let mut shuffled = |n: usize| {
            let mut rows: Vec<usize> = (0..n).collect();
            rows.shuffle(&mut rng);
            rows
        };
        let unlabeled = shuffled(n_unlabeled);
        Order { unlabeled, test: shuffled(n_test) }
    }
}

/// Scores handed back in the order `order` (row k scores row `order[k]`), in row order.
pub(super) fn restore(scores: Scores, order: &[usize]) -> Scores {
    match scores {
        Scores::Binary(s) => {
            let mut out = Array1::zeros(s.len());
            for (k, &row) in order.iter().enumerate() {
                out[row] = s[k];
            }
            Scores::Binary(out)
        }
        Scores::PerClass(s) => {
            let mut out = Array2::zeros(s.raw_dim());
            for (k, &row) in order.iter().enumerate() {
                out.index_axis_mut(Axis(0), row).assign(&s.index_axis(Axis(0), k));
            }
            Scores::PerClass(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_are_seeded_permutations_and_restore_inverts_them() {
        let a = Order::draw(7, 50, 20);
        assert_eq!(a, Order::draw(7, 50, 20));
        assert_ne!(a, Order::draw(8, 50, 20));
        let mut sorted = a.unlabeled.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(a.unlabeled, sorted, "shuffled");
        let truth: Array1<f64> = (0..50).map(f64::from).collect();
        let handed: Array1<f64> = a.unlabeled.iter().map(|&r| truth[r]).collect();
        let Scores::Binary(back) = restore(Scores::Binary(handed), &a.unlabeled) else {
            panic!("binary in, binary out")
        };
        assert_eq!(back, truth);
        let per_class = Array2::from_shape_fn((20, 3), |(i, c)| (10 * i + c) as f64);
        let handed = per_class.select(Axis(0), &a.test);
        let Scores::PerClass(back) = restore(Scores::PerClass(handed), &a.test) else {
            panic!("per class in, per class out")
        };
        assert_eq!(back, per_class);
    }
}
