//! Tests of the design's mat-vecs against dense products, across thread counts and index widths.

use super::chunks::CHUNK_ROWS;
use super::*;
use ndarray::{Array1, array};

fn example() -> Features {
    // [[1, 0, 2], [0, 0, 0], [0, 3, 0]]
    Features::Sparse(Csr::new(3, vec![0, 2, 2, 3], vec![0, 2, 1], vec![1.0, 2.0, 3.0]).unwrap())
}

#[test]
fn stacks_blocks_with_the_bias_column() {
    let (a, b) = (example(), Features::Dense(array![[0.0, 5.0, 0.0]]));
    let x = with_bias(&[&a, &b]).unwrap();
    assert_eq!(
        x.to_dense(),
        array![
            [1.0, 0.0, 2.0, 1.0],
            [0.0, 0.0, 0.0, 1.0],
            [0.0, 3.0, 0.0, 1.0],
            [0.0, 5.0, 0.0, 1.0]
        ]
    );
    // The fused pass over rows of both blocks, through their spans and by lookup.
    let (rows, c, v) = ([3u32, 0, 2], [1.0, 2.0, 0.5], [1.0, -1.0, 0.5, 2.0]);
    let mut spans = Vec::new();
    x.spans(&rows, &mut spans);
    let pass = |spans: &[Span]| {
        let (mut q, mut g, mut spare) = ([0.0; 3], [0.0; 4], Vec::new());
        let cqq = x.gram_mul_vec_rows((&rows, spans), &c, &v, &mut q, &mut g, &mut spare);
        (q, g, cqq)
    };
    assert_eq!(pass(&spans), pass(&[]));
    assert_eq!(pass(&spans).0, [-5.0 + 2.0, 1.0 + 1.0 + 2.0, -3.0 + 2.0]);
    let c = Features::Dense(array![[1.0, 2.0]]);
    assert!(with_bias(&[&a, &c]).is_err());
}

#[test]
fn row_subset_mat_vecs_match_dense() {
    let a = example();
    let x = with_bias(&[&a]).unwrap();
    let dense = x.to_dense();
    let rows = [2u32, 0, 2];
    let v = [1.0, -2.0, 0.5, 0.25];
    let mut out = [0.0; 3];
    x.mul_vec_rows(&rows, &v, &mut out);
    for (k, &i) in rows.iter().enumerate() {
        assert_eq!(out[k], dense.row(i as usize).dot(&Array1::from(v.to_vec())));
    }
    let (mut t, mut spare) = ([9.0; 4], Vec::new());
    x.t_mul_vec_rows(&rows, &v[..3], &mut t, &mut spare);
    // 1·row2 − 2·row0 + 0.5·row2 = [−2, 4.5, −4, −0.5].
    assert_eq!(t, [-2.0, 4.5, -4.0, -0.5]);
    let (c, mut q, mut g) = ([2.0, 1.0, 0.5], [0.0; 3], [0.0; 4]);
    let cqq = x.gram_mul_vec_rows((&rows, &[]), &c, &v, &mut q, &mut g, &mut spare);
    let mut cq = [0.0; 3];
    x.mul_vec_rows(&rows, &v, &mut cq);
    assert_eq!(q, cq);
    let vg: f64 = v.iter().zip(&g).map(|(a, b)| a * b).sum();
    assert!((cqq - vg).abs() < 1e-12 && cqq > 0.0, "{cqq} against {vg}");
    // The complement of rows {1, 2}: row 0 only.
    let mut o = [7.0; 3];
    x.mul_vec_other_rows(&[1, 2], &v, &mut o);
    assert_eq!(o, [dense.row(0).dot(&Array1::from(v.to_vec())), 7.0, 7.0]);
    let weighted: Vec<f64> = q.iter().zip(&c).map(|(a, b)| a * b).collect();
    x.t_mul_vec_rows(&rows, &weighted, &mut t, &mut spare);
    assert_eq!(g, t);
    // The transposed product and Σ_k c_k row² in one pass, against dense rows.
    let (mut sums, mut squares) = ([9.0; 4], [9.0; 4]);
    x.t_mul_vec_diag_rows(&rows, (&v[..3], &c), (&mut sums, &mut squares), &mut spare);
    assert_eq!(sums, [-2.0, 4.5, -4.0, -0.5]);
    for j in 0..4 {
        let col = rows.iter().zip(&c).map(|(&i, ck)| ck * dense[[i as usize, j]].powi(2));
        assert_eq!(squares[j], col.sum::<f64>());
    }
    // An empty subset gives zeros.
    x.gram_mul_vec_rows((&[], &[]), &[], &v, &mut [], &mut g, &mut spare);
    x.t_mul_vec_rows(&[], &[], &mut t, &mut spare);
    assert_eq!((g, t), ([0.0; 4], [0.0; 4]));
    x.t_mul_vec_diag_rows(&[], (&[], &[]), (&mut sums, &mut squares), &mut spare);
    assert_eq!((sums, squares), ([0.0; 4], [0.0; 4]));
}

/// A design of `n` random rows: the chunked mat-vecs are bit-identical inside pools of 1
/// and 2 threads, and agree with the dense product.
#[test]
fn chunked_mat_vecs_do_not_depend_on_the_number_of_threads() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let (n, d) = (3 * CHUNK_ROWS + 17, 40);
    let (mut indptr, mut indices, mut values) = (vec![0], Vec::new(), Vec::new());
    for _ in 0..n {
        for j in 0..d {
            if rng.random_bool(0.2) {
                indices.push(j as u32);
                values.push(rng.random_range(-1.0..1.0));
            }
        }
        indptr.push(indices.len());
    }
    let f = Features::Sparse(Csr::new(d, indptr, indices, values).unwrap());
    let x = with_bias(&[&f]).unwrap();
    let rows: Vec<u32> = (0..n as u32).filter(|i| i % 5 != 1).collect();
    let c: Vec<f64> = rows.iter().map(|_| rng.random_range(0.0..2.0)).collect();
    let v: Vec<f64> = (0..=d).map(|_| rng.random_range(-1.0..1.0)).collect();
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let (mut q, mut g, mut t, mut o, mut spare) = (
                vec![0.0; rows.len()],
                vec![0.0; d + 1],
                vec![0.0; d + 1],
                vec![0.0; n],
                Vec::new(),
            );
            let cqq = x.gram_mul_vec_rows((&rows, &[]), &c, &v, &mut q, &mut g, &mut spare);
            // Through the rows' spans: the same bits.
            let (mut spans, mut q2, mut g2) = (Vec::new(), vec![0.0; rows.len()], vec![0.0; d + 1]);
            x.spans(&rows, &mut spans);
            let cqq2 = x.gram_mul_vec_rows((&rows, &spans), &c, &v, &mut q2, &mut g2, &mut spare);
            assert_eq!((&q2, &g2, cqq2.to_bits()), (&q, &g, cqq.to_bits()));
            x.t_mul_vec_rows(&rows, &c, &mut t, &mut spare);
            x.mul_vec(&v, &mut o);
            let mut other = vec![0.0; n];
            x.mul_vec_other_rows(&rows, &v, &mut other);
            // The complement's outputs are those of the full product.
            let skipped = |i: usize| rows.binary_search(&(i as u32)).is_ok();
            assert!((0..n).all(|i| skipped(i) || other[i] == o[i]));
            // The fused transposed product gives the plain one's bits, and its squares.
            let (mut sums, mut squares) = (vec![0.0; d + 1], vec![0.0; d + 1]);
            x.t_mul_vec_diag_rows(&rows, (&c, &c), (&mut sums, &mut squares), &mut spare);
            assert_eq!(sums, t);
            (q, g, t, o, cqq.to_bits(), squares)
        })
    };
    let one = run(1);
    assert_eq!(one, run(2));
    let dense = x.to_dense();
    let rows: Vec<usize> = rows.iter().map(|&i| i as usize).collect();
    let sub = dense.select(ndarray::Axis(0), &rows);
    let expect = sub.t().dot(&(&Array1::from(c.clone()) * &sub.dot(&Array1::from(v.clone()))));
    assert!(one.1.iter().zip(&expect).all(|(a, b)| (a - b).abs() < 1e-9));
    assert!(one.3.iter().zip(&dense.dot(&Array1::from(v))).all(|(a, b)| (a - b).abs() < 1e-12));
    let squares = sub.mapv(|a| a * a).t().dot(&Array1::from(c));
    assert!(one.5.iter().zip(&squares).all(|(a, b)| (a - b).abs() < 1e-9));
}

/// The same rows stored with two-byte indices (40 features) and four-byte ones (the 40
/// features followed by empty columns up to 2¹⁶ + 1) give the same bits in every mat-vec.
#[test]
fn narrow_and_wide_indices_give_the_same_bits() {
    use crate::data::NARROW_COLUMNS;
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
    let (n, d, wide_d) = (CHUNK_ROWS + 300, 40, NARROW_COLUMNS + 1);
    let (mut indptr, mut indices, mut values) = (vec![0], Vec::new(), Vec::new());
    for _ in 0..n {
        for j in 0..d {
            if rng.random_bool(0.3) {
                indices.push(j as u32);
                values.push(rng.random_range(-1.0..1.0));
            }
        }
        indptr.push(indices.len());
    }
    let narrow = Csr::new(d, indptr.clone(), indices.clone(), values.clone()).unwrap();
    let wide = Csr::new(wide_d, indptr, indices, values).unwrap();
    assert!(narrow.stores::<u16>() && wide.stores::<u32>());
    let (narrow, wide) = (Features::Sparse(narrow), Features::Sparse(wide));
    let (xn, xw) = (with_bias(&[&narrow]).unwrap(), with_bias(&[&wide]).unwrap());
    let v: Vec<f64> = (0..=d).map(|_| rng.random_range(-1.0..1.0)).collect();
    let mut v_wide = vec![0.0; wide_d + 1];
    v_wide[..d].copy_from_slice(&v[..d]);
    v_wide[wide_d] = v[d];
    let rows: Vec<u32> = (0..n as u32).filter(|i| i % 3 != 0).collect();
    let c: Vec<f64> = rows.iter().map(|_| rng.random_range(0.0..2.0)).collect();
    // Outputs, the fused pass and the transposed product of both designs, the wide one's
    // entries restricted to the 40 features and the bias.
    let run = |x: &Design, v: &[f64], dim: usize| {
        let (mut o, mut q, mut g, mut t, mut spare) =
            (vec![0.0; n], vec![0.0; rows.len()], vec![0.0; dim + 1], vec![0.0; dim + 1], vec![]);
        x.mul_vec(v, &mut o);
        let cqq = x.gram_mul_vec_rows((&rows, &[]), &c, v, &mut q, &mut g, &mut spare);
        x.t_mul_vec_rows(&rows, &c, &mut t, &mut spare);
        let keep = |a: &[f64]| [&a[..d], &a[dim..]].concat();
        let bits = |a: &[f64]| a.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        (bits(&o), bits(&q), bits(&keep(&g)), bits(&keep(&t)), cqq.to_bits())
    };
    assert_eq!(run(&xn, &v, d), run(&xw, &v_wide, wide_d));
}
