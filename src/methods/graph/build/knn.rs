//! Exact symmetric k-nearest-neighbour graph: the k nearest per row (see [`nearest`]),
//! union symmetrisation, Gaussian weights. The graph is the same for any number of threads.

use ndarray::ArrayView2;

use super::SymGraph;
use super::nearest::nearest;
use crate::error::{Error, Result};

/// Edge weights of the kNN graph; σ_i is the distance from point i to its k-th neighbour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Weighting {
    /// Self-tuning (Zelnik-Manor & Perona): w_ij = exp(−‖x_i − x_j‖² / (σ_i σ_j)).
    #[default]
    SelfTuning,
    /// One width for all: w_ij = exp(−‖x_i − x_j‖² / σ̄²), σ̄ the mean of the σ_i.
    Gaussian,
    /// w_ij = 1 on every edge.
    Binary,
}

impl Weighting {
    /// The config spelling (`self_tuning`, `gaussian`, `binary`).
    pub fn name(&self) -> &'static str {
        match self {
            Weighting::SelfTuning => "self_tuning",
            Weighting::Gaussian => "gaussian",
            Weighting::Binary => "binary",
        }
    }
}

/// The graph: i and j are joined when either is among the other's k nearest neighbours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnnGraph {
    pub k: usize,
    pub weighting: Weighting,
    /// Normalise the weights so that the graph's Laplacian is the symmetric-normalised
    /// I − D^{-1/2} W D^{-1/2} (config `laplacian = "symmetric"`; default D − W).
    pub normalized: bool,
}

impl Default for KnnGraph {
    fn default() -> Self {
        KnnGraph { k: 10, weighting: Weighting::SelfTuning, normalized: false }
    }
}

impl KnnGraph {
    /// Builds the symmetric weighted graph of the rows of `x` (needs more than k rows).
    pub fn build(&self, x: ArrayView2<f64>) -> Result<SymGraph> {
        let n = x.nrows();
        let (neighbours, sq) = self.neighbours(x)?;
        let sigma: Vec<f64> = (0..n).map(|i| sq[i * self.k + self.k - 1].sqrt()).collect();
        let mean_sigma = sigma.iter().sum::<f64>() / n as f64;
        let weight = |i: usize, j: usize, d2: f64| -> f64 {
            let scale = match self.weighting {
                Weighting::SelfTuning => sigma[i] * sigma[j],
                Weighting::Gaussian => mean_sigma * mean_sigma,
                Weighting::Binary => return 1.0,
            };
            if d2 == 0.0 { 1.0 } else { (-d2 / scale.max(f64::MIN_POSITIVE)).exp() }
        };
        let k = self.k;
        let edges: Vec<(usize, usize, f64)> = (0..n * k)
            .map(|e| (e / k, neighbours[e], weight(e / k, neighbours[e], sq[e])))
            .collect();
        let graph = SymGraph::from_edges(n, edges)?;
        Ok(if self.normalized { graph.normalized() } else { graph })
    }

    /// For each row, its k nearest other rows and their squared distances, nearest first
    /// (row-major n × k; ties broken by index). Needs 1 ≤ k < number of rows.
    pub fn neighbours(&self, x: ArrayView2<f64>) -> Result<(Vec<usize>, Vec<f64>)> {
        let n = x.nrows();
        if self.k == 0 || n <= self.k {
            return Err(Error::Data(format!(
                "kNN graph needs 1 ≤ k < number of points, got k = {} for {n} points",
                self.k
            )));
        }
        Ok(nearest(x, self.k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::graph::build::distances::{self, row_norms};
    use faer::Mat;
    use ndarray::Array2;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random_points(n: usize, d: usize, seed: u64) -> Array2<f64> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        Array2::from_shape_fn((n, d), |_| rng.random_range(-1.0..1.0))
    }

    /// Brute force: every pair's distance, then each point's k nearest by a full sort.
    fn brute_force(x: &Array2<f64>, k: usize) -> Vec<Vec<usize>> {
        let n = x.nrows();
        (0..n)
            .map(|i| {
                let mut d: Vec<(f64, usize)> = (0..n)
                    .filter(|&j| j != i)
                    .map(|j| {
                        let diff = &x.row(i) - &x.row(j);
                        (diff.dot(&diff), j)
                    })
                    .collect();
                d.sort_by(|a, b| a.0.total_cmp(&b.0));
                d[..k].iter().map(|p| p.1).collect()
            })
            .collect()
    }

    #[test]
    fn symmetric_and_equal_to_brute_force() {
        // 300 rows: two distance blocks, the second partial.
        let x = random_points(300, 5, 1);
        let knn = KnnGraph { k: 6, ..KnnGraph::default() };
        let g = knn.build(x.view()).unwrap();
        let brute = brute_force(&x, 6);
        for i in 0..300 {
            for (j, w) in g.row(i) {
                assert_eq!(g.weight(j, i), w, "asymmetric at ({i}, {j})");
                assert!(w > 0.0 && w <= 1.0);
                assert!(
                    brute[i].contains(&j) || brute[j].contains(&i),
                    "edge ({i}, {j}) not a kNN pair"
                );
            }
            for &j in &brute[i] {
                assert!(g.weight(i, j) > 0.0, "missing kNN edge ({i}, {j})");
            }
        }
    }

    #[test]
    fn the_same_graph_with_one_or_two_threads_and_ties_by_index() {
        // 1,300 rows: six blocks, the last partial, the first two in two products each;
        // duplicated points make exact ties.
        let n = 1_300;
        let mut x = random_points(n, 4, 2);
        for i in (0..n).step_by(7) {
            let copy = x.row((i + n / 2) % n).to_owned();
            x.row_mut(i).assign(&copy);
        }
        let knn = KnnGraph { k: 5, ..KnnGraph::default() };
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| knn.neighbours(x.view()).unwrap())
        };
        let (one, two) = (run(1), run(2));
        assert!(
            one.0 == two.0 && one.1.iter().zip(&two.1).all(|(a, b)| a.to_bits() == b.to_bits())
        );
        // Against a full sort by (distance, index) of the distances of one row against all,
        // which are also the bits of the distances kept.
        let norms = row_norms(x.view());
        let mut all = Mat::zeros(n, n);
        distances::sq_distances_block(x.view(), &norms, 0, &mut all);
        for i in 0..n {
            let mut d: Vec<(f64, usize)> =
                (0..n).filter(|&j| j != i).map(|j| (all[(i, j)], j)).collect();
            d.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let expect: Vec<usize> = d[..5].iter().map(|p| p.1).collect();
            assert_eq!(one.0[i * 5..(i + 1) * 5], expect[..], "row {i}");
            assert!(
                d[..5]
                    .iter()
                    .zip(&one.1[i * 5..(i + 1) * 5])
                    .all(|(p, v)| p.0.to_bits() == v.to_bits()),
                "row {i}"
            );
        }
    }

    #[test]
    fn self_tuning_weight_formula_and_binary() {
        // Points on a line at 0, 1, 3: with k = 1, σ = (1, 1, 2).
        let x = ndarray::array![[0.0], [1.0], [3.0]];
        let g = KnnGraph { k: 1, ..KnnGraph::default() }.build(x.view()).unwrap();
        assert!((g.weight(0, 1) - (-1.0f64).exp()).abs() < 1e-12);
        assert!((g.weight(1, 2) - (-4.0f64 / 2.0).exp()).abs() < 1e-12);
        assert_eq!(g.weight(0, 2), 0.0);
        let b = KnnGraph { k: 1, weighting: Weighting::Binary, normalized: false }
            .build(x.view())
            .unwrap();
        assert_eq!(b.weight(1, 2), 1.0);
        assert!(
            KnnGraph { k: 3, weighting: Weighting::Binary, normalized: false }
                .build(x.view())
                .is_err()
        );
    }
}
