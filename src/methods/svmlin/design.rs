//! The training design: labeled rows, then unlabeled rows, as one CSR matrix with a
//! constant feature 1 appended (the bias is the last weight, regularised with w), and the
//! weighted examples a solver sees.

use ndarray::{ArrayView1, ArrayViewMut1};

use crate::data::{Csr, Features};
use crate::error::Result;

/// Stacks the rows of `parts` (in order) and appends the constant column 1.
pub fn with_bias(parts: &[&Features]) -> Result<Csr> {
    let dim = parts.first().map_or(0, |p| p.ncols());
    let mut indptr = vec![0];
    let (mut indices, mut values) = (Vec::new(), Vec::new());
    let mut push_row = |idx: &mut dyn Iterator<Item = (u32, f64)>| {
        for (j, x) in idx {
            indices.push(j);
            values.push(x);
        }
        indices.push(dim as u32);
        values.push(1.0);
        indptr.push(indices.len());
    };
    for part in parts {
        match part {
            Features::Sparse(x) => {
                for i in 0..x.nrows() {
                    let (idx, val) = x.row(i);
                    push_row(&mut idx.iter().copied().zip(val.iter().copied()));
                }
            }
            Features::Dense(x) => {
                for row in x.rows() {
                    let nz = row.iter().enumerate().filter(|(_, v)| **v != 0.0);
                    push_row(&mut nz.map(|(j, v)| (j as u32, *v)));
                }
            }
        }
    }
    Csr::new(dim + 1, indptr, indices, values)
}

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

/// `o = X w` over every design row.
pub fn outputs(x: &Csr, w: &[f64], o: &mut [f64]) {
    x.mul_vec(ArrayView1::from(w), ArrayViewMut1::from(o));
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
