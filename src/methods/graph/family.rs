//! The graph family's config: the eight kinds of [`GraphKind`]; keys a method does not read
//! are errors, missing ones take the defaults of [`GraphParams::new`].

use toml::Value;

use super::{Decision, GraphKind, GraphParams, Weighting};
use crate::engine::{Checked, Entry, Family};
use crate::error::Result;

/// RLS, SVM and their Laplacian, TV and Cheeger versions.
pub struct GraphFamily;

impl Family for GraphFamily {
    fn kinds(&self) -> &'static [&'static str] {
        &["rls", "svm", "lap_rls", "lap_svm", "tv_rls", "tv_svm", "cheeger_rls", "cheeger_svm"]
    }

    fn multiclass_kinds(&self) -> &'static [&'static str] {
        &["lap_rls", "lap_svm", "tv_rls", "tv_svm", "cheeger_rls", "cheeger_svm"]
    }

    fn check(&self, m: &Entry) -> Result<Checked> {
        let kind =
            GraphKind::from_name(m.kind()).ok_or_else(|| m.error("kind", "not a graph method"))?;
        let mut allowed = kind.parameters().to_vec();
        allowed.extend(["kernel_scale", "kernel_rank", "lambda", "decision"]);
        if kind.uses_graph() {
            allowed.extend(["k", "weighting"]);
        }
        if matches!(kind, GraphKind::TvRls | GraphKind::TvSvm) {
            allowed.extend(["tv_norm", "tv_project"]);
        }
        if matches!(kind, GraphKind::LapRls | GraphKind::LapSvm) {
            allowed.push("laplacian");
        }
        m.only(&allowed)?;
        let mut p = GraphParams::new(kind);
        for (key, value) in [
            ("eta", &mut p.eta),
            ("gamma", &mut p.gamma),
            ("mu", &mut p.mu),
            ("r1", &mut p.r1),
            ("r2", &mut p.r2),
            ("c", &mut p.c),
            ("kernel_scale", &mut p.kernel.scale),
        ] {
            if let Some(v) = m.f64(key)? {
                *value = v;
            }
        }
        if let Some(l) = m.value("lambda") {
            p.lambda = match l {
                Value::Float(x) => *x,
                Value::Integer(x) => *x as f64,
                _ => return Err(m.error("lambda", "expected a number")),
            };
        }
        p.iterations = m.count("iterations")?.unwrap_or(p.iterations);
        p.rof.max_iter = m.count("rof_iterations")?.unwrap_or(p.rof.max_iter);
        p.graph.k = m.count("k")?.unwrap_or(p.graph.k);
        p.kernel.rank = m.count("kernel_rank")?;
        if let Some(w) = m.string("weighting")? {
            p.graph.weighting = [Weighting::SelfTuning, Weighting::Gaussian, Weighting::Binary]
                .into_iter()
                .find(|x| x.name() == w)
                .ok_or_else(|| {
                    m.error("weighting", "expected \"self_tuning\", \"gaussian\" or \"binary\"")
                })?;
        }
        if let Some(l) = m.string("laplacian")? {
            p.graph.normalized = match l.as_str() {
                "unnormalized" => false,
                "symmetric" => true,
                _ => return Err(m.error(
                    "laplacian",
                    "expected \"unnormalized\" (D − W) or \"symmetric\" (I − D^{-1/2} W D^{-1/2})",
                )),
            };
        }
        if let Some(d) = m.string("decision")? {
            p.decision = Decision::ALL.into_iter().find(|x| x.name() == d).ok_or_else(|| {
                m.error(
                    "decision",
                    "expected \"plain\", \"class_mass\", \"balance\" or \"zero_mean\"",
                )
            })?;
        }
        let choice = |key: &str, default: &str, other: &str| -> Result<bool> {
            match m.string(key)? {
                None => Ok(false),
                Some(v) if v == default => Ok(false),
                Some(v) if v == other => Ok(true),
                Some(_) => Err(m.error(key, format!("expected \"{default}\" or \"{other}\""))),
            }
        };
        p.tv_norm_n = choice("tv_norm", "sqrt_n", "n")?;
        p.tv_project_all = choice("tv_project", "g", "fhg")?;
        let method = p.check().map_err(|e| m.param_error(e, "kind"))?;
        Ok(Checked::new(kind.label(), method))
    }
}
