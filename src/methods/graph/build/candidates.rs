//! Per-row candidate neighbours from approximate distances with error bounds: a pair whose
//! lower bound exceeds the k-th smallest upper bound seen so far cannot be among the k
//! nearest, so a row keeps only the pairs (lower, upper, index) within that bound. A row
//! that would keep more than its capacity ("overflows": many ties) stops keeping pairs but
//! still tracks its bound, and its candidates are found again from that final bound.
//! Either way the final ranking is exact, so the order in which pairs arrive (the number
//! of threads) changes nothing.

/// A row's candidates when all pairs have been offered.
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    /// These rows (any row among the k nearest is one of them).
    Among(Vec<usize>),
    /// The rows whose lower bound is within this bound (the row overflowed).
    Within(f64),
}

/// Candidate lists of several rows, each with room for a fixed number of pairs.
pub struct Candidates {
    k: usize,
    cap: usize,
    /// Per row, an outer bound on its k-th upper bound (from lists elsewhere).
    outer: Vec<f64>,
    /// Per row, the k smallest upper bounds kept, ascending, padded with ∞.
    top: Vec<f64>,
    /// Per row, the number of pairs kept, or `OVERFLOW`.
    len: Vec<usize>,
    lower: Vec<f64>,
    upper: Vec<f64>,
    index: Vec<usize>,
}

/// `len` of a row that overflowed.
const OVERFLOW: usize = usize::MAX;

impl Candidates {
    /// Empty lists for `rows` rows, room for `cap` ≥ k pairs each.
    pub fn new(rows: usize, k: usize, cap: usize) -> Self {
        let mut c = Candidates {
            k,
            cap,
            outer: Vec::new(),
            top: Vec::new(),
            len: Vec::new(),
            lower: Vec::new(),
            upper: Vec::new(),
            index: Vec::new(),
        };
        c.reset(rows);
        c
    }

    /// Empties the lists, for `rows` rows with no outer bound.
    pub fn reset(&mut self, rows: usize) {
        self.outer.clear();
        self.outer.resize(rows, f64::INFINITY);
        self.top.clear();
        self.top.resize(rows * self.k, f64::INFINITY);
        self.len.clear();
        self.len.resize(rows, 0);
        for v in [&mut self.lower, &mut self.upper] {
            v.resize(rows * self.cap, 0.0);
        }
        self.index.resize(rows * self.cap, 0);
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.len.len()
    }

    /// Sets row r's outer bound (a pair whose lower bound exceeds it is not kept).
    pub fn limit(&mut self, r: usize, bound: f64) {
        self.outer[r] = bound;
    }

    /// The bound a pair's lower bound must not exceed to be kept by row r.
    pub fn bound(&self, r: usize) -> f64 {
        self.outer[r].min(self.top[(r + 1) * self.k - 1])
    }

    /// Whether row r overflowed.
    pub fn overflowed(&self, r: usize) -> bool {
        self.len[r] == OVERFLOW
    }

    /// Marks row r overflowed.
    pub fn overflow(&mut self, r: usize) {
        self.len[r] = OVERFLOW;
    }

    /// Offers the pair (row r, `index`) with distance bounds `lower` ≤ `upper`; returns
    /// the row's bound afterwards.
    pub fn offer(&mut self, r: usize, lower: f64, upper: f64, index: usize) -> f64 {
        let bound = self.bound(r);
        if !(lower <= bound) {
            return bound;
        }
        if self.len[r] == self.cap {
            self.compact(r, bound);
            if self.len[r] == self.cap {
                self.overflow(r);
            }
        }
        if !self.overflowed(r) {
            let at = r * self.cap + self.len[r];
            (self.lower[at], self.upper[at], self.index[at]) = (lower, upper, index);
            self.len[r] += 1;
        }
        self.tighten(r, upper)
    }

    /// Enters an upper bound among row r's k smallest; returns the row's bound.
    fn tighten(&mut self, r: usize, upper: f64) -> f64 {
        let top = &mut self.top[r * self.k..(r + 1) * self.k];
        if upper < top[self.k - 1] {
            let mut m = self.k - 1;
            while m > 0 && upper < top[m - 1] {
                top[m] = top[m - 1];
                m -= 1;
            }
            top[m] = upper;
        }
        self.bound(r)
    }

    /// Drops row r's pairs whose lower bound exceeds `bound`.
    fn compact(&mut self, r: usize, bound: f64) {
        let (start, mut kept) = (r * self.cap, 0);
        for t in 0..self.len[r] {
            if self.lower[start + t] <= bound {
                self.lower[start + kept] = self.lower[start + t];
                self.upper[start + kept] = self.upper[start + t];
                self.index[start + kept] = self.index[start + t];
                kept += 1;
            }
        }
        self.len[r] = kept;
    }

    /// Offers row `from` of `other` (all its pairs, or its overflow and upper bounds) to
    /// row r.
    pub fn take(&mut self, r: usize, other: &Candidates, from: usize) {
        if other.overflowed(from) {
            self.overflow(r);
            for &upper in &other.top[from * other.k..(from + 1) * other.k] {
                self.tighten(r, upper);
            }
            return;
        }
        let start = from * other.cap;
        for t in start..start + other.len[from] {
            self.offer(r, other.lower[t], other.upper[t], other.index[t]);
        }
    }

    /// Row r's candidates: the pairs within its final bound, or the bound if it overflowed.
    pub fn finish(&self, r: usize) -> Found {
        let (start, bound) = (r * self.cap, self.bound(r));
        if self.overflowed(r) {
            return Found::Within(bound);
        }
        let kept = start..start + self.len[r];
        Found::Among(kept.filter(|&t| self.lower[t] <= bound).map(|t| self.index[t]).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_pairs_within_the_kth_upper_bound_and_overflows() {
        // k = 2: after (0, 1) and (2, 3) the bound is 3; (2.5, 4) is kept, (3.5, 5) not,
        // and (0.5, 1.5) lowers it to 1.5, dropping (2, 3) and (2.5, 4) at the end.
        let mut c = Candidates::new(1, 2, 4);
        assert_eq!(c.offer(0, 0.0, 1.0, 7), f64::INFINITY);
        assert_eq!(c.offer(0, 2.0, 3.0, 8), 3.0);
        assert_eq!(c.offer(0, 2.5, 4.0, 9), 3.0);
        assert_eq!(c.offer(0, 3.5, 5.0, 10), 3.0);
        assert_eq!(c.offer(0, 0.5, 1.5, 11), 1.5);
        assert_eq!(c.finish(0), Found::Among(vec![7, 11]));
        // Full: compacting makes room once, then five pairs within one bound overflow; the
        // bound still falls with the upper bounds offered.
        c.offer(0, 1.0, 1.0, 12);
        c.offer(0, 1.0, 1.0, 13);
        assert_eq!(c.finish(0), Found::Among(vec![7, 11, 12, 13]));
        assert_eq!(c.offer(0, 1.0, 1.0, 14), 1.0);
        assert!(c.overflowed(0));
        assert_eq!(c.offer(0, 0.1, 0.9, 15), 1.0);
        assert_eq!(c.offer(0, 0.1, 0.8, 16), 0.9);
        assert_eq!(c.finish(0), Found::Within(0.9));
        let mut d = Candidates::new(1, 2, 4);
        d.offer(0, 0.0, 0.95, 3);
        d.take(0, &c, 0);
        assert!(d.overflowed(0));
        assert_eq!(d.finish(0), Found::Within(0.9));
    }
}
