//! Split sizes: a total spread over the classes, explicit per-class counts, or every point
//! left after the labeled ones.

/// How many labeled (or unlabeled) points a split takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sizes {
    /// A total, spread over the classes in proportion to their shares (largest remainder,
    /// ties to the earlier class).
    Total(usize),
    /// One count per class, in class order.
    PerClass(Vec<usize>),
    /// The same count for every class (of a file dataset, whose classes are known once it
    /// is read).
    Each(usize),
    /// Every point not labeled (file datasets only: the transductive protocol).
    Rest,
    /// Fixed by the dataset's official splits (known once its files are read).
    Official,
}

impl Sizes {
    /// Per-class counts given the class shares (which sum to 1); `rest` gives the counts
    /// [`Sizes::Rest`] (and [`Sizes::Official`]) stand for.
    pub fn per_class(&self, shares: &[f64], rest: &[usize]) -> Vec<usize> {
        match self {
            Sizes::PerClass(c) => c.clone(),
            Sizes::Each(n) => vec![*n; shares.len()],
            Sizes::Rest | Sizes::Official => rest.to_vec(),
            Sizes::Total(n) => {
                let exact: Vec<f64> = shares.iter().map(|s| *n as f64 * s).collect();
                let mut counts: Vec<usize> = exact.iter().map(|e| e.floor() as usize).collect();
                let mut order: Vec<usize> = (0..shares.len()).collect();
                order.sort_by(|&a, &b| {
                    (exact[b] - exact[b].floor())
                        .total_cmp(&(exact[a] - exact[a].floor()))
                        .then(a.cmp(&b))
                });
                let missing = n.saturating_sub(counts.iter().sum());
                order.iter().cycle().take(missing).for_each(|&k| counts[k] += 1);
                counts
            }
        }
    }

    /// The two counts of a two-class generator (synthetic data), classes +1 then −1.
    pub fn two(&self) -> [usize; 2] {
        let c = self.per_class(&[0.5, 0.5], &[0, 0]);
        [c[0], c[1]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_follow_shares_and_add_up() {
        assert_eq!(Sizes::Total(200).per_class(&[0.5, 0.5], &[]), [100, 100]);
        assert_eq!(Sizes::Total(7).per_class(&[0.3, 0.7], &[]), [2, 5]);
        assert_eq!(Sizes::Total(5).per_class(&[0.5, 0.5], &[]), [3, 2]);
        assert_eq!(Sizes::Total(10).per_class(&[0.25, 0.25, 0.5], &[]), [3, 2, 5]);
        assert_eq!(Sizes::PerClass(vec![3, 9]).per_class(&[0.5, 0.5], &[]), [3, 9]);
        assert_eq!(Sizes::Rest.per_class(&[0.5, 0.5], &[4, 6]), [4, 6]);
        for n in 0..50 {
            let c = Sizes::Total(n).per_class(&[0.37, 0.63], &[]);
            assert_eq!(c[0] + c[1], n);
            // Two classes: the rounded share of the first, as before multi-class support.
            assert_eq!(c[0], (n as f64 * 0.37).round() as usize);
            assert_eq!(Sizes::Total(n).per_class(&[0.2, 0.3, 0.5], &[]).iter().sum::<usize>(), n);
        }
    }
}
