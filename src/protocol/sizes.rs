//! Split sizes: a total spread over the classes, or explicit per-class counts.

/// How many labeled (or unlabeled) points a split takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sizes {
    /// A total, spread over the two classes in proportion to `shares` (largest remainder).
    Total(usize),
    /// Counts for class +1 and class −1.
    PerClass([usize; 2]),
}

impl Sizes {
    /// Per-class counts given the class shares (which sum to 1).
    pub fn per_class(&self, shares: [f64; 2]) -> [usize; 2] {
        match *self {
            Sizes::PerClass(c) => c,
            Sizes::Total(n) => {
                let first = (n as f64 * shares[0]).round() as usize;
                let first = first.min(n);
                [first, n - first]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_follow_shares_and_add_up() {
        assert_eq!(Sizes::Total(200).per_class([0.5, 0.5]), [100, 100]);
        assert_eq!(Sizes::Total(7).per_class([0.3, 0.7]), [2, 5]);
        assert_eq!(Sizes::PerClass([3, 9]).per_class([0.5, 0.5]), [3, 9]);
        for n in 0..50 {
            let c = Sizes::Total(n).per_class([0.37, 0.63]);
            assert_eq!(c[0] + c[1], n);
        }
    }
}
