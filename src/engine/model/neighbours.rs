//! The out-of-sample rule of the graph-only methods (`methods::sparse_graph`): a new point's
//! scores are the weighted mean of the scores of its k nearest fit rows (labeled and
//! unlabeled), under the graph's own k and [`KnnWeights`] formula with d_k(x) the distance
//! from the point to its k-th nearest fit row; a point equal to a fit row (every coordinate,
//! so at distance 0) takes that row's scores, so the fit rows score as the fit. Nearest rows
//! by the exact search's distances (`linalg::rank_query`), ties by fit-row index.

use std::cmp::Ordering;
use std::sync::{Arc, OnceLock};

use ndarray::{Array1, Array2, ArrayView1};
use rayon::prelude::*;

use super::Rows;
use crate::data::npz::Npz;
use crate::engine::Scores;
use crate::error::{Error, Result};
use crate::linalg::{rank, rank_query};

/// New points per parallel task (each ranks every fit row).
const POINTS_PER_TASK: usize = 16;

/// Edge weights w_ij for j among the k nearest neighbours of i; d_k(x_i) is the distance
/// from x_i to its k-th nearest other point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KnnWeights {
    /// exp(−4‖x_i − x_j‖² / d_k(x_i)²): GraphLearning's `gaussian` kernel.
    #[default]
    KnnGaussian,
    /// exp(−‖x_i − x_j‖² / (d_k(x_i) d_k(x_j))) (Zelnik-Manor & Perona).
    SelfTuning,
    /// 1 on every edge (scikit-learn's `connectivity`).
    Binary,
}

impl KnnWeights {
    /// Every weighting, in config order.
    pub const ALL: [KnnWeights; 3] =
        [KnnWeights::KnnGaussian, KnnWeights::SelfTuning, KnnWeights::Binary];

    /// The config spelling (`knn_gaussian`, `self_tuning`, `binary`).
    pub fn name(&self) -> &'static str {
        match self {
            KnnWeights::KnnGaussian => "knn_gaussian",
            KnnWeights::SelfTuning => "self_tuning",
            KnnWeights::Binary => "binary",
        }
    }

    /// w_ij from the squared distance `d2` = ‖x_i − x_j‖² and the squared k-th distances
    /// d_k(x_i)², d_k(x_j)² (the second read by self-tuning only); 1 at distance 0.
    pub fn weight(&self, d2: f64, kth_i: f64, kth_j: f64) -> f64 {
        let scale = match self {
            KnnWeights::KnnGaussian => kth_i / 4.0,
            KnnWeights::SelfTuning => (kth_i * kth_j).sqrt(),
            KnnWeights::Binary => return 1.0,
        };
        if d2 == 0.0 { 1.0 } else { (-d2 / scale.max(f64::MIN_POSITIVE)).exp() }
    }
}

/// The fit rows, their scores and the graph's k and weights.
#[derive(Debug, Clone)]
pub struct Neighbours {
    /// The fit rows (n × d, row-major), shared with the fit.
    pub rows: Arc<Array2<f64>>,
    /// Each fit row's scores: n × 1 for two classes, n × K for K classes.
    pub scores: Array2<f64>,
    /// Neighbours of a new point: the graph's k.
    pub k: usize,
    /// The graph's weight formula.
    pub weights: KnnWeights,
    /// Built when the model first scores.
    index: OnceLock<Index>,
}

/// What scoring reads besides the rows: their squared norms, their order by coordinates
/// (for the exact matches) and, for self-tuning weights, each row's d_k².
#[derive(Debug, Clone)]
struct Index {
    norms: Vec<f64>,
    order: Vec<usize>,
    kth: Option<Vec<f64>>,
}

impl PartialEq for Neighbours {
    fn eq(&self, other: &Self) -> bool {
        (self.rows == other.rows && self.scores == other.scores)
            && (self.k, self.weights) == (other.k, other.weights)
    }
}

/// Rows `range` of `x` as a dense row-major block.
pub(super) fn dense_rows(x: Rows, range: std::ops::Range<usize>) -> Array2<f64> {
    match x {
        Rows::Dense(x) => x.slice(ndarray::s![range, ..]).as_standard_layout().into_owned(),
        Rows::Sparse(x) => {
            let mut out = Array2::zeros((range.len(), x.ncols()));
            for (r, i) in range.enumerate() {
                let (cols, values) = x.row(i);
                values.iter().enumerate().for_each(|(t, v)| out[(r, cols.get(t))] = *v);
            }
            out
        }
    }
}

/// Rows compared coordinate by coordinate (−0 as +0), then by index.
fn by_coordinates(a: ArrayView1<f64>, b: ArrayView1<f64>) -> Ordering {
    a.iter()
        .zip(b)
        .map(|(u, v)| (u + 0.0).total_cmp(&(v + 0.0)))
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

impl Neighbours {
    /// The model of fit rows `rows` with scores `scores` (one row each) under the graph's
    /// `k` and `weights`; fails unless there are more than k rows.
    pub fn new(
        rows: Arc<Array2<f64>>,
        scores: Array2<f64>,
        k: usize,
        weights: KnnWeights,
    ) -> Result<Self> {
        if scores.nrows() != rows.nrows() || k == 0 || rows.nrows() <= k {
            return Err(Error::Data(format!(
                "neighbours model: {} fit rows, {} rows of scores, k = {k} (needs 1 ≤ k < rows)",
                rows.nrows(),
                scores.nrows()
            )));
        }
        Ok(Neighbours { rows, scores, k, weights, index: OnceLock::new() })
    }

    /// The number of features.
    pub fn dim(&self) -> usize {
        self.rows.ncols()
    }

    fn index(&self) -> &Index {
        self.index.get_or_init(|| {
            let x = self.rows.view();
            let norms: Vec<f64> = x.rows().into_iter().map(|r| r.dot(&r)).collect();
            let mut order: Vec<usize> = (0..x.nrows()).collect();
            order.par_sort_by(|&i, &j| by_coordinates(x.row(i), x.row(j)).then(i.cmp(&j)));
            let kth = (self.weights == KnnWeights::SelfTuning).then(|| {
                (0..x.nrows())
                    .into_par_iter()
                    .map(|i| {
                        let (mut index, mut value) = (vec![0; self.k], vec![0.0; self.k]);
                        rank(x, &norms, i, None, &mut index, &mut value);
                        value[self.k - 1]
                    })
                    .collect()
            });
            Index { norms, order, kth }
        })
    }

    /// The first fit row equal to `q`, if any.
    fn equal_row(&self, index: &Index, q: ArrayView1<f64>) -> Option<usize> {
        let x = self.rows.view();
        let at = index.order.partition_point(|&j| by_coordinates(x.row(j), q).is_lt());
        index.order.get(at).copied().filter(|&j| by_coordinates(x.row(j), q).is_eq())
    }

    /// The scores of the point `q` into `out` (one per column); `candidates` = 0..n.
    fn point(&self, index: &Index, q: ArrayView1<f64>, candidates: &[usize], out: &mut [f64]) {
        if let Some(j) = self.equal_row(index, q) {
            out.iter_mut().zip(self.scores.row(j)).for_each(|(o, s)| *o = *s);
            return;
        }
        let (mut near, mut d2) = (vec![0; self.k], vec![0.0; self.k]);
        let q_slice = q.as_slice().expect("a contiguous point");
        let x = self.rows.view();
        rank_query(q_slice, q.dot(&q), x, &index.norms, candidates, &mut near, &mut d2);
        let kth = d2[self.k - 1];
        // Read by self-tuning weights only, whose index holds every row's d_k².
        let kth_of = |j: usize| index.kth.as_ref().map_or(f64::NAN, |v| v[j]);
        let mut total = 0.0;
        out.fill(0.0);
        for (&j, &d) in near.iter().zip(&d2) {
            let w = self.weights.weight(d, kth, kth_of(j));
            total += w;
            out.iter_mut().zip(self.scores.row(j)).for_each(|(o, s)| *o += w * s);
        }
        match total > 0.0 {
            true => out.iter_mut().for_each(|o| *o /= total),
            // Every weight underflowed: the nearest row's scores.
            false => out.iter_mut().zip(self.scores.row(near[0])).for_each(|(o, s)| *o = *s),
        }
    }

    /// Scores of the rows of `x` (of the model's width), rows in parallel.
    pub fn score(&self, x: Rows) -> Scores {
        let index = self.index();
        let candidates: Vec<usize> = (0..self.rows.nrows()).collect();
        let (n, c) = (x.shape().0, self.scores.ncols());
        let mut out = vec![0.0; n * c];
        out.par_chunks_mut(POINTS_PER_TASK * c).enumerate().for_each(|(t, block)| {
            let first = t * POINTS_PER_TASK;
            let points = dense_rows(x, first..first + block.len() / c);
            for (q, o) in points.rows().into_iter().zip(block.chunks_mut(c)) {
                self.point(index, q, &candidates, o);
            }
        });
        match c {
            1 => Scores::Binary(Array1::from(out)),
            _ => Scores::PerClass(Array2::from_shape_vec((n, c), out).expect("n × c")),
        }
    }

    /// The `.npz` arrays: `rows` (n × d), `scores` (n × K), `k` (1,) and `weighting` (1,:
    /// the index of the formula in [`KnnWeights::ALL`]).
    pub fn arrays(&self) -> Vec<(&'static str, Vec<usize>, Vec<f64>)> {
        let code = KnnWeights::ALL.iter().position(|w| *w == self.weights).expect("listed");
        vec![
            ("rows", self.rows.shape().to_vec(), self.rows.iter().copied().collect()),
            ("scores", self.scores.shape().to_vec(), self.scores.iter().copied().collect()),
            ("k", vec![1], vec![self.k as f64]),
            ("weighting", vec![1], vec![code as f64]),
        ]
    }

    /// Reads the arrays of [`arrays`](Self::arrays), each name after `prefix`, from `z`
    /// (the file `path`).
    pub fn read(z: &mut Npz, path: &std::path::Path, prefix: &str, hint: &str) -> Result<Self> {
        let what = |name: &str| format!("{}: `{prefix}{name}`", path.display());
        let mut get = |name: &str| z.array(&format!("{prefix}{name}"), hint);
        let rows = get("rows")?.matrix(&what("rows"))?;
        let scores = get("scores")?.matrix(&what("scores"))?;
        let one = |v: Array1<f64>, name: &str| match v.as_slice() {
            Some(&[x]) if x >= 0.0 && x.fract() == 0.0 => Ok(x as usize),
            _ => Err(Error::Data(format!("{}: expected one whole number", what(name)))),
        };
        let k = one(get("k")?.vector(&what("k"))?, "k")?;
        let code = one(get("weighting")?.vector(&what("weighting"))?, "weighting")?;
        let weights = *KnnWeights::ALL
            .get(code)
            .ok_or_else(|| Error::Data(format!("{}: 0, 1 or 2", what("weighting"))))?;
        Neighbours::new(Arc::new(rows), scores, k, weights)
            .map_err(|e| Error::Data(format!("{}: {e}", path.display())))
    }
}
