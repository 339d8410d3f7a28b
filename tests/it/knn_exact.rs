//! The kNN lists of all 9,298 USPS digits (k = 10), ranked from f32 candidates, against the
//! f64 route they took before: every distance from faer products −2 X Xᵀ (blocks of 256
//! rows against all), ((c + ‖x_i‖²) + ‖x_j‖²) clamped at 0, each row sorted by (distance,
//! index). Indices and distance bits must agree. Ignored without the data mirror.

use crate::common;

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};
use ndarray::Axis;
use sslab::data::load::load_named;
use sslab::data::registry::Registry;
use sslab::methods::graph::KnnGraph;

#[test]
#[ignore = "needs the data mirror (../shared/data or SSLAB_DATA_MIRROR); make test runs it where present"]
fn usps_lists_equal_the_f64_products() {
    let data = common::fetched(&common::mirror(), &["usps"], "knn-exact");
    let reg = Registry::builtin().unwrap();
    let x = load_named(&reg, "usps", &data.0, None).unwrap().x.to_dense().into_owned();
    let (n, d, k) = (x.nrows(), x.ncols(), 10);
    assert_eq!((n, d), (9_298, 256));
    let (index, value) = KnnGraph::default().neighbours(x.view()).unwrap();
    let norms: Vec<f64> = x.map_axis(Axis(1), |r| r.dot(&r)).to_vec();
    let all = MatRef::from_row_major_slice(x.as_slice().unwrap(), n, d);
    let mut p = Mat::zeros(256, n);
    for start in (0..n).step_by(256) {
        let rows = 256.min(n - start);
        let out = p.as_mut().submatrix_mut(0, 0, rows, n);
        let block = all.subrows(start, rows);
        matmul(out, Accum::Replace, block, all.transpose(), -2.0, Par::Seq);
        for r in 0..rows {
            let i = start + r;
            let mut row: Vec<(f64, usize)> = (0..n)
                .filter(|&j| j != i)
                .map(|j| (((p[(r, j)] + norms[i]) + norms[j]).max(0.0), j))
                .collect();
            let order =
                |a: &(f64, usize), b: &(f64, usize)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
            row.select_nth_unstable_by(k, order);
            row[..k].sort_by(order);
            let at = i * k..(i + 1) * k;
            let expect: Vec<usize> = row[..k].iter().map(|e| e.1).collect();
            assert_eq!(index[at.clone()], expect[..], "row {i}");
            let bits: Vec<u64> = row[..k].iter().map(|e| e.0.to_bits()).collect();
            let got: Vec<u64> = value[at].iter().map(|v| v.to_bits()).collect();
            assert_eq!(got, bits, "row {i}");
        }
    }
}
