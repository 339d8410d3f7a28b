//! `nearest` against the f64 route the kNN lists took before their f32 candidates: every
//! distance from one faer product −2 X Xᵀ (`sq_distances_block`), each row fully sorted by
//! (distance, index). Indices and distance bits must agree exactly, on random data and on
//! data made to break the candidate bounds: duplicates, exact ties on a lattice, near
//! ties, a large offset, tiny and huge scales, outliers, NaN; with 1 and 2 threads.

use faer::Mat;
use faer::linalg::matmul::matmul;
use faer::{Accum, Par};
use ndarray::Array2;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::distances::{row_norms, sq_distances_block};
use super::nearest::nearest;
use crate::linalg::view;

/// The k nearest by a full sort of each row of the f64 product's distances.
fn reference(x: &Array2<f64>, k: usize) -> (Vec<usize>, Vec<f64>) {
    let n = x.nrows();
    let mut all = Mat::zeros(n, n);
    sq_distances_block(x.view(), &row_norms(x.view()), 0, &mut all);
    let (mut index, mut value) = (Vec::new(), Vec::new());
    for i in 0..n {
        let mut d: Vec<(f64, usize)> =
            (0..n).filter(|&j| j != i).map(|j| (all[(i, j)], j)).collect();
        d.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        index.extend(d[..k].iter().map(|p| p.1));
        value.extend(d[..k].iter().map(|p| p.0));
    }
    (index, value)
}

fn threads<T: Send>(t: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap().install(f)
}

fn check(x: &Array2<f64>, k: usize, what: &str) {
    let (index, value) = reference(x, k);
    for t in [1, 2] {
        let (i, v) = threads(t, || nearest(x.view(), k));
        for r in 0..x.nrows() {
            let at = r * k..(r + 1) * k;
            assert_eq!(i[at.clone()], index[at.clone()], "{what}, {t} threads: row {r}");
            let bits = |v: &[f64]| v.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&v[at.clone()]), bits(&value[at]), "{what}, {t} threads: row {r}");
        }
    }
}

/// n × d uniform on [−1, 1).
fn uniform(rng: &mut ChaCha8Rng, n: usize, d: usize) -> Array2<f64> {
    Array2::from_shape_fn((n, d), |_| rng.random_range(-1.0..1.0))
}

#[test]
fn equal_to_the_f64_route_on_random_and_adversarial_data() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    // 700 rows: three blocks, the last partial; d = 33 (no multiple of a vector).
    let x = uniform(&mut rng, 700, 33);
    check(&x, 10, "uniform");
    check(&x.mapv(|v| v + 1e6), 10, "offset 1e6");
    check(&x.mapv(|v| v * 1e-30), 5, "scale 1e-30");
    check(&x.mapv(|v| v * 1e20), 5, "scale 1e20 (beyond f32's safe range)");
    // Every third row a copy of another: ties at 0 and between the copies' neighbours.
    let mut dup = x.clone();
    for i in (0..700).step_by(3) {
        let copy = dup.row((i * 7 + 5) % 700).to_owned();
        dup.row_mut(i).assign(&copy);
    }
    check(&dup, 10, "duplicates");
    // Near ties below f32's resolution: 30 centres, each with 20 rows on shells of radius
    // 1 + m·1e-8 (m < 20) around it; only f64 orders a centre's neighbours.
    let mut shells = Array2::zeros((630, 16));
    for c in 0..30 {
        let centre = uniform(&mut rng, 1, 16).mapv(|v| v * 10.0);
        shells.row_mut(c * 21).assign(&centre.row(0));
        for m in 1..21 {
            let v = uniform(&mut rng, 1, 16);
            let r =
                (1.0 + f64::from(rng.random_range(0..20)) * 1e-8) / v.row(0).dot(&v.row(0)).sqrt();
            shells.row_mut(c * 21 + m).assign(&(&centre.row(0) + &v.row(0).mapv(|v| v * r)));
        }
    }
    check(&shells, 10, "near ties on shells");
    // Integer lattice in 3 dimensions: distances are integers, many tie at the k-th.
    let lattice = Array2::from_shape_fn((600, 3), |_| f64::from(rng.random_range(0..6)));
    check(&lattice, 10, "lattice");
    // Outliers: a few rows 1,000 times farther out.
    let mut far = uniform(&mut rng, 400, 20);
    for i in (0..400).step_by(50) {
        far.row_mut(i).mapv_inplace(|v| v * 1e3);
    }
    check(&far, 7, "outliers");
    let mut nan = uniform(&mut rng, 300, 8);
    nan[(17, 3)] = f64::NAN;
    check(&nan, 4, "a NaN");
}

#[test]
fn equal_to_the_f64_route_on_random_shapes() {
    // A property over shapes: n, d, k, scale and offset drawn per case.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for case in 0..12 {
        let (n, d) = (rng.random_range(40..600), rng.random_range(1..70));
        let k = rng.random_range(1..n.min(25));
        let (scale, offset) =
            (10f64.powf(rng.random_range(-3.0..3.0)), rng.random_range(-5.0..5.0));
        let x = uniform(&mut rng, n, d).mapv(|v| v * scale + offset);
        check(&x, k, &format!("case {case}: n {n}, d {d}, k {k}"));
    }
}

#[test]
fn the_exact_distances_are_the_bits_of_faers_product() {
    // `linalg::rank` sums x_iᵀx_j as one FMA chain: the entries of faer's −2 X Xᵀ.
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let x = uniform(&mut rng, 300, 77);
    let mut p = Mat::zeros(300, 300);
    matmul(
        p.as_mut(),
        Accum::Replace,
        view(&x.view()),
        view(&x.view()).transpose(),
        -2.0,
        Par::Seq,
    );
    for i in 0..300 {
        for j in 0..300 {
            let s = x.row(i).iter().zip(x.row(j)).fold(0.0, |s, (a, b)| a.mul_add(*b, s));
            assert_eq!((-2.0 * s).to_bits(), p[(i, j)].to_bits(), "({i}, {j})");
        }
    }
}
