//! The weighted examples a solver sees over the rows of a [`Design`](super::Design), and
//! the objectives they define.

/// Weighted examples over the rows of a design: example `k` puts label `y[k]` (±1) with
/// cost `c[k]` ≥ 0 on row `row[k]`. Rows are nondecreasing in `k`; a row may carry two
/// examples (deterministic annealing puts each unlabeled row in as +1 and as −1).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Examples {
    pub row: Vec<usize>,
    pub y: Vec<f64>,
    pub c: Vec<f64>,
}

impl Examples {
    /// Appends one example (rows must come in nondecreasing order).
    pub fn push(&mut self, row: usize, y: f64, c: f64) {
        self.row.push(row);
        self.y.push(y);
        self.c.push(c);
    }

    /// Number of examples.
    pub fn len(&self) -> usize {
        self.row.len()
    }

    /// True when there is no example.
    pub fn is_empty(&self) -> bool {
        self.row.is_empty()
    }

    /// ½ Σ_k c_k max(0, 1 − y_k o_{row k})², given the outputs `o` of every design row.
    pub fn loss(&self, o: &[f64]) -> f64 {
        let mut s = 0.0;
        for k in 0..self.len() {
            let e = 1.0 - self.y[k] * o[self.row[k]];
            if e > 0.0 {
                s += self.c[k] * e * e;
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
