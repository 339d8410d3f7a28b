//! The graph-only family's config: the four kinds of [`SparseKind`]; keys a method does not
//! read are errors, missing ones take the defaults of [`SparseParams::new`].

use super::{KnnWeights, SparseKind, SparseParams, Symmetrise};
use crate::engine::{Checked, Entry, Family};
use crate::error::Result;

/// Laplace and Poisson learning, label spreading and propagation on a sparse kNN graph.
pub struct SparseGraphFamily;

impl Family for SparseGraphFamily {
    fn kinds(&self) -> &'static [&'static str] {
        &["laplace", "poisson", "label_spreading", "label_propagation"]
    }

    fn multiclass_kinds(&self) -> &'static [&'static str] {
        self.kinds()
    }

    fn check(&self, m: &Entry) -> Result<Checked> {
        let kind = SparseKind::from_name(m.kind())
            .ok_or_else(|| m.error("kind", "not a graph-only method"))?;
        let mut allowed = kind.parameters().to_vec();
        allowed.extend(["k", "weighting", "symmetrise"]);
        m.only(&allowed)?;
        let mut p = SparseParams::new(kind);
        p.graph.k = m.count("k")?.unwrap_or(p.graph.k);
        if let Some(w) = m.string("weighting")? {
            p.graph.weights =
                KnnWeights::ALL.into_iter().find(|x| x.name() == w).ok_or_else(|| {
                    m.error("weighting", "expected \"knn_gaussian\", \"self_tuning\" or \"binary\"")
                })?;
        }
        if let Some(s) = m.string("symmetrise")? {
            p.graph.symmetrise =
                Symmetrise::ALL.into_iter().find(|x| x.name() == s).ok_or_else(|| {
                    m.error("symmetrise", "expected \"mean\", \"max\", \"mutual\" or \"none\"")
                })?;
        }
        p.alpha = m.f64("alpha")?.unwrap_or(p.alpha);
        p.tol = m.f64("tol")?.unwrap_or(p.tol);
        p.max_iter = m.count("iterations")?.unwrap_or(p.max_iter);
        let method = p.check().map_err(|e| m.param_error(e, "kind"))?;
        Ok(Checked::new(kind.label(), method))
    }
}
