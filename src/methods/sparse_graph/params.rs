//! Parameters of the graph-only methods, validated once into [`SparseGraphMethod`].

use std::path::PathBuf;

use super::{CgSettings, IterSettings, KnnSpec, KnnWeights, Search, Symmetrise};
use crate::error::{Error, Result};

/// The four graph-only methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SparseKind {
    Laplace,
    Poisson,
    LabelSpreading,
    LabelPropagation,
}

impl SparseKind {
    /// Every kind, in config order.
    pub const ALL: [SparseKind; 4] = [
        SparseKind::Laplace,
        SparseKind::Poisson,
        SparseKind::LabelSpreading,
        SparseKind::LabelPropagation,
    ];

    /// The config spelling (`laplace`, `poisson`, `label_spreading`, `label_propagation`).
    pub fn name(&self) -> &'static str {
        match self {
            SparseKind::Laplace => "laplace",
            SparseKind::Poisson => "poisson",
            SparseKind::LabelSpreading => "label_spreading",
            SparseKind::LabelPropagation => "label_propagation",
        }
    }

    /// The default method name.
    pub fn label(&self) -> &'static str {
        match self {
            SparseKind::Laplace => "Laplace",
            SparseKind::Poisson => "Poisson",
            SparseKind::LabelSpreading => "Label spreading",
            SparseKind::LabelPropagation => "Label propagation",
        }
    }

    /// The kind of a config spelling.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The method-specific keys (besides the graph's `k`, `weighting`, `symmetrise`).
    pub fn parameters(&self) -> &'static [&'static str] {
        match self {
            SparseKind::LabelSpreading => &["alpha", "tol", "iterations"],
            _ => &["tol", "iterations"],
        }
    }
}

/// Unchecked parameters with each kind's defaults: GraphLearning's for Laplace (tol 10⁻⁵)
/// and Poisson (tol 10⁻³), both on its k = 10 Gaussian graph; scikit-learn's for label
/// spreading (α = 0.2, 30 steps) and propagation (1,000 steps), both with tol 10⁻³ on its
/// `kernel="knn"` graph (n_neighbors = 7: k = 6, binary, not symmetrised).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SparseParams {
    pub kind: SparseKind,
    pub graph: KnnSpec,
    pub alpha: f64,
    pub tol: f64,
    pub max_iter: usize,
}

impl SparseParams {
    /// The defaults of `kind`.
    pub fn new(kind: SparseKind) -> Self {
        let sklearn = KnnSpec {
            k: 6,
            weights: KnnWeights::Binary,
            symmetrise: Symmetrise::None,
            search: Search::Auto,
        };
        let (graph, tol, max_iter) = match kind {
            SparseKind::Laplace => (KnnSpec::default(), 1e-5, 100_000),
            SparseKind::Poisson => (KnnSpec::default(), 1e-3, 100_000),
            SparseKind::LabelSpreading => (sklearn, 1e-3, 30),
            SparseKind::LabelPropagation => (sklearn, 1e-3, 1000),
        };
        SparseParams { kind, graph, alpha: 0.2, tol, max_iter }
    }

    /// Range checks: 0 < α < 1, tol > 0, a symmetric graph for Laplace and Poisson.
    pub fn check(self) -> Result<SparseGraphMethod> {
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err(Error::param("alpha", format!("must be in (0, 1), got {}", self.alpha)));
        }
        if !(self.tol > 0.0 && self.tol.is_finite()) {
            return Err(Error::param("tol", format!("must be > 0, got {}", self.tol)));
        }
        let symmetric_only = matches!(self.kind, SparseKind::Laplace | SparseKind::Poisson);
        if symmetric_only && self.graph.symmetrise == Symmetrise::None {
            return Err(Error::param(
                "symmetrise",
                format!(
                    "{} needs a symmetric graph: \"mean\", \"max\" or \"mutual\"",
                    self.kind.name()
                ),
            ));
        }
        Ok(SparseGraphMethod { params: self, source: GraphSource::Knn { cache: None } })
    }

    /// The iteration settings of label spreading and propagation.
    pub fn iter_settings(&self) -> IterSettings {
        IterSettings { tol: self.tol, max_iter: self.max_iter }
    }

    /// The conjugate-gradient settings of Laplace and Poisson learning.
    pub fn cg_settings(&self) -> CgSettings {
        CgSettings { tol: self.tol, max_iter: self.max_iter }
    }

    /// `key=value` pairs for the result row's `params` column.
    pub fn describe(&self) -> String {
        let mut s =
            format!("{} tol={} iterations={}", self.graph.describe(), self.tol, self.max_iter);
        if self.kind == SparseKind::LabelSpreading {
            s.push_str(&format!(" alpha={}", self.alpha));
        }
        s
    }
}

/// Where a method's graph comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum GraphSource {
    /// The kNN graph of the points; with a folder, a dataset's graph is cached there.
    Knn { cache: Option<PathBuf> },
    /// A precomputed adjacency matrix (`scipy.sparse.save_npz`), one node per dataset row.
    File(PathBuf),
}

/// A graph-only method with checked parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct SparseGraphMethod {
    params: SparseParams,
    source: GraphSource,
}

impl SparseGraphMethod {
    /// The checked parameters.
    pub fn params(&self) -> &SparseParams {
        &self.params
    }

    /// Where the graph comes from.
    pub fn source(&self) -> &GraphSource {
        &self.source
    }

    /// The same method taking its graph from `source`.
    pub fn with_source(mut self, source: GraphSource) -> Self {
        self.source = source;
        self
    }
}
