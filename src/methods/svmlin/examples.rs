//! The weighted examples a solver sees over the rows of a [`Design`](super::Design), and
//! the objectives they define.

/// Weighted examples over the rows of a design: example `k` puts label y_k (±1) with cost
/// c_k ≥ 0 on a row; rows are nondecreasing in `k`. Listed examples come first, each with
/// its row and label (a row may carry several); then paired rows, the rows after the last
/// listed one, each carrying +1 and then −1 (deterministic annealing), stored by their
/// costs only.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Examples {
    /// Rows of the listed examples (a design has fewer than 2³² rows).
    pub row: Vec<u32>,
    /// Labels of the listed examples.
    pub y: Vec<f64>,
    /// Costs of the listed examples, then of each paired row's +1 and −1 examples.
    pub c: Vec<f64>,
}

impl Examples {
    /// No example yet, with room for `listed` listed examples and `costs` costs in all (listed
    /// and paired), so that pushing them allocates nothing more.
    pub fn with_capacity(listed: usize, costs: usize) -> Self {
        Examples {
            row: Vec::with_capacity(listed),
            y: Vec::with_capacity(listed),
            c: Vec::with_capacity(costs),
        }
    }

    /// Appends one listed example (rows in nondecreasing order, before any paired row).
    pub fn push(&mut self, row: usize, y: f64, c: f64) {
        debug_assert_eq!(self.c.len(), self.row.len(), "listed examples come before paired rows");
        debug_assert!(u32::try_from(row).is_ok(), "design rows are below 2^32");
        self.row.push(row as u32);
        self.y.push(y);
        self.c.push(c);
    }

    /// Appends the next paired row: +1 with cost `c_pos`, then −1 with cost `c_neg`.
    pub fn push_pair(&mut self, c_pos: f64, c_neg: f64) {
        self.c.push(c_pos);
        self.c.push(c_neg);
    }

    /// Number of examples.
    pub fn len(&self) -> usize {
        self.c.len()
    }

    /// True when there is no example.
    pub fn is_empty(&self) -> bool {
        self.c.is_empty()
    }

    /// Row, label and cost of example `k`.
    #[inline]
    pub fn get(&self, k: usize) -> (usize, f64, f64) {
        match self.row.get(k) {
            Some(&i) => (i as usize, self.y[k], self.c[k]),
            None => self.paired(k - self.row.len(), self.c[k]),
        }
    }

    /// Row, label and cost of every example, in order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, f64, f64)> + '_ {
        let listed =
            self.row.iter().zip(&self.y).zip(&self.c).map(|((&i, &y), &c)| (i as usize, y, c));
        listed.chain(self.c[self.row.len()..].iter().enumerate().map(|(p, &c)| self.paired(p, c)))
    }

    /// Paired example `p` (counted from the first pair) with cost `c`.
    #[inline]
    fn paired(&self, p: usize, c: f64) -> (usize, f64, f64) {
        let first = self.row.last().map_or(0, |&r| r as usize + 1);
        (first + p / 2, if p.is_multiple_of(2) { 1.0 } else { -1.0 }, c)
    }

    /// ½ Σ_k c_k max(0, 1 − y_k o_{row k})², given the outputs `o` of every design row.
    pub fn loss(&self, o: &[f64]) -> f64 {
        let mut s = 0.0;
        for (i, y, c) in self.iter() {
            let e = 1.0 - y * o[i];
            if e > 0.0 {
                s += c * e * e;
            }
        }
        0.5 * s
    }
}

/// ½λ‖w‖² + the examples' loss: the l2-SVM objective.
pub fn objective(lambda: f64, w: &[f64], ex: &Examples, o: &[f64]) -> f64 {
    0.5 * lambda * w.iter().map(|v| v * v).sum::<f64>() + ex.loss(o)
}

/// max(0, 1 − z)², the squared hinge.
pub fn l2(z: f64) -> f64 {
    let e = (1.0 - z).max(0.0);
    e * e
}

/// The S3VM objective ½λ‖w‖² + (1/2l)Σ l2(y_i o_i) + (λ_u/2u)Σ_j l2(|o_j|) (labels of the
/// unlabeled rows chosen optimally), given the outputs of all design rows.
pub fn s3vm_objective(lambda: f64, lambda_u: f64, w: &[f64], y_l: &[f64], o: &[f64]) -> f64 {
    let (l, u) = (y_l.len(), o.len() - y_l.len());
    let reg = 0.5 * lambda * w.iter().map(|v| v * v).sum::<f64>();
    let lab: f64 = y_l.iter().zip(o).map(|(y, oi)| l2(y * oi)).sum();
    let unl: f64 = o[l..].iter().map(|oj| l2(oj.abs())).sum();
    reg + lab / (2.0 * l as f64) + lambda_u * unl / (2.0 * u.max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paired_rows_are_the_listed_pairs() {
        let (mut listed, mut paired) = (Examples::default(), Examples::default());
        for ex in [&mut listed, &mut paired] {
            ex.push(0, -1.0, 0.5);
            ex.push(1, 1.0, 0.25);
        }
        for (j, (cp, cn)) in [(0.1, 0.9), (0.0, 0.3), (0.7, 0.2)].into_iter().enumerate() {
            listed.push(2 + j, 1.0, cp);
            listed.push(2 + j, -1.0, cn);
            paired.push_pair(cp, cn);
        }
        assert_eq!(paired.len(), listed.len());
        assert!((0..listed.len()).all(|k| paired.get(k) == listed.get(k)));
        assert!(paired.iter().eq(listed.iter()));
        let o = [0.3, -2.0, 0.9, -0.4, 1.5];
        assert_eq!(paired.loss(&o).to_bits(), listed.loss(&o).to_bits());
    }
}
