//! Multi-class versions (paper §3) of the six semi-supervised methods: one score vector
//! per class, coupled by the simplex constraint Σ_k f^k_i = 1, f^k_i ≥ 0 through a
//! splitting f = g and a Euclidean projection of each point's scores onto the simplex.
//! Predicted class: argmax_k f^k_i. TV and Cheeger rescale each class after the projection
//! (g^k ← N g^k/‖g^k‖, eqs. 110, 122, 142, 153; √N here as in the binary schemes): it keeps
//! a small class from being swallowed by a neighbour (on USPS {0, 1, 4, 9}, tuning seed 7,
//! m = 5: 1.1–2.6 % with it against 7–19 % without).

use faer::Mat;
use faer::linalg::solvers::Solve;

use super::cheeger::{CheegerState, clamp};
use super::prepared::{Prepared, mat_vec, normalise};
use super::smoother::smoother;
use super::svm_step::SvmStep;
use super::{EdgeOperator, GraphKind, GraphMethod, GraphParams, project_simplex};
use crate::error::{Error, Result};

impl GraphMethod {
    /// Scores (N × c) of all points; `labels` are the class ids (< `classes`) of the
    /// first n_l points of `prep`. Only the six semi-supervised kinds are multi-class.
    pub fn fit_multiclass(&self, prep: &Prepared, labels: &[usize], classes: usize) -> Result<Mat<f64>> {
        let p = self.params();
        if labels.is_empty() || labels.len() != prep.n_labeled {
            return Err(Error::Data(format!("{} class labels for {} labeled points", labels.len(), prep.n_labeled)));
        }
        if classes < 2 || labels.iter().any(|&l| l >= classes) {
            return Err(Error::Data(format!("class labels must lie in 0..{classes} with at least 2 classes")));
        }
        let onehot = Mat::from_fn(prep.n(), classes, |i, k| if i < prep.n_labeled && labels[i] == k { 1.0 } else { 0.0 });
        match p.kind {
            GraphKind::LapRls => split(prep, p, &onehot, false, rls_step(prep, p, true)?),
            GraphKind::TvRls => split(prep, p, &onehot, true, rls_step(prep, p, false)?),
            GraphKind::LapSvm => svm_split(prep, p, &onehot, false),
            GraphKind::TvSvm => svm_split(prep, p, &onehot, true),
            GraphKind::CheegerRls => {
                let m = smoother(prep, p.lambda, p.r1, 0.0)?;
    let m: &Mat<f64> = &m;
                cheeger(prep, p, &onehot, |_, g, e| {
                    mat_vec(m.as_ref(), g, e);
                    e.iter_mut().for_each(|v| *v *= p.r1);
                    Ok(())
                })
            }
            GraphKind::CheegerSvm => {
                let m = smoother(prep, p.lambda, p.r1, 0.0)?;
    let m: &Mat<f64> = &m;
                let mut steps: Vec<SvmStep> = (0..classes).map(|k| SvmStep::new(m, &one_vs_rest(&onehot, k, prep.n_labeled))).collect();
                cheeger(prep, p, &onehot, |k, g, e| steps[k].apply(m, p.r1, p.mu, p.qp, g, e))
            }
            GraphKind::Rls | GraphKind::Svm => Err(Error::param("kind", format!("`{}` has no multi-class version here", p.kind.name()))),
        }
    }
}

/// Predicted class per point: argmax over the row (first maximum on ties).
pub fn argmax_rows(scores: &Mat<f64>) -> Vec<usize> {
    (0..scores.nrows())
        .map(|i| (0..scores.ncols()).fold(0, |best, k| if scores[(i, k)] > scores[(i, best)] { k } else { best }))
        .collect()
}

/// ±1 labels of class k against the rest on the labeled points.
fn one_vs_rest(onehot: &Mat<f64>, k: usize, nl: usize) -> Vec<f64> {
    (0..nl).map(|i| 2.0 * onehot[(i, k)] - 1.0).collect()
}

/// RLS f-step (eqs. 100 and 106): f^k = K A⁻¹(η y^k + r t) with A = B + ηJK, B = λI + rK
/// (+ γLK) label-free. J has rank n_l, so with the smoother M = K B⁻¹ (cached per dataset)
/// Woodbury gives K A⁻¹ b = M b − M_{:,l} (I/η + M_ll)⁻¹ (M b)_l: one n_l × n_l LU per split.
fn rls_step<'a>(prep: &'a Prepared, p: &'a GraphParams, laplacian: bool) -> Result<impl FnMut(usize, &Mat<f64>, &[f64], &mut [f64]) -> Result<()> + 'a> {
    let (n, nl) = (prep.n(), prep.n_labeled);
    let m = smoother(prep, p.lambda, p.r1, if laplacian { p.gamma } else { 0.0 })?;
    let small = Mat::from_fn(nl, nl, |i, j| m[(i, j)] + if i == j { 1.0 / p.eta } else { 0.0 }).partial_piv_lu();
    let (mut b, mut mb, mut c) = (vec![0.0; n], vec![0.0; n], Mat::<f64>::zeros(nl, 1));
    Ok(move |class: usize, onehot: &Mat<f64>, t: &[f64], f: &mut [f64]| {
        for i in 0..n {
            b[i] = p.eta * onehot[(i, class)] + p.r1 * t[i];
        }
        mat_vec(Mat::as_ref(&m), &b, &mut mb);
        (0..nl).for_each(|i| c[(i, 0)] = mb[i]);
        small.solve_in_place(c.as_mut());
        let coef: Vec<f64> = (0..nl).map(|i| c[(i, 0)]).collect();
        mat_vec(Mat::as_ref(&m).subcols(0, nl), &coef, f);
        f.iter_mut().zip(&mb).for_each(|(f, mb)| *f = mb - *f);
        Ok(())
    })
}

/// Lap-SVM / TV-SVM: the SVM f-step with M = K(λI + rK (+ γLK))⁻¹ (eqs. 124–143).
fn svm_split(prep: &Prepared, p: &GraphParams, onehot: &Mat<f64>, tv: bool) -> Result<Mat<f64>> {
    let gamma = if tv { 0.0 } else { p.gamma };
    let m = smoother(prep, p.lambda, p.r1, gamma)?;
    let m: &Mat<f64> = &m;
    let mut steps: Vec<SvmStep> = (0..onehot.ncols()).map(|k| SvmStep::new(m, &one_vs_rest(onehot, k, prep.n_labeled))).collect();
    split(prep, p, onehot, tv, |k, _, t, f| steps[k].apply(m, p.r1, p.mu, p.qp, t, f))
}

/// The splitting loop, r = r1: f^k = f_step(t = g^k − λ^k/r); ĝ^k = ROF(f^k + λ^k/r; γ, r)
/// (TV) or f^k + λ^k/r (Laplacian); g = row-wise simplex projection, each g^k then
/// rescaled to norm √N (TV only); λ^k += r(f^k − g^k).
/// Starts from g = one-hot labels and uniform 1/c elsewhere.
fn split(
    prep: &Prepared,
    p: &GraphParams,
    onehot: &Mat<f64>,
    tv: bool,
    mut f_step: impl FnMut(usize, &Mat<f64>, &[f64], &mut [f64]) -> Result<()>,
) -> Result<Mat<f64>> {
    let (n, c, r) = (prep.n(), onehot.ncols(), p.r1);
    let op = if tv { Some(EdgeOperator::new(prep.graph()?)) } else { None };
    let mut rof: Vec<_> = op.iter().flat_map(|op| (0..c).map(|_| op.workspace())).collect();
    let mut g: Vec<Vec<f64>> = (0..c).map(|k| (0..n).map(|i| if i < prep.n_labeled { onehot[(i, k)] } else { 1.0 / c as f64 }).collect()).collect();
    let mut mult = vec![vec![0.0; n]; c];
    let mut f = vec![vec![0.0; n]; c];
    let (mut t, mut row, mut work) = (vec![0.0; n], vec![0.0; c], Vec::with_capacity(c));
    for _ in 0..p.iterations {
        for k in 0..c {
            for i in 0..n {
                t[i] = g[k][i] - mult[k][i] / r;
            }
            f_step(k, onehot, &t, &mut f[k])?;
            for i in 0..n {
                t[i] = f[k][i] + mult[k][i] / r;
            }
            match &op {
                Some(op) => {
                    op.solve(&t, p.gamma, r, &mut g[k], &mut rof[k], p.rof);
                }
                None => g[k].copy_from_slice(&t),
            }
        }
        for i in 0..n {
            (0..c).for_each(|k| row[k] = g[k][i]);
            project_simplex(&mut row, &mut work);
            (0..c).for_each(|k| g[k][i] = row[k]);
        }
        if tv {
            g.iter_mut().for_each(|g| normalise(g));
        }
        for k in 0..c {
            for i in 0..n {
                mult[k][i] += r * (f[k][i] - g[k][i]);
            }
        }
    }
    Ok(Mat::from_fn(n, c, |i, k| f[k][i]))
}

/// Multi-class Cheeger (eqs. 114–122 and 145–153): per class the binary Cheeger step with
/// the one-hot labels clamped, then the row-wise simplex projection and each f^k rescaled
/// to norm √N.
fn cheeger(
    prep: &Prepared,
    p: &GraphParams,
    onehot: &Mat<f64>,
    mut e_step: impl FnMut(usize, &[f64], &mut [f64]) -> Result<()>,
) -> Result<Mat<f64>> {
    let (n, c, nl) = (prep.n(), onehot.ncols(), prep.n_labeled);
    let op = EdgeOperator::new(prep.graph()?);
    let y: Vec<Vec<f64>> = (0..c).map(|k| (0..nl).map(|i| onehot[(i, k)]).collect()).collect();
    let mut states: Vec<CheegerState> = (0..c).map(|_| CheegerState::new(&op, n)).collect();
    let mut f = vec![vec![0.0; n]; c];
    let (mut row, mut work) = (vec![0.0; c], Vec::with_capacity(c));
    let mut project = |f: &mut Vec<Vec<f64>>| {
        for i in 0..n {
            (0..c).for_each(|k| row[k] = f[k][i]);
            project_simplex(&mut row, &mut work);
            (0..c).for_each(|k| f[k][i] = row[k]);
        }
        f.iter_mut().for_each(|f| normalise(f));
    };
    for k in 0..c {
        let labels: Vec<f64> = (0..n).map(|i| onehot[(i, k)]).collect();
        e_step(k, &labels, &mut states[k].e)?;
        clamp(nl, &y[k], &states[k].e, &mut f[k]);
    }
    project(&mut f);
    for _ in 0..p.iterations {
        for k in 0..c {
            states[k].step(&op, p.c, p.rof, &f[k], &mut |g: &[f64], e: &mut [f64]| e_step(k, g, e))?;
            clamp(nl, &y[k], &states[k].h, &mut f[k]);
        }
        project(&mut f);
    }
    Ok(Mat::from_fn(n, c, |i, k| f[k][i]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::graph::tests::blobs;
    use crate::methods::graph::{KnnGraph, RbfKernel, laplacian_times};

    #[test]
    fn woodbury_rls_step_equals_the_dense_solve() {
        // f = K A⁻¹(η y + r t), A = (ηJ + rI)K + λI + γLK, solved densely by LU.
        let prep = Prepared::new(&blobs(3, 12, 5), &RbfKernel { scale: 0.7 }, Some(&KnnGraph::default())).unwrap();
        let (n, nl, k) = (prep.n(), prep.n_labeled, &prep.gram.k);
        let mut p = GraphParams::new(GraphKind::LapRls);
        (p.eta, p.lambda, p.gamma, p.r1) = (3.0, 0.2, 0.4, 0.6);
        let onehot = Mat::from_fn(n, 2, |i, c| if i < nl && (prep.y[i] > 0.0) == (c == 0) { 1.0 } else { 0.0 });
        let t: Vec<f64> = (0..n).map(|i| (i as f64 * 0.9).sin()).collect();
        for laplacian in [true, false] {
            let mut step = rls_step(&prep, &p, laplacian).unwrap();
            let mut f = vec![0.0; n];
            step(1, &onehot, &t, &mut f).unwrap();
            let lk = laplacian_times(prep.graph().unwrap(), k);
            let gamma = if laplacian { p.gamma } else { 0.0 };
            let d = |i: usize| if i < nl { p.eta + p.r1 } else { p.r1 };
            let a = Mat::from_fn(n, n, |i, j| d(i) * k[(i, j)] + gamma * lk[(i, j)] + if i == j { p.lambda } else { 0.0 });
            let mut alpha = Mat::from_fn(n, 1, |i, _| p.eta * onehot[(i, 1)] + p.r1 * t[i]);
            a.partial_piv_lu().solve_in_place(alpha.as_mut());
            let reference = k * &alpha;
            for i in 0..n {
                assert!((f[i] - reference[(i, 0)]).abs() < 1e-8 * (1.0 + reference[(i, 0)].abs()), "{laplacian} {i}: {} vs {}", f[i], reference[(i, 0)]);
            }
        }
    }
}
