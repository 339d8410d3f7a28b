//! The k-fold criterion's views of a tuning split: the labeled rows in stratified folds, and
//! the split with one fold held out (moved to the front of the unlabeled rows).

use crate::data::{Features, Problem};
use crate::error::{Error, Result};

/// The labeled rows of `p` in `k` stratified folds, K = min(k, smallest labeled class): within
/// each class, in row order, the i-th labeled row goes to fold i mod K (no randomness; the
/// split's rows are already a random draw). An error when a class has fewer than 2 rows.
pub fn folds(p: &Problem, k: usize) -> Result<Vec<Vec<usize>>> {
    let mut by_class = vec![Vec::new(); p.n_classes];
    for (row, &c) in p.classes_l.iter().enumerate() {
        by_class[c].push(row);
    }
    let smallest = by_class.iter().map(Vec::len).min().unwrap_or(0);
    if smallest < 2 {
        return Err(Error::Data(format!(
            "k-fold tuning needs at least 2 labeled rows in every class (the smallest class has {smallest})"
        )));
    }
    let k = k.min(smallest);
    let mut folds = vec![Vec::new(); k];
    for rows in &by_class {
        for (i, &row) in rows.iter().enumerate() {
            folds[i % k].push(row);
        }
    }
    folds.iter_mut().for_each(|f| f.sort_unstable());
    Ok(folds)
}

/// The split without the labels of `held` (sorted labeled rows): the other labeled rows stay
/// labeled, `held` become the first unlabeled rows, before the split's own; with the split's
/// dataset rows `rows` (labeled first), the same rows in the new order.
pub fn hold_out(
    p: &Problem,
    rows: Option<&[usize]>,
    held: &[usize],
) -> Result<(Problem, Option<Vec<usize>>)> {
    let kept: Vec<usize> = (0..p.n_labeled()).filter(|i| held.binary_search(i).is_err()).collect();
    let pick = |ids: &[usize], from: &[usize]| ids.iter().map(|&i| from[i]).collect::<Vec<_>>();
    let x_u = Features::stack(&[&p.x_l.select_rows(held), &p.x_u], p.x_u.ncols())?;
    let y_held = p.y_l.select(ndarray::Axis(0), held);
    let problem = Problem {
        x_l: p.x_l.select_rows(&kept),
        y_l: p.y_l.select(ndarray::Axis(0), &kept),
        x_u,
        y_u: y_held.iter().chain(&p.y_u).copied().collect(),
        classes_l: pick(&kept, &p.classes_l),
        classes_u: pick(held, &p.classes_l)
            .into_iter()
            .chain(p.classes_u.iter().copied())
            .collect(),
        n_classes: p.n_classes,
    };
    let rows = rows.map(|r| {
        let nl = p.n_labeled();
        pick(&kept, r).into_iter().chain(pick(held, r)).chain(r[nl..].iter().copied()).collect()
    });
    Ok((problem, rows))
}

#[cfg(test)]
mod tests {
    use ndarray::{Array2, array};

    use super::*;

    #[test]
    fn folds_are_stratified_and_hold_out_moves_rows_in_order() {
        let y_l = array![1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0];
        let x_l = Array2::from_shape_fn((7, 2), |(i, j)| (10 * i + j) as f64);
        let p = Problem::dense(x_l, y_l, Array2::from_elem((2, 2), -1.0), array![1.0, -1.0]);
        // Class +1 rows 0, 2, 3, 6 and class −1 rows 1, 4, 5: K = 3 (the smaller class).
        assert_eq!(folds(&p, 5).unwrap(), vec![vec![0, 1, 6], vec![2, 4], vec![3, 5]]);
        let rows = [100, 101, 102, 103, 104, 105, 106, 107, 108];
        let (q, r) = hold_out(&p, Some(&rows), &[2, 4]).unwrap();
        assert_eq!(q.x_l.to_dense().column(0).to_vec(), [0.0, 10.0, 30.0, 50.0, 60.0]);
        assert_eq!(q.x_u.to_dense().column(0).to_vec(), [20.0, 40.0, -1.0, -1.0]);
        assert_eq!(q.y_u.to_vec(), [1.0, -1.0, 1.0, -1.0]);
        assert_eq!(
            (q.classes_l.clone(), q.classes_u.clone()),
            (vec![0, 1, 0, 1, 0], vec![0, 1, 0, 1])
        );
        assert_eq!(r.unwrap(), [100, 101, 103, 105, 106, 102, 104, 107, 108]);
        let one = Problem::dense(
            Array2::zeros((3, 1)),
            array![1.0, -1.0, -1.0],
            Array2::zeros((1, 1)),
            array![1.0],
        );
        assert!(folds(&one, 2).unwrap_err().to_string().contains("at least 2 labeled rows"));
    }
}
