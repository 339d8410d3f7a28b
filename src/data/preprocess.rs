//! Feature preprocessing applied to a whole dataset (all rows, before splitting: the
//! transductive setting sees every point's features), in the order the config lists it.

use ndarray::{Array1, Axis};

use super::{Csr, Features};
use crate::error::{Error, Result};

/// One preprocessing step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Subtract the column means (densifies sparse data).
    Center,
    /// Subtract the column means and divide by the column standard deviation (ddof 0);
    /// constant columns are only centred. Densifies sparse data.
    Standardize,
    /// Scale each row to unit Euclidean norm (all-zero rows stay zero).
    L2Rows,
    /// tf-idf: multiply column j by idf_j = ln((1 + n)/(1 + df_j)) + 1, df_j = number of rows
    /// with a non-zero in column j (scikit-learn's smoothed idf); keeps sparsity.
    Tfidf,
    /// Keep the first N columns (all when there are fewer); `first:N` in configs.
    FirstColumns(usize),
}

impl Step {
    /// The config names: `center`, `standardize`, `l2_rows`, `tfidf`, `first:N`.
    pub const NAMES: [&str; 5] = ["center", "standardize", "l2_rows", "tfidf", "first:N"];

    /// The step called `name` (one of [`Step::NAMES`]).
    pub fn parse(name: &str) -> Option<Step> {
        match name {
            "center" => Some(Step::Center),
            "standardize" => Some(Step::Standardize),
            "l2_rows" => Some(Step::L2Rows),
            "tfidf" => Some(Step::Tfidf),
            _ => name
                .strip_prefix("first:")
                .and_then(|n| n.parse().ok())
                .filter(|n| *n >= 1)
                .map(Step::FirstColumns),
        }
    }
}

/// A step with what it learned from the rows it was fitted on.
#[derive(Debug, Clone, PartialEq)]
pub enum Learned {
    /// Subtract `mean`, then divide by `scale` when given (standardize: the centred
    /// columns' standard deviations, 0 taken as 1). Densifies sparse rows.
    Center { mean: Array1<f64>, scale: Option<Array1<f64>> },
    /// Each row to unit Euclidean norm.
    L2Rows,
    /// Column j times `idf[j]`.
    Tfidf(Array1<f64>),
    /// The first N columns.
    FirstColumns(usize),
}

/// The preprocessing learned from a dataset's rows ([`learn`]): applies it to rows of the
/// raw width, with the bits it gave the dataset's own rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Preprocessing {
    /// Features of a raw row.
    pub raw_dim: usize,
    pub steps: Vec<Learned>,
}

/// Applies `steps` in order.
pub fn apply(x: Features, steps: &[Step]) -> Features {
    learn(x, steps).0
}

/// Applies `steps` in order, each learned from the rows as they reach it, and what they
/// learned.
pub fn learn(mut x: Features, steps: &[Step]) -> (Features, Preprocessing) {
    let raw_dim = x.ncols();
    let mut learned = Vec::with_capacity(steps.len());
    for step in steps {
        let l = match (step, &x) {
            (Step::Center | Step::Standardize, x) => {
                let d = x.to_dense();
                let mean = d.mean_axis(Axis(0)).unwrap_or_else(|| Array1::zeros(d.ncols()));
                let scale = (*step == Step::Standardize).then(|| {
                    let centred = &*d - &mean;
                    let sd =
                        centred.map_axis(Axis(0), |c| (c.dot(&c) / c.len().max(1) as f64).sqrt());
                    sd.mapv(|s| if s > 0.0 { s } else { 1.0 })
                });
                Learned::Center { mean, scale }
            }
            (Step::L2Rows, _) => Learned::L2Rows,
            (Step::Tfidf, Features::Sparse(c)) => Learned::Tfidf(idf(
                c.nrows(),
                (0..c.nrows()).flat_map(|i| c.row(i).0.iter()),
                c.ncols(),
            )),
            (Step::Tfidf, Features::Dense(d)) => {
                let nonzero = d.indexed_iter().filter(|(_, v)| **v != 0.0).map(|((_, j), _)| j);
                Learned::Tfidf(idf(d.nrows(), nonzero, d.ncols()))
            }
            (Step::FirstColumns(n), _) => Learned::FirstColumns(*n),
        };
        x = l.apply(x);
        learned.push(l);
    }
    (x, Preprocessing { raw_dim, steps: learned })
}

impl Learned {
    /// This step on the rows of `x`.
    pub fn apply(&self, x: Features) -> Features {
        match (self, x) {
            (Learned::Center { mean, scale }, x) => {
                let mut d = x.to_dense().into_owned();
                d -= mean;
                if let Some(s) = scale {
                    d /= s;
                }
                Features::Dense(d)
            }
            (Learned::L2Rows, Features::Sparse(mut c)) => {
                let norms = row_norms_sparse(&c);
                c.map_values(|i, _, v| if norms[i] > 0.0 { v / norms[i] } else { v });
                Features::Sparse(c)
            }
            (Learned::L2Rows, Features::Dense(mut d)) => {
                for mut row in d.rows_mut() {
                    let norm = row.dot(&row).sqrt();
                    if norm > 0.0 {
                        row /= norm;
                    }
                }
                Features::Dense(d)
            }
            (Learned::Tfidf(idf), Features::Sparse(mut c)) => {
                c.map_values(|_, j, v| v * idf[j]);
                Features::Sparse(c)
            }
            (Learned::Tfidf(idf), Features::Dense(mut d)) => {
                d *= idf;
                Features::Dense(d)
            }
            (Learned::FirstColumns(n), Features::Dense(d)) => {
                Features::Dense(d.slice(ndarray::s![.., ..(*n).min(d.ncols())]).to_owned())
            }
            (Learned::FirstColumns(n), Features::Sparse(c)) => {
                Features::Sparse(c.first_columns(*n))
            }
        }
    }
}

impl Preprocessing {
    /// The learned steps on raw rows `x` (an error unless they have
    /// [`raw_dim`](Self::raw_dim) features).
    pub fn transform(&self, x: Features) -> Result<Features> {
        if x.ncols() != self.raw_dim {
            return Err(Error::Data(format!(
                "rows of {} features, the preprocessing expects {}",
                x.ncols(),
                self.raw_dim
            )));
        }
        Ok(self.steps.iter().fold(x, |x, step| step.apply(x)))
    }
}

fn row_norms_sparse(c: &Csr) -> Vec<f64> {
    (0..c.nrows()).map(|i| c.row(i).1.iter().map(|v| v * v).sum::<f64>().sqrt()).collect()
}

fn idf(n: usize, nonzero_columns: impl Iterator<Item = usize>, n_cols: usize) -> Array1<f64> {
    let mut df = vec![0usize; n_cols];
    for j in nonzero_columns {
        df[j] += 1;
    }
    df.iter().map(|d| ((1.0 + n as f64) / (1.0 + *d as f64)).ln() + 1.0).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array2, array};

    fn sparse_and_dense() -> (Features, Array2<f64>) {
        let d = array![[1.0, 0.0, 3.0], [0.0, 0.0, 4.0], [2.0, 5.0, 0.0]];
        let c = Csr::new(3, vec![0, 2, 3, 5], vec![0, 2, 2, 0, 1], vec![1.0, 3.0, 4.0, 2.0, 5.0])
            .unwrap();
        (Features::Sparse(c), d)
    }

    fn close(a: &Array2<f64>, b: &Array2<f64>) {
        assert!(a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12), "{a} vs {b}");
    }

    #[test]
    fn steps_match_direct_formulas_on_sparse_and_dense() {
        let (sparse, d) = sparse_and_dense();
        // tf-idf: df = [2, 1, 2], n = 3.
        let idf = array![(4.0f64 / 3.0).ln() + 1.0, 2f64.ln() + 1.0, (4.0f64 / 3.0).ln() + 1.0];
        let want = &d * &idf;
        close(&apply(sparse.clone(), &[Step::Tfidf]).to_dense(), &want);
        close(&apply(Features::Dense(d.clone()), &[Step::Tfidf]).to_dense(), &want);
        // L2 rows: norms √10, 4, √29.
        let norms = array![[10f64.sqrt()], [4.0], [29f64.sqrt()]];
        let want = &d / &norms;
        close(&apply(sparse.clone(), &[Step::L2Rows]).to_dense(), &want);
        close(&apply(Features::Dense(d.clone()), &[Step::L2Rows]).to_dense(), &want);
        // Standardize: zero mean and unit (ddof 0) variance per column.
        let s = apply(sparse, &[Step::Standardize]).to_dense().into_owned();
        for c in s.columns() {
            assert!(c.sum().abs() < 1e-12 && (c.dot(&c) / 3.0 - 1.0).abs() < 1e-12);
        }
        let centred = apply(Features::Dense(d.clone()), &[Step::Center]).to_dense().into_owned();
        close(&centred, &(&d - &d.mean_axis(Axis(0)).unwrap()));
        // First columns, sparse and dense alike.
        let (sparse, _) = sparse_and_dense();
        let want = d.slice(ndarray::s![.., ..2]).to_owned();
        close(&apply(sparse, &[Step::FirstColumns(2)]).to_dense(), &want);
        close(&apply(Features::Dense(d.clone()), &[Step::FirstColumns(2)]).to_dense(), &want);
        assert_eq!(Step::parse("first:2"), Some(Step::FirstColumns(2)));
        assert_eq!(Step::parse("first:0"), None);
    }

    #[test]
    fn the_learned_steps_give_raw_rows_the_bits_of_the_dataset() {
        let all = [Step::Tfidf, Step::L2Rows, Step::Standardize, Step::FirstColumns(2)];
        for steps in [&all[..], &all[..2], &[Step::Center, Step::L2Rows][..], &all[3..]] {
            for raw in [sparse_and_dense().0, Features::Dense(sparse_and_dense().1)] {
                let (x, learned) = learn(raw.clone(), steps);
                let again = learned.transform(raw.select_rows(&[2, 0])).unwrap();
                let (x, again) = (x.to_dense().into_owned(), again.to_dense().into_owned());
                let want = x.select(Axis(0), &[2, 0]);
                assert!(want.iter().zip(&again).all(|(a, b)| a.to_bits() == b.to_bits()));
            }
        }
        let (_, learned) = learn(sparse_and_dense().0, &[Step::Center]);
        let err = learned.transform(Features::Dense(Array2::zeros((1, 4)))).unwrap_err();
        assert!(err.to_string().contains("4 features, the preprocessing expects 3"), "{err}");
    }

    #[test]
    fn constant_columns_and_zero_rows_stay_finite() {
        let d = array![[0.0, 1.0], [0.0, 1.0]];
        let s = apply(Features::Dense(d), &[Step::L2Rows, Step::Standardize]);
        assert!(s.to_dense().iter().all(|v| *v == 0.0));
        assert_eq!(Step::parse("tfidf"), Some(Step::Tfidf));
        assert_eq!(Step::parse("tf-idf"), None);
    }
}
