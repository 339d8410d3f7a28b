//! The labeled nodes of a graph and their classes, as every graph-only method reads them.

use crate::error::{Error, Result};

/// Labeled nodes (indices into the graph) with their class ids (< `n_classes`).
#[derive(Debug, Clone, Copy)]
pub struct Seeds<'a> {
    pub nodes: &'a [usize],
    pub classes: &'a [usize],
    pub n_classes: usize,
}

impl<'a> Seeds<'a> {
    /// Checks that nodes are distinct and below `n`, and that each class id is in range.
    pub fn new(
        nodes: &'a [usize],
        classes: &'a [usize],
        n_classes: usize,
        n: usize,
    ) -> Result<Self> {
        if nodes.len() != classes.len() {
            return Err(Error::Data(format!(
                "{} labeled nodes but {} classes",
                nodes.len(),
                classes.len()
            )));
        }
        let mut seen = vec![false; n];
        for (&i, &c) in nodes.iter().zip(classes) {
            if i >= n || seen[i] {
                return Err(Error::Data(format!("labeled node {i} repeated or out of 0..{n}")));
            }
            if c >= n_classes {
                return Err(Error::Data(format!("class {c} of node {i} ≥ {n_classes} classes")));
            }
            seen[i] = true;
        }
        Ok(Seeds { nodes, classes, n_classes })
    }

    /// Whether each of the n nodes is labeled.
    pub fn mask(&self, n: usize) -> Vec<bool> {
        let mut m = vec![false; n];
        self.nodes.iter().for_each(|&i| m[i] = true);
        m
    }

    /// The ±1 label columns of the node RLS methods: one column (+1 for class 0, −1 for
    /// class 1) unless `one_vs_rest`, else one column per class (+1 for the class, −1 for the
    /// others). Fails on a single column of more than two classes.
    pub fn signed(&self, n: usize, one_vs_rest: bool) -> Result<SignedLabels> {
        if !one_vs_rest && self.n_classes != 2 {
            return Err(Error::Data(format!(
                "one ±1 label column needs 2 classes, got {}",
                self.n_classes
            )));
        }
        let columns = if one_vs_rest { self.n_classes } else { 1 };
        let mut y = vec![0.0; n * columns];
        for (&i, &k) in self.nodes.iter().zip(self.classes) {
            let row = &mut y[i * columns..(i + 1) * columns];
            if one_vs_rest {
                row.iter_mut().enumerate().for_each(|(j, v)| *v = if j == k { 1.0 } else { -1.0 });
            } else {
                row[0] = if k == 0 { 1.0 } else { -1.0 };
            }
        }
        Ok(SignedLabels { y, columns, labeled: self.mask(n) })
    }

    /// The n × c row-major one-hot block of the labels (zero rows for unlabeled nodes).
    pub fn one_hot(&self, n: usize) -> Vec<f64> {
        let c = self.n_classes;
        let mut y = vec![0.0; n * c];
        for (&i, &k) in self.nodes.iter().zip(self.classes) {
            y[i * c + k] = 1.0;
        }
        y
    }
}

/// ±1 labels of the node RLS methods: n × `columns` row-major `y` (0 on unlabeled nodes)
/// and which nodes are labeled.
#[derive(Debug, Clone, PartialEq)]
pub struct SignedLabels {
    pub y: Vec<f64>,
    pub columns: usize,
    pub labeled: Vec<bool>,
}

impl SignedLabels {
    /// Column k as a vector of the n nodes.
    pub fn column(&self, k: usize) -> Vec<f64> {
        self.y.iter().skip(k).step_by(self.columns).copied().collect()
    }
}
