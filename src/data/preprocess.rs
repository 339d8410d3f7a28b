//! Feature preprocessing applied to a whole dataset (all rows, before splitting: the
//! transductive setting sees every point's features), in the order the config lists it.

use ndarray::{Array1, Array2, Axis};

use super::{Csr, Features};

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

/// Applies `steps` in order.
pub fn apply(mut x: Features, steps: &[Step]) -> Features {
    for step in steps {
        x = match (step, x) {
            (Step::Center | Step::Standardize, x) => {
                Features::Dense(center(x.to_dense().into_owned(), *step == Step::Standardize))
            }
            (Step::L2Rows, Features::Sparse(mut c)) => {
                let norms = row_norms_sparse(&c);
                c.map_values(|i, _, v| if norms[i] > 0.0 { v / norms[i] } else { v });
                Features::Sparse(c)
            }
            (Step::L2Rows, Features::Dense(mut d)) => {
                for mut row in d.rows_mut() {
                    let norm = row.dot(&row).sqrt();
                    if norm > 0.0 {
                        row /= norm;
                    }
                }
                Features::Dense(d)
            }
            (Step::Tfidf, Features::Sparse(mut c)) => {
                let idf = idf(c.nrows(), (0..c.nrows()).flat_map(|i| c.row(i).0.iter()), c.ncols());
                c.map_values(|_, j, v| v * idf[j]);
                Features::Sparse(c)
            }
            (Step::FirstColumns(n), Features::Dense(d)) => {
                Features::Dense(d.slice(ndarray::s![.., ..(*n).min(d.ncols())]).to_owned())
            }
            (Step::FirstColumns(n), Features::Sparse(c)) => Features::Sparse(c.first_columns(*n)),
            (Step::Tfidf, Features::Dense(mut d)) => {
                let nonzero = d
                    .indexed_iter()
                    .filter(|(_, v)| **v != 0.0)
                    .map(|((_, j), _)| j)
                    .collect::<Vec<_>>();
                let idf = idf(d.nrows(), nonzero.into_iter(), d.ncols());
                d *= &idf;
                Features::Dense(d)
            }
        };
    }
    x
}

fn center(mut d: Array2<f64>, scale: bool) -> Array2<f64> {
    let mean = d.mean_axis(Axis(0)).unwrap_or_else(|| Array1::zeros(d.ncols()));
    d -= &mean;
    if scale {
        let sd = d.map_axis(Axis(0), |c| (c.dot(&c) / c.len().max(1) as f64).sqrt());
        d /= &sd.mapv(|s| if s > 0.0 { s } else { 1.0 });
    }
    d
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
    use ndarray::array;

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
    fn constant_columns_and_zero_rows_stay_finite() {
        let d = array![[0.0, 1.0], [0.0, 1.0]];
        let s = apply(Features::Dense(d), &[Step::L2Rows, Step::Standardize]);
        assert!(s.to_dense().iter().all(|v| *v == 0.0));
        assert_eq!(Step::parse("tfidf"), Some(Step::Tfidf));
        assert_eq!(Step::parse("tf-idf"), None);
    }
}
