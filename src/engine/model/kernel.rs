//! The kernel expansion of the RKHS graph methods (`methods::graph`): raw scores
//! f(x) = Σᵢ aᵢ K(xᵢ, x) + b over the fit's support rows xᵢ with the fit's RBF kernel
//! K(x, y) = exp(−‖x − y‖² / (2 s²)) (squared distance ‖x‖² + ‖y‖² − 2 x·y clamped at 0, the
//! Gram matrix's formula), then the decision rule's pointwise form ([`PointRule`]) with the
//! parameters fixed at fit time.

use std::sync::Arc;

use ndarray::{Array1, Array2, ArrayView1};
use rayon::prelude::*;

use super::Rows;
use super::neighbours::dense_rows;
use crate::engine::Scores;
use crate::error::{Error, Result};

/// New points per parallel task (each meets every support row).
const POINTS_PER_TASK: usize = 64;

/// A fit's decision rule as a map of one point's raw scores s (binary: one, else one per
/// class), its parameters fixed at fit time from the unlabeled scores.
#[derive(Debug, Clone, PartialEq)]
pub enum PointRule {
    /// The scores as they are.
    Plain,
    /// s_k − t_k: `zero_mean` (t the unlabeled mean) and binary `balance` (t the threshold
    /// between the n₊-th and (n₊+1)-th unlabeled score).
    Offset(Array1<f64>),
    /// `class_mass`, weights w fixed: binary w₊ max(0, (1 + s)/2) − w₋ max(0, (1 − s)/2)
    /// (w = [w₊, w₋]); per class w_k max(0, s_k).
    ClassMass(Array1<f64>),
    /// Per-class `balance`: cut c_k is the score of the unlabeled point that filled class k
    /// (−∞ if it never filled); the point goes, one-hot, to the first class by decreasing
    /// s_k (ties to the lower class) with s_k ≥ c_k, else to the argmax — where the fit's
    /// greedy would have placed it with the other points' classes fixed.
    Cuts(Array1<f64>),
}

impl PointRule {
    /// The parameters of the rule (none for `Plain`).
    pub fn parameters(&self) -> Option<&Array1<f64>> {
        match self {
            PointRule::Plain => None,
            PointRule::Offset(v) | PointRule::ClassMass(v) | PointRule::Cuts(v) => Some(v),
        }
    }

    /// Applies the rule to one point's scores `s` in place.
    pub fn apply(&self, s: &mut [f64]) {
        match self {
            PointRule::Plain => {}
            PointRule::Offset(t) => s.iter_mut().zip(t).for_each(|(v, t)| *v -= t),
            PointRule::ClassMass(w) if s.len() == 1 => {
                let member = |v: f64, sign: f64| (0.5 * (1.0 + sign * v)).max(0.0);
                s[0] = w[0] * member(s[0], 1.0) - w[1] * member(s[0], -1.0);
            }
            PointRule::ClassMass(w) => s.iter_mut().zip(w).for_each(|(v, w)| *v = w * v.max(0.0)),
            PointRule::Cuts(cut) => {
                let mut order: Vec<usize> = (0..s.len()).collect();
                order.sort_by(|&a, &b| s[b].total_cmp(&s[a]));
                let class = order.iter().copied().find(|&k| s[k] >= cut[k]).unwrap_or(order[0]);
                s.iter_mut().enumerate().for_each(|(k, v)| *v = f64::from(u8::from(k == class)));
            }
        }
    }

    /// The rule's code in a saved model (the order of the variants).
    fn code(&self) -> f64 {
        match self {
            PointRule::Plain => 0.0,
            PointRule::Offset(_) => 1.0,
            PointRule::ClassMass(_) => 2.0,
            PointRule::Cuts(_) => 3.0,
        }
    }

    /// The rule of `code` with the parameters `v` (ignored by `Plain`).
    pub fn from_code(code: f64, v: Array1<f64>) -> Option<Self> {
        Some(match code {
            0.0 => PointRule::Plain,
            1.0 => PointRule::Offset(v),
            2.0 => PointRule::ClassMass(v),
            3.0 => PointRule::Cuts(v),
            _ => return None,
        })
    }

    /// The number of parameters a rule needs for `columns` score columns.
    fn expected(&self, columns: usize) -> usize {
        match (self, columns) {
            (PointRule::Plain, _) => 0,
            (PointRule::ClassMass(_), 1) => 2,
            _ => columns,
        }
    }
}

/// f(x) = Σᵢ aᵢ K(xᵢ, x) + b per score column, then the decision rule.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelExpansion {
    /// The support rows xᵢ (n × d): the fit rows, labeled first (RLS and SVM: the labeled
    /// rows only).
    pub rows: Arc<Array2<f64>>,
    /// The coefficients aᵢ (n × K: one column for two classes).
    pub coef: Array2<f64>,
    /// The bias b per column.
    pub bias: Array1<f64>,
    /// The RBF width s.
    pub width: f64,
    /// The decision rule's pointwise form.
    pub rule: PointRule,
}

impl KernelExpansion {
    /// The expansion of `coef` over `rows` (as many rows, one bias per column, a width > 0
    /// and the parameters `rule` needs).
    pub fn new(
        rows: Arc<Array2<f64>>,
        coef: Array2<f64>,
        bias: Array1<f64>,
        width: f64,
        rule: PointRule,
    ) -> Result<Self> {
        let k = coef.ncols();
        let params = rule.parameters().map_or(0, |v| v.len());
        if rows.nrows() != coef.nrows() || rows.nrows() == 0 || bias.len() != k || k == 0 {
            return Err(Error::Data(format!(
                "kernel expansion: {} support rows, {} × {k} coefficients, {} biases",
                rows.nrows(),
                coef.nrows(),
                bias.len()
            )));
        }
        if !(width > 0.0 && width.is_finite()) || params != rule.expected(k) {
            return Err(Error::Data(format!(
                "kernel expansion: width {width} (must be > 0), {params} decision parameters \
                 for {k} columns (expected {})",
                rule.expected(k)
            )));
        }
        Ok(KernelExpansion { rows, coef, bias, width, rule })
    }

    /// The number of features.
    pub fn dim(&self) -> usize {
        self.rows.ncols()
    }

    /// The raw scores Σᵢ aᵢ K(xᵢ, q) + b of the point `q` into `out` (one per column);
    /// `norms` are the support rows' squared norms.
    fn raw(&self, q: ArrayView1<f64>, norms: &[f64], out: &mut [f64]) {
        let inv = 1.0 / (2.0 * self.width * self.width);
        let qq = q.dot(&q);
        out.fill(0.0);
        for (i, (x, n)) in self.rows.rows().into_iter().zip(norms).enumerate() {
            // Clamped at 0 as the Gram matrix, but a NaN stays NaN (f64::max would drop it).
            let d2 = qq + n - 2.0 * q.dot(&x);
            let k = (-(if d2 < 0.0 { 0.0 } else { d2 }) * inv).exp();
            out.iter_mut().zip(self.coef.row(i)).for_each(|(o, a)| *o += a * k);
        }
        out.iter_mut().zip(&self.bias).for_each(|(o, b)| *o += b);
    }

    /// Scores of the rows of `x` (of the model's width), rows in parallel.
    pub fn score(&self, x: Rows) -> Scores {
        let norms: Vec<f64> = self.rows.rows().into_iter().map(|r| r.dot(&r)).collect();
        let (n, c) = (x.shape().0, self.coef.ncols());
        let mut out = vec![0.0; n * c];
        out.par_chunks_mut(POINTS_PER_TASK * c).enumerate().for_each(|(t, block)| {
            let first = t * POINTS_PER_TASK;
            let points = dense_rows(x, first..first + block.len() / c);
            for (q, o) in points.rows().into_iter().zip(block.chunks_mut(c)) {
                self.raw(q, &norms, o);
                self.rule.apply(o);
            }
        });
        match c {
            1 => Scores::Binary(Array1::from(out)),
            _ => Scores::PerClass(Array2::from_shape_vec((n, c), out).expect("n × c")),
        }
    }

    /// The `.npz` arrays: `support` (n × d), `coef` (n × K), `bias` (K,), `width` (1,),
    /// `rule` (1,: 0 plain, 1 offset, 2 class mass, 3 cuts) and `rule_params`.
    pub fn arrays(&self) -> Vec<(&'static str, Vec<usize>, Vec<f64>)> {
        let params = self.rule.parameters().map_or(Vec::new(), |v| v.to_vec());
        vec![
            ("support", self.rows.shape().to_vec(), self.rows.iter().copied().collect()),
            ("coef", self.coef.shape().to_vec(), self.coef.iter().copied().collect()),
            ("bias", vec![self.bias.len()], self.bias.to_vec()),
            ("width", vec![1], vec![self.width]),
            ("rule", vec![1], vec![self.rule.code()]),
            ("rule_params", vec![params.len()], params),
        ]
    }

    /// Reads the arrays of [`arrays`](Self::arrays), each name after `prefix`, from `z`
    /// (the file `path`).
    pub fn read(
        z: &mut crate::data::npz::Npz,
        path: &std::path::Path,
        prefix: &str,
        hint: &str,
    ) -> Result<Self> {
        let what = |name: &str| format!("{}: `{prefix}{name}`", path.display());
        let mut get = |name: &str| z.array(&format!("{prefix}{name}"), hint);
        let rows = get("support")?.matrix(&what("support"))?;
        let coef = get("coef")?.matrix(&what("coef"))?;
        let bias = get("bias")?.vector(&what("bias"))?;
        let width = get("width")?.vector(&what("width"))?;
        let code = get("rule")?.vector(&what("rule"))?;
        let params = get("rule_params")?.vector(&what("rule_params"))?;
        let bad = |name: &str, why: &str| Error::Data(format!("{}: {why}", what(name)));
        let width = *width.first().ok_or_else(|| bad("width", "expected one value"))?;
        let rule = code
            .first()
            .and_then(|&c| PointRule::from_code(c, params))
            .ok_or_else(|| bad("rule", "expected one code 0, 1, 2 or 3"))?;
        KernelExpansion::new(Arc::new(rows), coef, bias, width, rule)
            .map_err(|e| Error::Data(format!("{}: {e}", path.display())))
    }
}
