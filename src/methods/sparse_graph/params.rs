//! Parameters of the graph-only methods, validated once into [`SparseGraphMethod`].

use std::path::PathBuf;
use std::sync::Arc;

use super::{CgSettings, CheegerSettings, IterSettings, KnnSpec, KnnWeights, RlsWeights};
use super::{Graph, Search, Symmetrise};
use crate::error::{Error, Result};
use crate::methods::graph::RofSettings;

/// The graph-only methods: four label-propagation ones and the TV-SVM paper's Lap-RLS,
/// TV-RLS and Cheeger-RLS with the function on the nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SparseKind {
    Laplace,
    Poisson,
    LabelSpreading,
    LabelPropagation,
    GraphLapRls,
    GraphTvRls,
    GraphCheegerRls,
}

impl SparseKind {
    /// Every kind, in config order.
    pub const ALL: [SparseKind; 7] = [
        SparseKind::Laplace,
        SparseKind::Poisson,
        SparseKind::LabelSpreading,
        SparseKind::LabelPropagation,
        SparseKind::GraphLapRls,
        SparseKind::GraphTvRls,
        SparseKind::GraphCheegerRls,
    ];

    /// The config spelling (`laplace`, `poisson`, ..., `graph_cheeger_rls`).
    pub fn name(&self) -> &'static str {
        match self {
            SparseKind::Laplace => "laplace",
            SparseKind::Poisson => "poisson",
            SparseKind::LabelSpreading => "label_spreading",
            SparseKind::LabelPropagation => "label_propagation",
            SparseKind::GraphLapRls => "graph_lap_rls",
            SparseKind::GraphTvRls => "graph_tv_rls",
            SparseKind::GraphCheegerRls => "graph_cheeger_rls",
        }
    }

    /// Whether the kind is one of the TV-SVM paper's RLS methods on the nodes.
    pub fn on_nodes(&self) -> bool {
        matches!(
            self,
            SparseKind::GraphLapRls | SparseKind::GraphTvRls | SparseKind::GraphCheegerRls
        )
    }

    /// The default method name.
    pub fn label(&self) -> &'static str {
        match self {
            SparseKind::Laplace => "Laplace",
            SparseKind::Poisson => "Poisson",
            SparseKind::LabelSpreading => "Label spreading",
            SparseKind::LabelPropagation => "Label propagation",
            SparseKind::GraphLapRls => "Lap-RLS (nodes)",
            SparseKind::GraphTvRls => "TV-RLS (nodes)",
            SparseKind::GraphCheegerRls => "Cheeger-RLS (nodes)",
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
            SparseKind::GraphLapRls => &["eta", "lambda", "gamma", "tol", "iterations"],
            SparseKind::GraphTvRls => &["eta", "lambda", "gamma", "tol", "rof_iterations"],
            SparseKind::GraphCheegerRls => &["lambda", "c", "tol", "iterations", "rof_iterations"],
            _ => &["tol", "iterations"],
        }
    }
}

/// Unchecked parameters with each kind's defaults: GraphLearning's for Laplace (tol 10⁻⁵)
/// and Poisson (tol 10⁻³), both on its k = 10 Gaussian graph; scikit-learn's for label
/// spreading (α = 0.2, 30 steps) and propagation (1,000 steps), both with tol 10⁻³ on its
/// `kernel="knn"` graph (n_neighbors = 7: k = 6, binary, not symmetrised). The node RLS
/// methods take the graph family's defaults (its k = 10 self-tuning union graph; η = c = 1,
/// λ = γ = 0.1, 30 Cheeger iterations, ROF gap 10⁻⁴ capped at 500 steps per solve; TV-RLS,
/// one cold ROF solve, 10,000 steps) and CG to 10⁻⁵ as Laplace learning.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SparseParams {
    pub kind: SparseKind,
    pub graph: KnnSpec,
    pub alpha: f64,
    /// CG tolerance (Laplace, Poisson, Lap-RLS), change tolerance (spreading, propagation)
    /// or relative ROF gap (TV-RLS, Cheeger-RLS).
    pub tol: f64,
    /// The `iterations` key: the CG cap, the steps of spreading and propagation, or the
    /// Cheeger iterations.
    pub max_iter: usize,
    pub eta: f64,
    pub lambda: f64,
    pub gamma: f64,
    pub c: f64,
    /// Steps of each ROF solve at most (`rof_iterations`).
    pub rof_iterations: usize,
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
        let paper = KnnSpec {
            k: 10,
            weights: KnnWeights::SelfTuning,
            symmetrise: Symmetrise::Max,
            search: Search::Auto,
        };
        let (graph, tol, max_iter) = match kind {
            SparseKind::Laplace => (KnnSpec::default(), 1e-5, 100_000),
            SparseKind::Poisson => (KnnSpec::default(), 1e-3, 100_000),
            SparseKind::LabelSpreading => (sklearn, 1e-3, 30),
            SparseKind::LabelPropagation => (sklearn, 1e-3, 1000),
            SparseKind::GraphLapRls => (paper, 1e-5, 100_000),
            SparseKind::GraphTvRls | SparseKind::GraphCheegerRls => (paper, 1e-4, 30),
        };
        let rof_iterations = if kind == SparseKind::GraphTvRls { 10_000 } else { 500 };
        let (eta, lambda, gamma, c, alpha) = (1.0, 0.1, 0.1, 1.0, 0.2);
        SparseParams { kind, graph, alpha, tol, max_iter, eta, lambda, gamma, c, rof_iterations }
    }

    /// Range checks: 0 < α < 1, tol > 0, a symmetric graph for Laplace, Poisson and the node
    /// RLS methods; for these, η, λ, c finite and > 0, γ finite and ≥ 0, iteration counts ≥ 1.
    pub fn check(self) -> Result<SparseGraphMethod> {
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err(Error::param("alpha", format!("must be in (0, 1), got {}", self.alpha)));
        }
        if !(self.tol > 0.0 && self.tol.is_finite()) {
            return Err(Error::param("tol", format!("must be > 0, got {}", self.tol)));
        }
        if self.kind.on_nodes() {
            self.check_rls()?;
        }
        let symmetric_only =
            self.kind.on_nodes() || matches!(self.kind, SparseKind::Laplace | SparseKind::Poisson);
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

    fn check_rls(&self) -> Result<()> {
        for (name, v) in [("eta", self.eta), ("lambda", self.lambda), ("c", self.c)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(Error::param(name, format!("must be finite and > 0, got {v}")));
            }
        }
        if !(self.gamma.is_finite() && self.gamma >= 0.0) {
            let got = self.gamma;
            return Err(Error::param("gamma", format!("must be finite and ≥ 0, got {got}")));
        }
        for (name, v) in [("iterations", self.max_iter), ("rof_iterations", self.rof_iterations)] {
            if v == 0 {
                return Err(Error::param(name, "must be ≥ 1"));
            }
        }
        Ok(())
    }

    /// The weights η, λ, γ of Lap-RLS and TV-RLS on the nodes.
    pub fn rls_weights(&self) -> RlsWeights {
        RlsWeights { eta: self.eta, lambda: self.lambda, gamma: self.gamma }
    }

    /// The settings of each ROF solve (TV-RLS, Cheeger-RLS).
    pub fn rof_settings(&self) -> RofSettings {
        RofSettings { tol: self.tol, max_iter: self.rof_iterations }
    }

    /// The settings of Cheeger-RLS on the nodes.
    pub fn cheeger_settings(&self) -> CheegerSettings {
        let (lambda, c, iterations) = (self.lambda, self.c, self.max_iter);
        CheegerSettings { lambda, c, iterations, rof: self.rof_settings() }
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
        if !self.kind.on_nodes() {
            let (tol, iterations) = (self.tol, self.max_iter);
            let mut s = format!("{} tol={tol} iterations={iterations}", self.graph.describe());
            if self.kind == SparseKind::LabelSpreading {
                s.push_str(&format!(" alpha={}", self.alpha));
            }
            return s;
        }
        let mut s = self.graph.describe();
        for &key in self.kind.parameters() {
            let value = match key {
                "eta" => self.eta.to_string(),
                "lambda" => self.lambda.to_string(),
                "gamma" => self.gamma.to_string(),
                "c" => self.c.to_string(),
                "tol" => self.tol.to_string(),
                "iterations" => self.max_iter.to_string(),
                _ => self.rof_iterations.to_string(),
            };
            s.push_str(&format!(" {key}={value}"));
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
    /// A graph the caller gives (a scipy.sparse matrix from Python), one node per row of
    /// its arrays ([`Split::rows`](crate::engine::Split::rows): each row's node).
    Given(Arc<Graph>),
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
