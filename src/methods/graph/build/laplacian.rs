//! The graph Laplacian L = D − W (D the degrees, or the unit diagonal of a normalised
//! graph): dense, and its product with a dense matrix in O(nnz · cols).

use faer::Mat;

use super::SymGraph;

/// The dense N × N Laplacian D − W.
pub fn laplacian(graph: &SymGraph) -> Mat<f64> {
    let n = graph.n();
    let degrees = graph.laplacian_diagonal();
    let mut l = Mat::zeros(n, n);
    for i in 0..n {
        l[(i, i)] = degrees[i];
        for (j, w) in graph.row(i) {
            l[(i, j)] = -w;
        }
    }
    l
}

/// L · M for a dense M with N rows, using the sparse rows of W.
pub fn laplacian_times(graph: &SymGraph, m: &Mat<f64>) -> Mat<f64> {
    let degrees = graph.laplacian_diagonal();
    let mut out = Mat::zeros(m.nrows(), m.ncols());
    for c in 0..m.ncols() {
        let col = m.col(c);
        for i in 0..graph.n() {
            let mut v = degrees[i] * col[i];
            for (j, w) in graph.row(i) {
                v -= w * col[j];
            }
            out[(i, c)] = v;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::sym_eigen;
    use crate::methods::graph::KnnGraph;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random_graph(seed: u64) -> SymGraph {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let x = ndarray::Array2::from_shape_fn((40, 3), |_| rng.random_range(-1.0..1.0));
        KnnGraph::default().build(x.view()).unwrap()
    }

    #[test]
    fn symmetric_psd_zero_row_sums() {
        for seed in 0..5 {
            let l = laplacian(&random_graph(seed));
            let n = l.nrows();
            for i in 0..n {
                let row_sum: f64 = (0..n).map(|j| l[(i, j)]).sum();
                assert!(row_sum.abs() < 1e-12);
                for j in 0..n {
                    assert_eq!(l[(i, j)], l[(j, i)]);
                }
            }
            let eig = sym_eigen(l.as_ref(), "test").unwrap();
            assert!(eig.values[0] > -1e-10, "negative eigenvalue {}", eig.values[0]);
        }
    }

    #[test]
    fn normalized_graph_gives_the_symmetric_normalised_laplacian() {
        // I − D^{-1/2} W D^{-1/2}, formed densely from the plain graph's L = D − W as
        // D^{-1/2} L D^{-1/2}: PSD, eigenvalues ≤ 2, D^{1/2}1 in its null space.
        let g = random_graph(3);
        let (plain, d) = (laplacian(&g), g.degrees());
        let reference = Mat::from_fn(40, 40, |i, j| plain[(i, j)] / (d[i] * d[j]).sqrt());
        let normalized = g.normalized();
        let l = laplacian(&normalized);
        assert!((&l - &reference).norm_max() < 1e-12);
        let m = Mat::from_fn(40, 2, |i, c| (i * (c + 1)) as f64 / 40.0);
        assert!((laplacian_times(&normalized, &m) - &l * &m).norm_max() < 1e-12);
        let root = Mat::from_fn(40, 1, |i, _| d[i].sqrt());
        assert!((&l * &root).norm_max() < 1e-12);
        let eig = sym_eigen(l.as_ref(), "test").unwrap();
        assert!(eig.values[0] > -1e-10 && eig.values[39] < 2.0 + 1e-10);
    }

    #[test]
    fn sparse_product_and_dirichlet_energy() {
        let g = random_graph(7);
        let l = laplacian(&g);
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let m = Mat::from_fn(40, 3, |_, _| rng.random_range(-1.0..1.0));
        let sparse = laplacian_times(&g, &m);
        let dense = &l * &m;
        assert!((&sparse - &dense).norm_max() < 1e-12);
        // uᵀLu = Σ_{i<j} w_ij (u_i − u_j)².
        let u: Vec<f64> = (0..40).map(|i| m[(i, 0)]).collect();
        let energy: f64 = g.edges().iter().map(|(i, j, w)| w * (u[*i] - u[*j]).powi(2)).sum();
        let quad: f64 = (0..40).map(|i| u[i] * dense[(i, 0)]).sum();
        assert!((energy - quad).abs() < 1e-10);
    }
}
