//! Class ids and names of a [`Dataset`]: construction, counts, class subsets and
//! binarisation (one class vs another, some classes vs the rest).

use ndarray::Array1;

use super::{Dataset, Features};
use crate::error::{Error, Result};

impl Dataset {
    /// A dataset from class ids (each `< class_names.len()`); `y` is +1 for class 0, −1 else.
    pub fn with_classes(
        x: Features,
        classes: Vec<usize>,
        class_names: Vec<String>,
    ) -> Result<Self> {
        if x.nrows() != classes.len() {
            return Err(Error::Data(format!("{} rows but {} class ids", x.nrows(), classes.len())));
        }
        if let Some(c) = classes.iter().find(|c| **c >= class_names.len()) {
            return Err(Error::Data(format!(
                "class id {c} but only {} classes",
                class_names.len()
            )));
        }
        let y = classes.iter().map(|c| if *c == 0 { 1.0 } else { -1.0 }).collect::<Array1<f64>>();
        Ok(Dataset { x, y, classes, class_names })
    }

    /// Number of classes (named, whether or not every one occurs).
    pub fn n_classes(&self) -> usize {
        self.class_names.len()
    }

    /// Rows per class, indexed by class id.
    pub fn class_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.n_classes()];
        for c in &self.classes {
            counts[*c] += 1;
        }
        counts
    }

    /// Row indices of each class, in increasing order.
    pub fn class_rows(&self) -> Vec<Vec<usize>> {
        let mut rows = vec![Vec::new(); self.n_classes()];
        for (i, c) in self.classes.iter().enumerate() {
            rows[*c].push(i);
        }
        rows
    }

    /// The class id of the class called `name`.
    pub fn class_id(&self, name: &str) -> Result<usize> {
        self.class_names.iter().position(|n| n == name).ok_or_else(|| {
            Error::Data(format!("no class `{name}` (classes: {})", self.class_names.join(", ")))
        })
    }

    /// The rows of the classes `keep` (ids), which become classes 0, 1, … in that order.
    pub fn select_classes(&self, keep: &[usize]) -> Result<Dataset> {
        let mut new_id = vec![None; self.n_classes()];
        for (k, c) in keep.iter().enumerate() {
            match new_id.get_mut(*c) {
                Some(slot @ None) => *slot = Some(k),
                _ => return Err(Error::Data(format!("class id {c} is unknown or listed twice"))),
            }
        }
        let rows: Vec<usize> =
            (0..self.len()).filter(|i| new_id[self.classes[*i]].is_some()).collect();
        let classes = rows.iter().filter_map(|i| new_id[self.classes[*i]]).collect();
        let names = keep.iter().map(|c| self.class_names[*c].clone()).collect();
        Dataset::with_classes(self.x.select_rows(&rows), classes, names)
    }

    /// Two classes: the classes `positive` (ids) become class 0, every other class class 1
    /// (`rest`). Row order is kept.
    pub fn one_vs_rest(&self, positive: &[usize]) -> Result<Dataset> {
        if positive.is_empty() || positive.iter().any(|c| *c >= self.n_classes()) {
            return Err(Error::Data(format!(
                "positive classes {positive:?} must be known class ids"
            )));
        }
        let classes = self.classes.iter().map(|c| usize::from(!positive.contains(c))).collect();
        let pos =
            positive.iter().map(|c| self.class_names[*c].as_str()).collect::<Vec<_>>().join("+");
        Dataset::with_classes(self.x.clone(), classes, vec![pos, "rest".into()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn digits() -> Dataset {
        let x = Features::Dense(array![[0.0], [1.0], [2.0], [3.0], [4.0]]);
        let names = ["0", "1", "4", "9"].map(String::from).to_vec();
        Dataset::with_classes(x, vec![0, 1, 2, 3, 2], names).unwrap()
    }

    #[test]
    fn subsets_and_binarisation_relabel_rows() {
        let d = digits();
        assert_eq!(d.class_counts(), [1, 1, 2, 1]);
        let four_nine =
            d.select_classes(&[d.class_id("4").unwrap(), d.class_id("9").unwrap()]).unwrap();
        assert_eq!(four_nine.classes, [0, 1, 0]);
        assert_eq!(four_nine.y, array![1.0, -1.0, 1.0]);
        assert_eq!(four_nine.x.to_dense().column(0).to_vec(), [2.0, 3.0, 4.0]);
        assert_eq!(four_nine.class_names, ["4", "9"]);
        let ovr = d.one_vs_rest(&[1]).unwrap();
        assert_eq!(ovr.classes, [1, 0, 1, 1, 1]);
        assert_eq!(ovr.class_names, ["1", "rest"]);
    }

    #[test]
    fn bad_class_requests_are_errors() {
        let d = digits();
        assert!(d.class_id("7").is_err());
        assert!(d.select_classes(&[0, 0]).is_err());
        assert!(d.select_classes(&[9]).is_err());
        assert!(d.one_vs_rest(&[]).is_err());
        assert!(Dataset::with_classes(d.x.clone(), vec![0, 5, 0, 0, 0], vec!["a".into()]).is_err());
    }
}
