//! The graph-only family's config: the seven kinds of [`SparseKind`]; keys a method does not
//! read are errors, missing ones take the defaults of [`SparseParams::new`].

use std::sync::Arc;

use super::{Graph, GraphSource, KnnWeights, Search, SparseKind, SparseParams, Symmetrise};
use crate::engine::{Checked, Entry, Family};
use crate::error::Result;

/// Laplace and Poisson learning, label spreading and propagation, and Lap-RLS, TV-RLS and
/// Cheeger-RLS with the function on the nodes, on a sparse kNN graph.
pub struct SparseGraphFamily;

impl Family for SparseGraphFamily {
    fn kinds(&self) -> &'static [&'static str] {
        &[
            "laplace",
            "poisson",
            "label_spreading",
            "label_propagation",
            "graph_lap_rls",
            "graph_tv_rls",
            "graph_cheeger_rls",
        ]
    }

    fn multiclass_kinds(&self) -> &'static [&'static str] {
        self.kinds()
    }

    fn check(&self, m: &Entry) -> Result<Checked> {
        check(m, None)
    }
}

/// Builds a graph given by the caller under the table's symmetrisation rule.
pub type BuildGraph<'b> = &'b dyn Fn(Symmetrise) -> Result<Graph>;

impl SparseGraphFamily {
    /// [`Family::check`] of a table whose graph the caller gives (a scipy.sparse matrix from
    /// Python), as a graph file is given: `graph(rule)` builds it under the table's
    /// `symmetrise` (`max` unless set: a symmetric matrix stays as it is); kNN keys and a
    /// `graph` file are errors.
    pub fn check_given(&self, m: &Entry, graph: BuildGraph) -> Result<Checked> {
        check(m, Some(graph))
    }
}

/// The table `m`, its graph built by `given` when the caller gives one.
fn check(m: &Entry, given: Option<BuildGraph>) -> Result<Checked> {
    let kind = SparseKind::from_name(m.kind())
        .ok_or_else(|| m.error("kind", "not a graph-only method"))?;
    let mut allowed = kind.parameters().to_vec();
    allowed.extend(["k", "weighting", "symmetrise", "search", "graph"]);
    m.only(&allowed)?;
    let mut p = SparseParams::new(kind);
    p.graph.k = m.count("k")?.unwrap_or(p.graph.k);
    if let Some(w) = m.string("weighting")? {
        p.graph.weights = KnnWeights::ALL.into_iter().find(|x| x.name() == w).ok_or_else(|| {
            m.error("weighting", "expected \"knn_gaussian\", \"self_tuning\" or \"binary\"")
        })?;
    }
    if let Some(s) = m.string("symmetrise")? {
        p.graph.symmetrise =
            Symmetrise::ALL.into_iter().find(|x| x.name() == s).ok_or_else(|| {
                m.error("symmetrise", "expected \"mean\", \"max\", \"mutual\" or \"none\"")
            })?;
    }
    if let Some(s) = m.string("search")? {
        p.graph.search = Search::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| m.error("search", "expected \"auto\", \"exact\" or \"nn_descent\""))?;
    }
    p.alpha = m.f64("alpha")?.unwrap_or(p.alpha);
    p.tol = m.f64("tol")?.unwrap_or(p.tol);
    p.max_iter = m.count("iterations")?.unwrap_or(p.max_iter);
    p.eta = m.f64("eta")?.unwrap_or(p.eta);
    p.lambda = m.f64("lambda")?.unwrap_or(p.lambda);
    p.gamma = m.f64("gamma")?.unwrap_or(p.gamma);
    p.c = m.f64("c")?.unwrap_or(p.c);
    p.rof_iterations = m.count("rof_iterations")?.unwrap_or(p.rof_iterations);
    let base = m.base();
    let written = m.string("graph")?;
    if written.is_some() || given.is_some() {
        let why = match given {
            Some(_) => "describes a kNN graph, but the graph is given",
            None => "describes a kNN graph, but `graph` gives the graph",
        };
        if let Some(key) = m.first_of(&["k", "weighting", "search"]) {
            return Err(m.error(key, why));
        }
        // A given matrix is kept as it is (a symmetric one) unless told otherwise.
        if !m.has("symmetrise") {
            p.graph.symmetrise = Symmetrise::Max;
        }
    }
    let file = match written {
        Some(_) if given.is_some() => return Err(m.error("graph", "the graph is given already")),
        Some(written) => {
            let path = base.resolve(&written);
            if !path.is_file() {
                let note = base.relative_note(&written);
                return Err(m.error("graph", format!("no file {}{note}", path.display())));
            }
            Some(path)
        }
        None => None,
    };
    let method = p.check().map_err(|e| m.param_error(e, "kind"))?;
    let source = match (file, given) {
        (Some(path), _) => GraphSource::File(path),
        (None, Some(build)) => {
            GraphSource::Given(Arc::new(build(method.params().graph.symmetrise)?))
        }
        (None, None) => GraphSource::Knn { cache: Some(base.data_dir.join("graphs")) },
    };
    Ok(Checked::new(kind.label(), method.with_source(source)))
}
