//! Multi-class versions (paper §3) of the six semi-supervised methods: one score vector
//! per class, coupled by the simplex constraint Σ_k f^k_i = 1, f^k_i ≥ 0 through a
//! splitting f = g and a Euclidean projection of each point's scores onto the simplex.
//! Predicted class: argmax_k f^k_i. TV and Cheeger rescale each class after the projection
//! (g^k ← N g^k/‖g^k‖, eqs. 110, 122, 142, 153; √N here as in the binary schemes): it keeps
//! a small class from being swallowed by a neighbour (on USPS {0, 1, 4, 9}, tuning seed 7,
//! m = 5: 1.1–2.6 % with it against 7–19 % without). The classes' ROF problems of one
//! iteration are solved in lockstep, four at a time (each as alone, so the same result on any
//! thread count). The scores of Lap and TV are the last f-step's F = M V (M the smoother of
//! its (λ, r, γ)), whose expansion F = K a is a = (V − rF − γLF)/λ ([`coefficients`]).

use faer::linalg::solvers::Solve;
use faer::{Mat, MatMut, MatRef};
use rayon::prelude::*;

use super::binary::cheeger::{CheegerState, clamp, smooth};
use super::prepared::{Prepared, normalise};
use super::raw::RawMulticlass;
use super::solvers::smoother::{coefficients, smoother};
use super::solvers::svm_step::{SvmStep, svm_steps};
use super::{EdgeOperator, GraphKind, GraphMethod, GraphParams, RofWorkspace, project_simplex};

/// Classes whose ROF problems are solved in lockstep (four f64 fill an AVX2 register).
const LANES: usize = 4;
use crate::error::{Error, Result};
use crate::linalg::{SymPacked, sym_mul};

impl GraphMethod {
    /// Scores (N × c) of all points and their expansion (Lap and TV); `labels` are the
    /// class ids (< `classes`) of the first n_l points of `prep`. Only the six
    /// semi-supervised kinds are multi-class.
    pub fn fit_multiclass(
        &self,
        prep: &Prepared,
        labels: &[usize],
        classes: usize,
    ) -> Result<RawMulticlass> {
        let p = self.params();
        if p.tv_norm_n || p.tv_project_all {
            return Err(Error::param(
                "tv_norm",
                "tv_norm and tv_project are options of the binary TV schemes only",
            ));
        }
        if prep.gram.factor().is_some() {
            return Err(Error::param(
                "kernel_rank",
                "the low-rank kernel is for two classes only (multi-class: the dense kernel)",
            ));
        }
        if labels.is_empty() || labels.len() != prep.n_labeled {
            return Err(Error::Data(format!(
                "{} class labels for {} labeled points",
                labels.len(),
                prep.n_labeled
            )));
        }
        if classes < 2 || labels.iter().any(|&l| l >= classes) {
            return Err(Error::Data(format!(
                "class labels must lie in 0..{classes} with at least 2 classes"
            )));
        }
        let onehot = Mat::from_fn(prep.n(), classes, |i, k| {
            if i < prep.n_labeled && labels[i] == k { 1.0 } else { 0.0 }
        });
        let svm_labels = |m: &Mat<f64>| -> Vec<SvmStep> {
            (0..classes)
                .map(|k| SvmStep::new(m, &one_vs_rest(&onehot, k, prep.n_labeled)))
                .collect()
        };
        let gamma =
            if matches!(p.kind, GraphKind::LapRls | GraphKind::LapSvm) { p.gamma } else { 0.0 };
        let (f, v) = match p.kind {
            GraphKind::LapRls => split(prep, p, &onehot, false, rls_step(prep, p, &onehot, true)?),
            GraphKind::TvRls => split(prep, p, &onehot, true, rls_step(prep, p, &onehot, false)?),
            GraphKind::LapSvm | GraphKind::TvSvm => {
                let tv = p.kind == GraphKind::TvSvm;
                let m = smoother(prep, p.lambda, p.r1, gamma)?;
                let mut steps = svm_labels(&m);
                let mut mt = Mat::zeros(prep.n(), classes);
                let packed = tv.then(|| SymPacked::new(m.as_ref().as_ref()));
                split(prep, p, &onehot, tv, |t, f, mut v| {
                    // TV-SVM keeps the bits of faer's full product (from the lower tiles):
                    // with sym_mul's order a cell of the committed Table 2 moves
                    // (docs/benchmarks.md, "TV tables, session 6").
                    match &packed {
                        Some(packed) => packed.mul_mat(t, mt.as_mut()),
                        None => sym_mul(&m, t, mt.as_mut()),
                    }
                    // F = M V with V = r T + E_l Ỹβ.
                    let y_beta = svm_steps(&mut steps, &m, p.r1, p.mu, p.qp, &mt, f)?;
                    for k in 0..v.ncols() {
                        for i in 0..v.nrows() {
                            let labeled = if i < y_beta.nrows() { y_beta[(i, k)] } else { 0.0 };
                            v[(i, k)] = p.r1 * t[(i, k)] + labeled;
                        }
                    }
                    Ok(())
                })
            }
            GraphKind::CheegerRls => {
                let m = smoother(prep, p.lambda, p.r1, 0.0)?;
                let scores = cheeger(prep, p, &onehot, |g, mut e| {
                    sym_mul(&m, g, e.as_mut());
                    e *= faer::Scale(p.r1);
                    Ok(())
                })?;
                return Ok(RawMulticlass { scores, coef: None });
            }
            GraphKind::CheegerSvm => {
                let m = smoother(prep, p.lambda, p.r1, 0.0)?;
                let mut steps = svm_labels(&m);
                let mut mg = Mat::zeros(prep.n(), classes);
                let scores = cheeger(prep, p, &onehot, |g, e| {
                    sym_mul(&m, g, mg.as_mut());
                    svm_steps(&mut steps, &m, p.r1, p.mu, p.qp, &mg, e).map(drop)
                })?;
                return Ok(RawMulticlass { scores, coef: None });
            }
            GraphKind::Rls | GraphKind::Svm => {
                return Err(Error::param(
                    "kind",
                    format!("`{}` has no multi-class version here", p.kind.name()),
                ));
            }
        }?;
        let mut coef = Mat::zeros(f.nrows(), f.ncols());
        for k in 0..f.ncols() {
            let a =
                coefficients(prep, v.col_as_slice(k), f.col_as_slice(k), (p.lambda, p.r1, gamma))?;
            coef.col_as_slice_mut(k).copy_from_slice(&a);
        }
        Ok(RawMulticlass { scores: f, coef: Some(coef) })
    }
}

/// An f-step of [`split`]: given the targets T, writes F and the V with F = M V.
trait FStep: FnMut(MatRef<'_, f64>, MatMut<'_, f64>, MatMut<'_, f64>) -> Result<()> {}

impl<S: FnMut(MatRef<'_, f64>, MatMut<'_, f64>, MatMut<'_, f64>) -> Result<()>> FStep for S {}

/// ±1 labels of class k against the rest on the labeled points.
fn one_vs_rest(onehot: &Mat<f64>, k: usize, nl: usize) -> Vec<f64> {
    (0..nl).map(|i| 2.0 * onehot[(i, k)] - 1.0).collect()
}

/// RLS f-step (eqs. 100 and 106) for all classes: F = K A⁻¹(η Y + r T) with A = B + ηJK,
/// B = λI + rK (+ γLK) label-free. J has rank n_l, so with the smoother M = K B⁻¹ (cached
/// per dataset) Woodbury gives K A⁻¹ b = M b − M_{:,l} (I/η + M_ll)⁻¹ (M b)_l: one
/// n_l × n_l LU per split and per iteration one pass over M's lower triangle
/// ([`sym_mul`]) and one over its labeled columns. V = b − E_l (I/η + M_ll)⁻¹ (M b)_l.
fn rls_step<'a>(
    prep: &'a Prepared,
    p: &'a GraphParams,
    onehot: &'a Mat<f64>,
    laplacian: bool,
) -> Result<impl FStep + 'a> {
    let nl = prep.n_labeled;
    let m = smoother(prep, p.lambda, p.r1, if laplacian { p.gamma } else { 0.0 })?;
    let small = Mat::from_fn(nl, nl, |i, j| m[(i, j)] + if i == j { 1.0 / p.eta } else { 0.0 })
        .partial_piv_lu();
    Ok(move |t: MatRef<'_, f64>, mut f: MatMut<'_, f64>, mut v: MatMut<'_, f64>| {
        let m: &Mat<f64> = &m;
        let b =
            Mat::from_fn(t.nrows(), t.ncols(), |i, k| p.eta * onehot[(i, k)] + p.r1 * t[(i, k)]);
        let mut mb = Mat::zeros(b.nrows(), b.ncols());
        sym_mul(m, b.as_ref(), mb.as_mut());
        let mut coef = mb.subrows(0, nl).to_owned();
        small.solve_in_place(coef.as_mut());
        f.copy_from(&mb - m.subcols(0, nl) * &coef);
        v.copy_from(&b);
        v.subrows_mut(0, nl).copy_from(b.subrows(0, nl) - &coef);
        Ok(())
    })
}

/// Row-wise Euclidean projection of the N × c scores onto the simplex.
fn project_rows(g: &mut Mat<f64>, row: &mut [f64], work: &mut Vec<f64>) {
    for i in 0..g.nrows() {
        (0..g.ncols()).for_each(|k| row[k] = g[(i, k)]);
        project_simplex(row, work);
        (0..g.ncols()).for_each(|k| g[(i, k)] = row[k]);
    }
}

/// The splitting loop, r = r1: F = f_step(T = G − Λ/r) for all classes at once (F = M V, the
/// step writing V too); ĝ^k = ROF(f^k + λ^k/r; γ, r) (TV) or f^k + λ^k/r (Laplacian);
/// G = row-wise simplex projection, each g^k then rescaled to norm √N (TV only);
/// Λ += r(F − G). Starts from G = one-hot labels and uniform 1/c elsewhere. Returns the
/// last F and V.
fn split(
    prep: &Prepared,
    p: &GraphParams,
    onehot: &Mat<f64>,
    tv: bool,
    mut f_step: impl FStep,
) -> Result<(Mat<f64>, Mat<f64>)> {
    let (n, c, nl, r) = (prep.n(), onehot.ncols(), prep.n_labeled, p.r1);
    let op = if tv { Some(EdgeOperator::new(prep.graph()?)?) } else { None };
    // Per block of LANES classes: its ROF workspace; per class a copy of its column of G
    // (the warm start).
    let mut rof: Vec<RofWorkspace<LANES>> =
        op.iter().flat_map(|op| (0..c.div_ceil(LANES)).map(|_| op.workspace())).collect();
    let mut cols = vec![vec![0.0; n]; c];
    let mut g = Mat::from_fn(n, c, |i, k| if i < nl { onehot[(i, k)] } else { 1.0 / c as f64 });
    let mut mult = Mat::<f64>::zeros(n, c);
    let (mut f, mut v) = (Mat::<f64>::zeros(n, c), Mat::<f64>::zeros(n, c));
    let (mut row, mut work) = (vec![0.0; c], Vec::with_capacity(c));
    for _ in 0..p.iterations {
        f_step((&g - (1.0 / r) * &mult).as_ref(), f.as_mut(), v.as_mut())?;
        let t = &f + (1.0 / r) * &mult;
        match &op {
            Some(op) => {
                // The classes' ROF problems, LANES at a time in lockstep; blocks in parallel.
                (0..c).for_each(|k| cols[k].copy_from_slice(g.col_as_slice(k)));
                let data: Vec<&[f64]> = (0..c).map(|k| t.col_as_slice(k)).collect();
                rof.par_iter_mut()
                    .zip(cols.par_chunks_mut(LANES))
                    .zip(data.par_chunks(LANES))
                    .for_each(|((work, cols), data)| {
                        let mut u: Vec<&mut [f64]> =
                            cols.iter_mut().map(Vec::as_mut_slice).collect();
                        op.solve_lanes(data, p.gamma, &vec![r; data.len()], &mut u, work, p.rof);
                    });
                (0..c).for_each(|k| g.col_as_slice_mut(k).copy_from_slice(&cols[k]));
            }
            None => g.copy_from(&t),
        }
        project_rows(&mut g, &mut row, &mut work);
        if tv {
            (0..c).for_each(|k| normalise(g.col_as_slice_mut(k)));
        }
        mult += r * (&f - &g);
    }
    Ok((f, v))
}

/// Multi-class Cheeger (eqs. 114–122 and 145–153): per class the binary Cheeger step with
/// the one-hot labels clamped (the e-steps of all classes in one call), then the row-wise
/// simplex projection and each f^k rescaled to norm √N.
fn cheeger(
    prep: &Prepared,
    p: &GraphParams,
    onehot: &Mat<f64>,
    mut e_step: impl FnMut(MatRef<'_, f64>, MatMut<'_, f64>) -> Result<()>,
) -> Result<Mat<f64>> {
    let (n, c, nl) = (prep.n(), onehot.ncols(), prep.n_labeled);
    let op = EdgeOperator::new(prep.graph()?)?;
    let y: Vec<Vec<f64>> = (0..c).map(|k| onehot.col_as_slice(k)[..nl].to_vec()).collect();
    let mut states: Vec<CheegerState> = (0..c).map(|_| CheegerState::new(n)).collect();
    let mut rof: Vec<RofWorkspace<LANES>> =
        (0..c.div_ceil(LANES)).map(|_| op.workspace()).collect();
    let (mut f, mut e) = (Mat::<f64>::zeros(n, c), Mat::<f64>::zeros(n, c));
    let (mut row, mut work) = (vec![0.0; c], Vec::with_capacity(c));
    let mut project = |f: &mut Mat<f64>| {
        project_rows(f, &mut row, &mut work);
        (0..c).for_each(|k| normalise(f.col_as_slice_mut(k)));
    };
    e_step(onehot.as_ref(), e.as_mut())?;
    (0..c).for_each(|k| clamp(nl, &y[k], e.col_as_slice(k), f.col_as_slice_mut(k)));
    project(&mut f);
    for _ in 0..p.iterations {
        (0..c).for_each(|k| states[k].target(&op, p.c, f.col_as_slice(k)));
        e_step(Mat::from_fn(n, c, |i, k| states[k].g[i]).as_ref(), e.as_mut())?;
        let data: Vec<&[f64]> = (0..c).map(|k| e.col_as_slice(k)).collect();
        states
            .par_chunks_mut(LANES)
            .zip(rof.par_iter_mut())
            .zip(data.par_chunks(LANES))
            .for_each(|((states, work), data)| smooth(states, &op, p.c, p.rof, data, work));
        (0..c).for_each(|k| clamp(nl, &y[k], &states[k].h, f.col_as_slice_mut(k)));
        project(&mut f);
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::graph::tests::blobs;
    use crate::methods::graph::{KnnGraph, RbfKernel, laplacian_times};

    #[test]
    fn woodbury_rls_step_equals_the_dense_solve() {
        // Column k: f = K A⁻¹(η y^k + r t^k), A = (ηJ + rI)K + λI + γLK, solved densely by LU.
        let prep = Prepared::new(
            &blobs(3, 12, 5),
            &RbfKernel { scale: 0.7, rank: None },
            Some(&KnnGraph::default()),
        )
        .unwrap();
        let (n, nl, k) = (prep.n(), prep.n_labeled, prep.gram.dense().unwrap());
        let mut p = GraphParams::new(GraphKind::LapRls);
        (p.eta, p.lambda, p.gamma, p.r1) = (3.0, 0.2, 0.4, 0.6);
        let onehot =
            Mat::from_fn(
                n,
                2,
                |i, c| if i < nl && (prep.y[i] > 0.0) == (c == 0) { 1.0 } else { 0.0 },
            );
        let t = Mat::from_fn(n, 2, |i, c| (i as f64 * 0.9 + c as f64).sin());
        for laplacian in [true, false] {
            let mut step = rls_step(&prep, &p, &onehot, laplacian).unwrap();
            let (mut f, mut v) = (Mat::zeros(n, 2), Mat::zeros(n, 2));
            step(t.as_ref(), f.as_mut(), v.as_mut()).unwrap();
            let lk = laplacian_times(prep.graph().unwrap(), k);
            let gamma = if laplacian { p.gamma } else { 0.0 };
            let d = |i: usize| if i < nl { p.eta + p.r1 } else { p.r1 };
            let a = Mat::from_fn(n, n, |i, j| {
                d(i) * k[(i, j)] + gamma * lk[(i, j)] + if i == j { p.lambda } else { 0.0 }
            });
            let mut alpha = Mat::from_fn(n, 2, |i, c| p.eta * onehot[(i, c)] + p.r1 * t[(i, c)]);
            a.partial_piv_lu().solve_in_place(alpha.as_mut());
            let reference = k * &alpha;
            for (i, c) in (0..n).flat_map(|i| [(i, 0), (i, 1)]) {
                let (got, want) = (f[(i, c)], reference[(i, c)]);
                assert!(
                    (got - want).abs() < 1e-8 * (1.0 + want.abs()),
                    "{laplacian} ({i}, {c}): {got} vs {want}"
                );
            }
        }
    }
}
