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
