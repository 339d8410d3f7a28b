//! The SVMlin paper's loss figures, from the loss code the solvers use
//! ([`svmlin::l2`](crate::methods::svmlin::l2), the DA p-step's closed form and
//! [`mean_entropy`](crate::methods::svmlin::mean_entropy)): Fig. 1, the l2 loss of TSVM on
//! labeled points (l2(y·o)) and unlabeled ones (min over the label, l2(|o|)); Fig. 2, the
//! loss DA puts on an unlabeled point at temperature T (p at its optimum for the output).

use super::curves::Curve;
use crate::methods::svmlin::{l2, mean_entropy};

/// Outputs o from `lo` to `hi` in `n` steps.
fn outputs(lo: f64, hi: f64, n: usize) -> impl Iterator<Item = f64> {
    (0..=n).map(move |k| lo + (hi - lo) * k as f64 / n as f64)
}

/// The loss TSVM puts on an unlabeled point of output `o`: the label minimising l2(±o).
pub fn tsvm_unlabeled(o: f64) -> f64 {
    l2(o).min(l2(-o))
}

/// The loss DA puts on an unlabeled point of output `o` at temperature `t` (λ_u = 1):
/// p·l2(o) + (1 − p)·l2(−o) − T·H(p), with p = 1/(1 + e^{g/T}), g = l2(o) − l2(−o), the
/// p-step's minimiser without the balance constraint (ν = 0).
pub fn da_unlabeled(o: f64, t: f64) -> f64 {
    let (a, b) = (l2(o), l2(-o));
    let z = (a - b) / t;
    let p = if z > 0.0 { (-z).exp() / (1.0 + (-z).exp()) } else { 1.0 / (1.0 + z.exp()) };
    p * a + (1.0 - p) * b - t * mean_entropy(&[p])
}

/// Fig. 1's curves over o ∈ [−2, 2]: labeled y = +1, labeled y = −1, unlabeled.
pub fn tsvm_curves() -> Vec<Curve> {
    let curve = |label: &str, f: &dyn Fn(f64) -> f64| Curve {
        label: label.into(),
        group: String::new(),
        points: outputs(-2.0, 2.0, 100).map(|o| (o, f(o), 0.0)).collect(),
    };
    vec![
        curve("labeled, y = +1: l₂(o)", &l2),
        curve("labeled, y = −1: l₂(−o)", &|o| l2(-o)),
        curve("unlabeled: min(l₂(o), l₂(−o))", &tsvm_unlabeled),
    ]
}

/// Fig. 2's curves over o ∈ [−3, 3], one per temperature (decreasing), then T → 0 (TSVM).
pub fn da_curves(temperatures: &[f64]) -> Vec<Curve> {
    let mut out: Vec<Curve> = temperatures
        .iter()
        .map(|&t| Curve {
            label: format!("T = {}", super::style::tick(t)),
            group: String::new(),
            points: outputs(-3.0, 3.0, 150).map(|o| (o, da_unlabeled(o, t), 0.0)).collect(),
        })
        .collect();
    out.push(Curve {
        label: "T → 0 (TSVM)".into(),
        group: String::new(),
        points: outputs(-3.0, 3.0, 150).map(|o| (o, tsvm_unlabeled(o), 0.0)).collect(),
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn da_loss_is_the_soft_minimum_and_tends_to_the_tsvm_loss() {
        for o in [-2.5, -1.0, -0.3, 0.0, 0.4, 1.0, 2.2] {
            for t in [0.1, 0.5, 1.0, 4.0, 10.0] {
                // Closed form of min_p p·a + (1−p)·b − T·H(p): −T log(e^{−a/T} + e^{−b/T}).
                let (a, b) = (l2(o), l2(-o));
                let soft = -t * ((-a / t).exp() + (-b / t).exp()).ln();
                assert!((da_unlabeled(o, t) - soft).abs() < 1e-12, "o {o} T {t}");
            }
            assert!((da_unlabeled(o, 1e-4) - tsvm_unlabeled(o)).abs() < 1e-3);
            assert_eq!(tsvm_unlabeled(o), l2(f64::abs(o)));
        }
        // At o = 0 both labels cost 1: the loss is 1 − T log 2.
        assert!((da_unlabeled(0.0, 2.0) - (1.0 - 2.0 * 2f64.ln())).abs() < 1e-12);
        let c = da_curves(&[10.0, 1.0]);
        assert_eq!(c.len(), 3);
        assert_eq!(c[0].label, "T = 10");
        assert_eq!(tsvm_curves()[2].points[50], (0.0, 1.0, 0.0));
    }
}
