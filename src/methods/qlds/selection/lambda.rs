//! λ chosen by cross-validation for fixed (α_l, α_u): the paper's Table 5 tunes λ of LS-SVM
//! (1, 0) and GB-SSL (0, 1) by 10-fold CV on the labeled set instead of fixing it just above
//! the top eigenvalue. Reuses the eigenbasis of C_u, so each (λ, fold) is an m×m solve.

use ndarray::Array1;

use super::basis::{EigenBasis, Fold, rows};
use super::folds;
use crate::data::Problem;
use crate::error::{Error, Result};
use crate::methods::qlds::{FittedQlds, LambdaPolicy, Moments, QldsParams};

/// Fixed (α_l, α_u), λ selected by stratified K-fold CV over λ_top·10^k, k ∈ {−3, −2.75,
/// …, 2}, plus the policy's own λ; λ_top is the top eigenvalue the policy uses. Grid values
/// that leave the system indefinite are skipped; ties go to the larger λ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SelectLambda {
    pub alpha_l: f64,
    pub alpha_u: f64,
    pub lambda: LambdaPolicy,
    pub folds: usize,
}

/// The selected λ and the classifier fitted with it.
#[derive(Debug, Clone)]
pub struct SelectedLambda {
    pub lambda: f64,
    pub model: FittedQlds,
}

impl SelectLambda {
    /// Checks (α_l, α_u) and the policy like QLDS, an eigenvalue policy, and ≥ 2 folds.
    pub fn new(alpha_l: f64, alpha_u: f64, lambda: LambdaPolicy, folds: usize) -> Result<Self> {
        QldsParams { alpha_l, alpha_u, lambda }.check()?;
        if matches!(lambda, LambdaPolicy::Fixed(_)) {
            return Err(Error::param(
                "lambda",
                "CV needs an eigenvalue policy to scale its λ grid",
            ));
        }
        if folds < 2 {
            return Err(Error::param("folds", format!("must be ≥ 2, got {folds}")));
        }
        Ok(SelectLambda { alpha_l, alpha_u, lambda, folds })
    }

    /// The λ grid for this problem: the policy's λ and λ_top·10^k.
    pub fn grid(&self, prep: &Moments) -> Result<Vec<f64>> {
        let (top, epsilon) = match self.lambda {
            LambdaPolicy::MaxEigAll { epsilon } => (prep.top_eig_all()?, epsilon),
            LambdaPolicy::MaxEigUnlabeled { epsilon } => (prep.top_eig_unlabeled()?, epsilon),
            LambdaPolicy::Fixed(l) => (l, 0.0),
        };
        let mut grid: Vec<f64> =
            (0..=20).map(|i| top * 10f64.powf(-3.0 + 0.25 * i as f64)).collect();
        grid.push((1.0 + epsilon) * top);
        grid.sort_by(f64::total_cmp);
        Ok(grid)
    }

    /// Cross-validation mistakes per grid λ (None where the system is indefinite).
    pub fn cv_mistakes(
        &self,
        basis: &EigenBasis,
        y_l: &Array1<f64>,
        grid: &[f64],
    ) -> Result<Vec<Option<usize>>> {
        let y = y_l.to_vec();
        let (k, assign) = folds::stratified(&y, self.folds)?;
        let mut mistakes: Vec<Option<usize>> =
            grid.iter().map(|l| basis.inverse_diagonal(*l, self.alpha_u).ok().map(|_| 0)).collect();
        for f in 0..k {
            let (train, test) = folds::split(&assign, f);
            let pick = |idx: &[usize]| idx.iter().map(|&i| y[i]).collect::<Vec<_>>();
            let fold = Fold::new(
                rows(basis.labeled.as_ref(), &train),
                pick(&train),
                rows(basis.labeled.as_ref(), &test),
            );
            let y_test = pick(&test);
            for (m, &lambda) in mistakes.iter_mut().zip(grid) {
                let Some(count) = m else { continue };
                let s =
                    fold.scores(&basis.inverse_diagonal(lambda, self.alpha_u)?, &[self.alpha_l])?;
                *count += (0..fold.test_rows())
                    .filter(|&i| (s[(i, 0)] >= 0.0) != (y_test[i] > 0.0))
                    .count();
            }
        }
        Ok(mistakes)
    }

    /// Selects λ, then fits once.
    pub fn run(&self, problem: &Problem) -> Result<SelectedLambda> {
        let prep = Moments::new(problem)?;
        self.run_prepared(&prep, &EigenBasis::new(&prep)?)
    }

    /// [`run`](Self::run) from the problem's moments and the eigenbasis of C_u.
    pub fn run_prepared(&self, prep: &Moments, basis: &EigenBasis) -> Result<SelectedLambda> {
        let grid = self.grid(prep)?;
        let mistakes = self.cv_mistakes(basis, &prep.y_l, &grid)?;
        let lambda = grid
            .iter()
            .zip(&mistakes)
            .filter_map(|(l, m)| m.map(|m| (*l, m)))
            .min_by(|a, b| a.1.cmp(&b.1).then(b.0.total_cmp(&a.0)))
            .map(|(l, _)| l)
            .ok_or_else(|| {
                Error::Data(
                    "λ cross-validation: no λ of the grid gives a positive definite system".into(),
                )
            })?;
        let model = QldsParams {
            alpha_l: self.alpha_l,
            alpha_u: self.alpha_u,
            lambda: LambdaPolicy::Fixed(lambda),
        }
        .check()?
        .fit_prepared(prep)?;
        Ok(SelectedLambda { lambda, model })
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::data::Sampler;
    use crate::data::synthetic::GaussianMixture;

    /// Reference: refit QLDS on each fold's training rows (all unlabeled rows kept) and count
    /// the held-out mistakes, for every λ.
    fn naive_mistakes(sel: &SelectLambda, p: &Problem, grid: &[f64]) -> Vec<Option<usize>> {
        let prep = Moments::new(p).unwrap();
        let y = prep.y_l.to_vec();
        let (k, assign) = folds::stratified(&y, sel.folds).unwrap();
        grid.iter()
            .map(|&lambda| {
                let mut total = 0;
                for f in 0..k {
                    let (train, test) = folds::split(&assign, f);
                    // Same centring and n as the fast path: the fold drops rows of X_l only
                    // from C_l and the right-hand side.
                    let mut c = faer::Mat::<f64>::zeros(prep.dim(), prep.dim());
                    let mut b = vec![0.0; prep.dim()];
                    for &i in &train {
                        for r in 0..prep.dim() {
                            b[r] += prep.x_l[[i, r]] * y[i] / (prep.n() as f64).sqrt();
                            for s in 0..prep.dim() {
                                c[(r, s)] += prep.x_l[[i, r]] * prep.x_l[[i, s]] / prep.n() as f64;
                            }
                        }
                    }
                    let mut a = faer::Mat::from_fn(prep.dim(), prep.dim(), |r, s| {
                        sel.alpha_l * c[(r, s)] - sel.alpha_u * prep.c_u[(r, s)]
                    });
                    for r in 0..prep.dim() {
                        a[(r, r)] += lambda;
                    }
                    let mut w = faer::Mat::from_fn(prep.dim(), 1, |r, _| b[r]);
                    if crate::linalg::spd_solve(a.as_ref(), &mut w, "test").is_err() {
                        return None;
                    }
                    total += test
                        .iter()
                        .filter(|&&i| {
                            let s: f64 =
                                (0..prep.dim()).map(|r| prep.x_l[[i, r]] * w[(r, 0)]).sum();
                            (s >= 0.0) != (y[i] > 0.0)
                        })
                        .count();
                }
                Some(total)
            })
            .collect()
    }

    #[test]
    fn fast_cv_counts_equal_refitting_each_fold() {
        let g = GaussianMixture::symmetric(6, 1.0).unwrap();
        let p = g.sample_problem([9, 7], [40, 40], &mut ChaCha8Rng::seed_from_u64(3));
        for (al, au) in [(1.0, 0.0), (0.0, 1.0)] {
            let sel = SelectLambda::new(al, au, LambdaPolicy::default(), 4).unwrap();
            let prep = Moments::new(&p).unwrap();
            let grid = sel.grid(&prep).unwrap();
            let fast = sel.cv_mistakes(&EigenBasis::new(&prep).unwrap(), &prep.y_l, &grid).unwrap();
            assert_eq!(fast, naive_mistakes(&sel, &p, &grid), "(α_l, α_u) = ({al}, {au})");
            if au == 1.0 {
                assert!(fast[0].is_none(), "λ far below λ_max(C_u) must be skipped for GB-SSL");
            }
            let chosen = sel.run(&p).unwrap();
            assert!(grid.contains(&chosen.lambda));
        }
    }

    #[test]
    fn invalid_settings_name_the_parameter() {
        assert!(
            SelectLambda::new(1.0, 0.0, LambdaPolicy::Fixed(1.0), 10)
                .unwrap_err()
                .to_string()
                .contains("lambda")
        );
        assert!(
            SelectLambda::new(1.0, 0.0, LambdaPolicy::default(), 1)
                .unwrap_err()
                .to_string()
                .contains("folds")
        );
    }
}
