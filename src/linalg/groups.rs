//! How the AVX-512 passes split several vectors into groups that share each load.

use std::ops::Range;

/// `n` items as the fewest consecutive groups of at most `max`, their sizes as equal as can
/// be (5 items by 4: 3 + 2, not 4 + 1).
pub(super) fn balanced_groups(n: usize, max: usize) -> impl Iterator<Item = Range<usize>> {
    let mut start = 0;
    (1..=n.div_ceil(max)).rev().map(move |left| {
        let size = (n - start).div_ceil(left);
        start += size;
        start - size..start
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_balanced_consecutive_and_cover_all() {
        let sizes = |n| balanced_groups(n, 4).map(|r| r.len()).collect::<Vec<_>>();
        assert_eq!(sizes(0), Vec::<usize>::new());
        assert_eq!(sizes(4), [4]);
        assert_eq!(sizes(5), [3, 2]);
        assert_eq!(sizes(9), [3, 3, 3]);
        assert_eq!(balanced_groups(7, 4).collect::<Vec<_>>(), [0..4, 4..7]);
    }
}
