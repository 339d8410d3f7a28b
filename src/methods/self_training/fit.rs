//! The self-training loop. Centring, λ and the normalisation n stay those of the whole
//! training set; each round adds the pseudo-labeled rows' outer products to C_l (a rank-k
//! update) and refactors the d×d system once.

use faer::Mat;
use ndarray::{Array1, Axis};

use super::{SelfTraining, Threshold};
use crate::data::Problem;
use crate::error::Result;
use crate::linalg::{gram, spd_solve, to_array1};
use crate::methods::qlds::Moments;

/// The final LS-SVM after self-training, with the bookkeeping of the rounds.
#[derive(Debug, Clone)]
pub struct FittedSelfTraining {
    /// Scores of the unlabeled rows by the final classifier.
    pub scores: Array1<f64>,
    /// The final classifier's ω (on centred features).
    pub omega: Array1<f64>,
    pub lambda: f64,
    /// Number of unlabeled points pseudo-labeled after each round.
    pub added_per_round: Vec<usize>,
}

impl SelfTraining {
    /// Runs self-training on a problem.
    pub fn fit(&self, problem: &Problem) -> Result<FittedSelfTraining> {
        self.fit_prepared(&Moments::new(problem)?)
    }

    /// Runs self-training from the problem's QLDS moments.
    pub fn fit_prepared(&self, prep: &Moments) -> Result<FittedSelfTraining> {
        let p = self.params();
        let lambda = prep.lambda(p.lambda)?;
        let n_sqrt = (prep.n() as f64).sqrt();
        let d = prep.dim();
        let n_u = prep.x_u.nrows();
        let share_pos =
            prep.y_l.iter().filter(|y| **y > 0.0).count() as f64 / prep.y_l.len() as f64;
        // System matrix λI + C_l (grows with pseudo-labeled rows) and right-hand side.
        let mut system = prep.c_l.clone();
        for i in 0..d {
            system[(i, i)] += lambda;
        }
        let mut rhs = prep.rhs.clone();
        let mut remaining: Vec<usize> = (0..n_u).collect();
        let mut added_per_round = Vec::new();
        let mut omega = solve(&system, &rhs)?;
        for _ in 0..p.max_rounds {
            if remaining.is_empty() {
                break;
            }
            let scores = prep.x_u.select(Axis(0), &remaining).dot(&omega) / n_sqrt;
            let picked = pick(&scores, p.threshold, n_u, share_pos);
            if picked.is_empty() {
                break;
            }
            let rows: Vec<usize> = picked.iter().map(|&k| remaining[k]).collect();
            let labels: Array1<f64> =
                picked.iter().map(|&k| if scores[k] >= 0.0 { 1.0 } else { -1.0 }).collect();
            let x_new = prep.x_u.select(Axis(0), &rows);
            let update = gram(&x_new.view(), 1.0 / prep.n() as f64);
            system += &update;
            let b = x_new.t().dot(&labels) / n_sqrt;
            for j in 0..d {
                rhs[(j, 0)] += b[j];
            }
            let taken: std::collections::HashSet<usize> = picked.into_iter().collect();
            remaining = remaining
                .iter()
                .enumerate()
                .filter(|(k, _)| !taken.contains(k))
                .map(|(_, &i)| i)
                .collect();
            added_per_round.push(rows.len());
            omega = solve(&system, &rhs)?;
        }
        Ok(FittedSelfTraining {
            scores: prep.x_u.dot(&omega) / n_sqrt,
            omega,
            lambda,
            added_per_round,
        })
    }
}

fn solve(system: &Mat<f64>, rhs: &Mat<f64>) -> Result<Array1<f64>> {
    let mut x = rhs.clone();
    spd_solve(system.as_ref(), &mut x, "self-training LS-SVM system λI + C_l")?;
    Ok(to_array1(&x.col(0).to_owned()))
}

/// Positions (into `scores`) of the points to pseudo-label this round.
fn pick(scores: &Array1<f64>, threshold: Threshold, n_u: usize, share_pos: f64) -> Vec<usize> {
    match threshold {
        Threshold::Fraction { step } => {
            let k = ((step * n_u as f64).ceil() as usize).clamp(1, scores.len());
            let positives = scores.iter().filter(|s| **s >= 0.0).count();
            // Quota by labeled shares; a class short of its quota leaves the rest to the other.
            let k_pos = ((k as f64 * share_pos).round() as usize)
                .clamp(k.saturating_sub(scores.len() - positives), positives.min(k));
            let mut chosen = top_by_margin(scores, |s| s >= 0.0, k_pos);
            chosen.extend(top_by_margin(scores, |s| s < 0.0, k - k_pos));
            chosen
        }
        Threshold::Margin { theta } => {
            let spread = scores.std(0.0);
            (0..scores.len()).filter(|&i| scores[i].abs() >= theta * spread).collect()
        }
    }
}

/// The `k` positions with the largest |score| among those whose score satisfies `side`.
fn top_by_margin(scores: &Array1<f64>, side: impl Fn(f64) -> bool, k: usize) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..scores.len()).filter(|&i| side(scores[i])).collect();
    idx.sort_by(|&a, &b| scores[b].abs().total_cmp(&scores[a].abs()).then(a.cmp(&b)));
    idx.truncate(k);
    idx
}

#[cfg(test)]
mod tests {
    use ndarray::concatenate;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::data::Sampler;
    use crate::data::synthetic::GaussianMixture;
    use crate::methods::qlds::{LambdaPolicy, QldsParams};
    use crate::methods::self_training::SelfTrainingParams;

    fn problem(seed: u64) -> Problem {
        let g = GaussianMixture::symmetric(8, 1.5).unwrap();
        g.sample_problem([5, 5], [60, 40], &mut ChaCha8Rng::seed_from_u64(seed))
    }

    #[test]
    fn one_full_round_equals_ls_svm_on_pseudo_labeled_data() {
        let p = problem(1);
        let lambda = LambdaPolicy::Fixed(0.8);
        let st = SelfTrainingParams {
            threshold: Threshold::Fraction { step: 1.0 },
            max_rounds: 1,
            lambda,
        }
        .check()
        .unwrap()
        .fit(&p)
        .unwrap();
        assert_eq!(st.added_per_round, vec![100]);
        // Reference: LS-SVM on labeled rows plus all unlabeled rows with the labels the
        // initial LS-SVM predicts (same points, so the same centring and n).
        let ls = QldsParams::new(1.0, 0.0).lambda(lambda).check().unwrap();
        let x_u = p.x_u.to_dense().into_owned();
        let pseudo = ls.fit(&p).unwrap().predict(x_u.view());
        let x_all = concatenate(Axis(0), &[p.x_l.to_dense().view(), x_u.view()]).unwrap();
        let y_all = concatenate(Axis(0), &[p.y_l.view(), pseudo.view()]).unwrap();
        let merged = Problem::dense(x_all, y_all, ndarray::Array2::zeros((0, 8)), Array1::zeros(0));
        let reference = ls.fit(&merged).unwrap().scores(x_u.view());
        let diff = (&st.scores - &reference).iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(diff < 1e-10, "max difference {diff}");
    }

    #[test]
    fn fraction_policy_adds_balanced_batches_until_done() {
        let p = problem(2);
        let st = SelfTrainingParams {
            threshold: Threshold::Fraction { step: 0.25 },
            max_rounds: 10,
            lambda: LambdaPolicy::default(),
        }
        .check()
        .unwrap()
        .fit(&p)
        .unwrap();
        assert_eq!(st.added_per_round, vec![25, 25, 25, 25]);
        let scores = Array1::from(vec![3.0, -0.1, 2.0, -5.0, 0.5, -4.0]);
        let mut picked = pick(&scores, Threshold::Fraction { step: 0.5 }, 6, 0.5);
        picked.sort();
        // k = 3: two from the larger-margin side by share rounding (1.5 → 2), one from the other.
        assert_eq!(picked, vec![0, 2, 3]);
    }

    #[test]
    fn margin_policy_takes_points_beyond_theta_spreads() {
        let scores = Array1::from(vec![3.0, -0.1, 0.2, -3.0]);
        let spread = scores.std(0.0);
        let picked = pick(&scores, Threshold::Margin { theta: 1.0 }, 4, 0.5);
        assert!(picked.iter().all(|&i| scores[i].abs() >= spread));
        assert_eq!(picked, vec![0, 3]);
    }

    #[test]
    fn invalid_parameters_name_the_parameter() {
        let bad = |t| {
            SelfTrainingParams { threshold: t, ..Default::default() }
                .check()
                .unwrap_err()
                .to_string()
        };
        assert!(bad(Threshold::Fraction { step: 0.0 }).contains("step"));
        assert!(bad(Threshold::Margin { theta: -1.0 }).contains("threshold"));
        let zero = SelfTrainingParams { max_rounds: 0, ..Default::default() }.check();
        assert!(zero.unwrap_err().to_string().contains("max_rounds"));
    }
}
