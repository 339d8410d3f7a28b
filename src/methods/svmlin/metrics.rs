//! Ranking metric of the SVMlin paper: the precision–recall break-even point.

use ndarray::ArrayView1;

/// PRBEP: with k the number of true positives, the precision (= recall) of the k highest
/// scores (ties broken by position). NaN when there is no positive.
pub fn prbep(scores: ArrayView1<f64>, truth: ArrayView1<f64>) -> f64 {
    let k = truth.iter().filter(|t| **t > 0.0).count();
    if k == 0 {
        return f64::NAN;
    }
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    let hits = order.iter().take(k).filter(|&&i| truth[i] > 0.0).count();
    hits as f64 / k as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn break_even_of_small_rankings() {
        let truth = array![1.0, -1.0, 1.0, -1.0, 1.0];
        assert_eq!(prbep(array![5.0, 4.0, 3.0, 2.0, 1.0].view(), truth.view()), 2.0 / 3.0);
        assert_eq!(prbep(array![5.0, -4.0, 3.0, -2.0, 1.0].view(), truth.view()), 1.0);
        assert_eq!(prbep(array![-5.0, 4.0, -3.0, 2.0, -1.0].view(), truth.view()), 1.0 / 3.0);
        assert!(prbep(array![1.0].view(), array![-1.0].view()).is_nan());
    }
}
