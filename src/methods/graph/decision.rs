//! How the unlabeled scores become predictions (config key `decision`): as they are (sign
//! or argmax), or adjusted so the predicted classes keep the labeled class shares q_k.
//! Made for the TV paper's one-label cells, where plain Laplacian RLS/SVM scores put most
//! digits in one class; the paper describes the plain rule, our Table 1 uses `zero_mean` for
//! Lap-RLS/Lap-SVM (configs/tv_usps_4v9.toml).

use ndarray::{Array1, Array2, ArrayViewMut1};

use crate::engine::PointRule;
use crate::error::{Error, Result};

/// The decision rule applied to the unlabeled scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Decision {
    /// Sign (binary) or argmax (per class) of the scores as they are.
    #[default]
    Plain,
    /// Class-mass normalisation (Zhu, Ghahramani & Lafferty 2003): memberships
    /// s_k = max(0, (1 ± f)/2) (binary) or the per-class scores clipped at 0, each class
    /// rescaled to q_k / Σ_unlabeled s_k; binary score n_u (s₊ q₊/M₊ − s₋ q₋/M₋).
    ClassMass,
    /// Hard balance: the round(q_k n_u) unlabeled points of highest score go to class k.
    /// Binary: f − t, t between the n₊-th and (n₊+1)-th largest f. Per class: greedy over
    /// (point, class) pairs by decreasing score, a point to the first class with room;
    /// the scores become one-hot.
    Balance,
    /// Each class's scores minus their unlabeled mean (binary: f − mean f).
    ZeroMean,
}

impl Decision {
    /// Every rule, in config order.
    pub const ALL: [Decision; 4] =
        [Decision::Plain, Decision::ClassMass, Decision::Balance, Decision::ZeroMean];

    /// The config spelling.
    pub fn name(&self) -> &'static str {
        match self {
            Decision::Plain => "plain",
            Decision::ClassMass => "class_mass",
            Decision::Balance => "balance",
            Decision::ZeroMean => "zero_mean",
        }
    }

    /// Adjusts binary unlabeled scores `f` in place; `y_l` are the ±1 labels. Returns the
    /// rule's pointwise form for new points (the same map of each unlabeled score).
    pub fn binary(&self, mut f: ArrayViewMut1<f64>, y_l: &[f64]) -> Result<PointRule> {
        let n = f.len();
        if n == 0 || *self == Decision::Plain {
            return Ok(PointRule::Plain);
        }
        let q_pos = y_l.iter().filter(|&&y| y > 0.0).count() as f64 / y_l.len().max(1) as f64;
        let rule = match self {
            Decision::Plain => PointRule::Plain,
            Decision::ClassMass => {
                let member = |v: f64, sign: f64| (0.5 * (1.0 + sign * v)).max(0.0);
                let mass = |sign: f64| f.iter().map(|&v| member(v, sign)).sum::<f64>();
                let (m_pos, m_neg) = (mass(1.0), mass(-1.0));
                let w = |q: f64, m: f64| if m > 0.0 { n as f64 * q / m } else { 0.0 };
                PointRule::ClassMass(Array1::from(vec![w(q_pos, m_pos), w(1.0 - q_pos, m_neg)]))
            }
            Decision::Balance => {
                let mut sorted: Vec<f64> = f.to_vec();
                sorted.sort_by(|a, b| b.total_cmp(a));
                let n_pos = (q_pos * n as f64).round() as usize;
                let t = match n_pos {
                    0 => sorted[0] + 1.0,
                    k if k >= n => sorted[n - 1] - 1.0,
                    k => 0.5 * (sorted[k - 1] + sorted[k]),
                };
                PointRule::Offset(Array1::from_elem(1, t))
            }
            Decision::ZeroMean => PointRule::Offset(Array1::from_elem(1, f.sum() / n as f64)),
        };
        f.iter_mut().for_each(|v| rule.apply(std::slice::from_mut(v)));
        Ok(rule)
    }

    /// Adjusts per-class unlabeled scores `s` (n_u × c) in place; `labels` are the class ids
    /// of the labeled points. Returns the rule's pointwise form for new points: the same
    /// map of each unlabeled row, except per-class `balance`, whose greedy assigns the
    /// points as a group ([`PointRule::Cuts`] places one new point).
    pub fn per_class(&self, s: &mut Array2<f64>, labels: &[usize]) -> Result<PointRule> {
        let (n, c) = s.dim();
        if n == 0 || *self == Decision::Plain {
            return Ok(PointRule::Plain);
        }
        if labels.is_empty() || labels.iter().any(|&l| l >= c) {
            return Err(Error::Data(format!("decision: labels must lie in 0..{c}")));
        }
        let q: Vec<f64> = (0..c)
            .map(|k| labels.iter().filter(|&&l| l == k).count() as f64 / labels.len() as f64)
            .collect();
        let rule = match self {
            Decision::Plain => PointRule::Plain,
            Decision::ClassMass => {
                // Clipped first, so that each mass sums the view the rule then scales.
                s.mapv_inplace(|v| v.max(0.0));
                PointRule::ClassMass(Array1::from_shape_fn(c, |k| {
                    let mass = s.column(k).sum();
                    if mass > 0.0 { n as f64 * q[k] / mass } else { 0.0 }
                }))
            }
            Decision::Balance => return Ok(balance(s, &q)),
            Decision::ZeroMean => {
                PointRule::Offset(Array1::from_shape_fn(c, |k| s.column(k).sum() / n as f64))
            }
        };
        let mut buffer = vec![0.0; c];
        for mut row in s.rows_mut() {
            buffer.iter_mut().zip(row.iter()).for_each(|(b, v)| *b = *v);
            rule.apply(&mut buffer);
            row.iter_mut().zip(&buffer).for_each(|(v, b)| *v = *b);
        }
        Ok(rule)
    }
}

/// Per-class hard balance of `s` in place (the labeled shares `q`): greedy over (point,
/// class) pairs by decreasing score, a point to the first class with room, one-hot; the
/// cut of each class is the score of the pair that filled it (−∞: never filled, +∞: no room).
fn balance(s: &mut Array2<f64>, q: &[f64]) -> PointRule {
    let (n, c) = s.dim();
    let mut room: Vec<usize> = q.iter().map(|qk| (qk * n as f64).round() as usize).collect();
    // Rounding may leave points without a class: the last class with labels takes them.
    let last = (0..c).rev().find(|&k| q[k] > 0.0).unwrap_or(c - 1);
    room[last] += n.saturating_sub(room.iter().sum());
    let mut cut = Array1::from_shape_fn(c, |k| match room[k] {
        0 => f64::INFINITY,
        _ => f64::NEG_INFINITY,
    });
    let mut pairs: Vec<(usize, usize)> = (0..n).flat_map(|i| (0..c).map(move |k| (i, k))).collect();
    pairs.sort_by(|a, b| s[[b.0, b.1]].total_cmp(&s[[a.0, a.1]]));
    let mut class: Vec<Option<usize>> = vec![None; n];
    for (i, k) in pairs {
        if class[i].is_none() && room[k] > 0 {
            class[i] = Some(k);
            room[k] -= 1;
            if room[k] == 0 {
                cut[k] = s[[i, k]];
            }
        }
    }
    s.indexed_iter_mut().for_each(|((i, k), v)| *v = if class[i] == Some(k) { 1.0 } else { 0.0 });
    PointRule::Cuts(cut)
}

#[cfg(test)]
mod tests {
    use ndarray::{Array1, Axis, array};

    use super::*;
    use crate::engine::argmax_rows;

    #[test]
    fn class_mass_follows_zhu_on_memberships() {
        // Independent route: Zhu's rule on harmonic memberships h ∈ [0, 1] with labeled
        // share q: class + iff q h / Σh > (1 − q)(1 − h) / Σ(1 − h); f = 2h − 1.
        let h = [0.9, 0.8, 0.7, 0.65, 0.6, 0.55, 0.3];
        let q = 0.5;
        let (sh, s1h) = (h.iter().sum::<f64>(), h.iter().map(|v| 1.0 - v).sum::<f64>());
        let mut f = Array1::from_iter(h.iter().map(|v| 2.0 * v - 1.0));
        Decision::ClassMass.binary(f.view_mut(), &[1.0, -1.0]).unwrap();
        for (i, v) in h.iter().enumerate() {
            assert_eq!(f[i] > 0.0, q * v / sh > (1.0 - q) * (1.0 - v) / s1h, "point {i}");
        }
        // Plain signs would put 6 of 7 in class +; the masses move the threshold up.
        assert_eq!(f.iter().filter(|v| **v > 0.0).count(), 4);
    }

    #[test]
    fn balance_keeps_the_labeled_shares() {
        let mut f = array![3.0, 2.0, 1.5, 1.0, 0.5, -0.2];
        Decision::Balance.binary(f.view_mut(), &[1.0, -1.0, -1.0]).unwrap();
        assert_eq!(
            f.iter().map(|v| *v > 0.0).collect::<Vec<_>>(),
            [true, true, false, false, false, false]
        );
        let mut s = array![
            [0.9, 0.1, 0.0],
            [0.8, 0.2, 0.0],
            [0.7, 0.0, 0.3],
            [0.6, 0.4, 0.0],
            [0.5, 0.0, 0.5],
            [0.4, 0.3, 0.3]
        ];
        Decision::Balance.per_class(&mut s, &[0, 1, 2]).unwrap();
        // Two per class: points 0 and 1 fill class 0, then 4 → 2 (0.5), 3 → 1 (0.4),
        // 2 → 2 (0.3), 5 → 1 (0.3; class 2 is full).
        assert_eq!(argmax_rows(&s), [0, 0, 2, 1, 2, 1]);
    }

    #[test]
    fn per_class_class_mass_and_zero_mean() {
        let s0 = array![[0.6, 0.4], [0.7, 0.3], [0.55, 0.45], [0.2, 0.8]];
        let mut s = s0.clone();
        Decision::ClassMass.per_class(&mut s, &[0, 1]).unwrap();
        let (m0, m1) = (s0.column(0).sum(), s0.column(1).sum());
        for i in 0..4 {
            assert!((s[[i, 0]] - 4.0 * 0.5 * s0[[i, 0]] / m0).abs() < 1e-12);
            assert!((s[[i, 1]] - 4.0 * 0.5 * s0[[i, 1]] / m1).abs() < 1e-12);
        }
        let mut z = s0.clone();
        Decision::ZeroMean.per_class(&mut z, &[0, 1]).unwrap();
        assert!(z.sum_axis(Axis(0)).iter().all(|v| v.abs() < 1e-12));
        assert!(Decision::ZeroMean.per_class(&mut z, &[0, 2]).is_err());
    }
}
