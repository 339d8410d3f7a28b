//! The exact squared distances the kNN lists keep, and the ranking of a row's candidates
//! by them (the graph's exact search, `methods::graph::nearest`), or of rows for a new
//! point (the neighbours model, `engine::model`). Row i's distance to row j is
//! ((c + ‖x_i‖²) + ‖x_j‖²) clamped at 0, where c = −2 s and s is x_iᵀx_j summed as one chain of fused multiply-adds from +0 in index
//! order: the bits faer's x86 gemm kernels (AVX2 and AVX-512, one accumulator lane per
//! entry) give the entries of a product −2 X Xᵀ, which the kNN lists used before they
//! were ranked from f32 candidates (the tests compare with faer's product). s is
//! symmetric in i and j, as fma(a, b, t) = fma(b, a, t).

use ndarray::ArrayView2;

/// Chains computed side by side (independent multiply-add chains overlap in the pipeline).
const CHAINS: usize = 8;

/// Row i's k nearest among `candidates` (all other rows when `None`), nearest first by
/// (distance, index), into `index` and `value` (length k each). `x` is row-major.
pub fn rank(
    x: ArrayView2<f64>,
    norms: &[f64],
    i: usize,
    candidates: Option<&[usize]>,
    index: &mut [usize],
    value: &mut [f64],
) {
    let all: Vec<usize>;
    let js = match candidates {
        Some(c) => c,
        None => {
            all = (0..x.nrows()).filter(|&j| j != i).collect();
            &all
        }
    };
    let xi = x.row(i).to_slice().expect("row-major rows");
    rank_query(xi, norms[i], x, norms, js, index, value);
}

/// The point `q`'s k nearest among rows `candidates` of `x`, nearest first by (distance,
/// index), into `index` and `value` (length k each): [`rank`] for a point that is not a
/// row, its squared norm `q_norm` summed as the rows' `norms` (ndarray's `q.dot(q)`); with
/// FMA instructions when the CPU has them.
pub fn rank_query(
    q: &[f64],
    q_norm: f64,
    x: ArrayView2<f64>,
    norms: &[f64],
    candidates: &[usize],
    index: &mut [usize],
    value: &mut [f64],
) {
    #[cfg(target_arch = "x86_64")]
    if crate::linalg::simd::level() >= crate::linalg::Level::Avx2 {
        // SAFETY: the CPU has FMA (every level from AVX2 up has it).
        return unsafe { rank_fma(q, q_norm, x, norms, candidates, index, value) };
    }
    rank_any(q, q_norm, x, norms, candidates, index, value)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
fn rank_fma(
    xi: &[f64],
    ni: f64,
    x: ArrayView2<f64>,
    norms: &[f64],
    js: &[usize],
    index: &mut [usize],
    value: &mut [f64],
) {
    rank_any(xi, ni, x, norms, js, index, value)
}

/// The point `xi` (squared norm `ni`) ranked against rows `js` of `x`, in any instruction
/// set (`mul_add` is always fused; with FMA it is one instruction).
#[inline(always)]
fn rank_any(
    xi: &[f64],
    ni: f64,
    x: ArrayView2<f64>,
    norms: &[f64],
    js: &[usize],
    index: &mut [usize],
    value: &mut [f64],
) {
    index.fill(usize::MAX);
    value.fill(f64::INFINITY);
    let row = |j: usize| x.row(j).to_slice().expect("row-major rows");
    let d = xi.len();
    let mut keep = |j: usize, s: f64| {
        let d = ((-2.0 * s + ni) + norms[j]).max(0.0);
        insert(index, value, d, j);
    };
    let mut groups = js.chunks_exact(CHAINS);
    for g in &mut groups {
        let rows: [&[f64]; CHAINS] = std::array::from_fn(|l| &row(g[l])[..d]);
        let mut s = [0.0; CHAINS];
        for (t, a) in xi.iter().enumerate() {
            for l in 0..CHAINS {
                s[l] = a.mul_add(rows[l][t], s[l]);
            }
        }
        for l in 0..CHAINS {
            keep(g[l], s[l]);
        }
    }
    for &j in groups.remainder() {
        keep(j, xi.iter().zip(row(j)).fold(0.0, |s, (a, b)| a.mul_add(*b, s)));
    }
}

/// Enters (d, j) into the sorted lists if it is among their smallest by (distance (total
/// order), index).
#[inline(always)]
fn insert(index: &mut [usize], value: &mut [f64], d: f64, j: usize) {
    let before = |v: f64, j: usize, w: f64, i: usize| v.total_cmp(&w).then(j.cmp(&i)).is_lt();
    let mut m = index.len() - 1;
    if !before(d, j, value[m], index[m]) {
        return;
    }
    while m > 0 && before(d, j, value[m - 1], index[m - 1]) {
        value[m] = value[m - 1];
        index[m] = index[m - 1];
        m -= 1;
    }
    value[m] = d;
    index[m] = j;
}
