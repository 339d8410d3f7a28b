//! Parameters of the graph and kernel methods, validated once into [`GraphMethod`].

use super::{Decision, KnnGraph, QpSettings, RbfKernel, RofSettings};
use crate::error::{Error, Result};

/// The eight binary methods of the paper (§2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GraphKind {
    Rls,
    Svm,
    LapRls,
    LapSvm,
    TvRls,
    TvSvm,
    CheegerRls,
    CheegerSvm,
}

impl GraphKind {
    /// Every kind, in the paper's order.
    pub const ALL: [GraphKind; 8] = [
        GraphKind::Rls,
        GraphKind::Svm,
        GraphKind::LapRls,
        GraphKind::LapSvm,
        GraphKind::TvRls,
        GraphKind::TvSvm,
        GraphKind::CheegerRls,
        GraphKind::CheegerSvm,
    ];

    /// The config spelling (`rls`, `svm`, `lap_rls`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            GraphKind::Rls => "rls",
            GraphKind::Svm => "svm",
            GraphKind::LapRls => "lap_rls",
            GraphKind::LapSvm => "lap_svm",
            GraphKind::TvRls => "tv_rls",
            GraphKind::TvSvm => "tv_svm",
            GraphKind::CheegerRls => "cheeger_rls",
            GraphKind::CheegerSvm => "cheeger_svm",
        }
    }

    /// The paper's name (`RLS`, `Lap-RLS`, ...), the default method name.
    pub fn label(&self) -> &'static str {
        match self {
            GraphKind::Rls => "RLS",
            GraphKind::Svm => "SVM",
            GraphKind::LapRls => "Lap-RLS",
            GraphKind::LapSvm => "Lap-SVM",
            GraphKind::TvRls => "TV-RLS",
            GraphKind::TvSvm => "TV-SVM",
            GraphKind::CheegerRls => "Cheeger-RLS",
            GraphKind::CheegerSvm => "Cheeger-SVM",
        }
    }

    /// The kind of a config spelling.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether the method has a low-rank (Nyström) form, `kernel_rank`: the RLS ones.
    pub fn low_rank(&self) -> bool {
        matches!(
            self,
            GraphKind::Rls | GraphKind::LapRls | GraphKind::TvRls | GraphKind::CheegerRls
        )
    }

    /// Whether the method uses the kNN graph (all but the supervised baselines).
    pub fn uses_graph(&self) -> bool {
        !matches!(self, GraphKind::Rls | GraphKind::Svm)
    }

    /// The numeric parameters the method reads (config keys); the kernel width scale and
    /// `decision` are read by all, `k` and `weighting` by those that use the graph.
    pub fn parameters(&self) -> &'static [&'static str] {
        match self {
            GraphKind::Rls => &["eta", "lambda"],
            GraphKind::Svm => &["lambda", "mu"],
            GraphKind::LapRls => &["eta", "lambda", "gamma"],
            GraphKind::LapSvm => &["lambda", "gamma", "mu"],
            GraphKind::TvRls => {
                &["eta", "lambda", "gamma", "r1", "r2", "iterations", "rof_iterations"]
            }
            GraphKind::TvSvm => {
                &["lambda", "gamma", "mu", "r1", "r2", "iterations", "rof_iterations"]
            }
            GraphKind::CheegerRls => &["lambda", "r1", "c", "iterations", "rof_iterations"],
            GraphKind::CheegerSvm => &["lambda", "mu", "r1", "c", "iterations", "rof_iterations"],
        }
    }
}

/// Unchecked parameters (names as in the paper: η, λ, γ, μ the SVM box bound, r1 and r2
/// the augmented-Lagrangian weights, c the Cheeger step; r1 is the r of the Cheeger
/// RLS/SVM sub-problems).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GraphParams {
    pub kind: GraphKind,
    pub graph: KnnGraph,
    pub kernel: RbfKernel,
    pub eta: f64,
    pub lambda: f64,
    pub gamma: f64,
    pub mu: f64,
    pub r1: f64,
    pub r2: f64,
    pub c: f64,
    /// Outer iterations of the TV and Cheeger schemes.
    pub iterations: usize,
    pub rof: RofSettings,
    pub qp: QpSettings,
    /// How the unlabeled scores become predictions (default: sign or argmax as they are).
    pub decision: Decision,
    /// Binary TV only: the norm each projected function is rescaled to, √N (default,
    /// unit RMS) or N as eq. 26 prints.
    pub tv_norm_n: bool,
    /// Binary TV only: project f and h as well as g (norm and zero mean), as the text
    /// before eq. 21 says ("each function f, h, g"); default g only, as eqs. 21–27.
    pub tv_project_all: bool,
}

impl GraphParams {
    /// Defaults: k = 10 self-tuning graph, median-width kernel, η = μ = r1 = r2 = c = 1,
    /// λ = 0.1, γ = 0.1, 30 outer iterations, ROF capped at 500 steps.
    pub fn new(kind: GraphKind) -> Self {
        GraphParams {
            kind,
            graph: KnnGraph::default(),
            kernel: RbfKernel::default(),
            eta: 1.0,
            lambda: 0.1,
            gamma: 0.1,
            mu: 1.0,
            r1: 1.0,
            r2: 1.0,
            c: 1.0,
            iterations: 30,
            rof: RofSettings::default(),
            qp: QpSettings::default(),
            decision: Decision::Plain,
            tv_norm_n: false,
            tv_project_all: false,
        }
    }

    /// The parameters the method reads as `key=value` pairs (config spelling), for result rows.
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = self
            .kind
            .parameters()
            .iter()
            .map(|&name| {
                let value = match name {
                    "eta" => self.eta.to_string(),
                    "lambda" => self.lambda.to_string(),
                    "gamma" => self.gamma.to_string(),
                    "mu" => self.mu.to_string(),
                    "r1" => self.r1.to_string(),
                    "r2" => self.r2.to_string(),
                    "c" => self.c.to_string(),
                    "iterations" => self.iterations.to_string(),
                    _ => self.rof.max_iter.to_string(),
                };
                format!("{name}={value}")
            })
            .collect();
        parts.push(format!("kernel_scale={}", self.kernel.scale));
        if let Some(m) = self.kernel.rank {
            parts.push(format!("kernel_rank={m}"));
        }
        if self.kind.uses_graph() {
            parts.push(format!("k={} weighting={}", self.graph.k, self.graph.weighting.name()));
            if self.graph.normalized {
                parts.push("laplacian=symmetric".into());
            }
        }
        if self.decision != Decision::Plain {
            parts.push(format!("decision={}", self.decision.name()));
        }
        if self.tv_norm_n {
            parts.push("tv_norm=n".into());
        }
        if self.tv_project_all {
            parts.push("tv_project=fhg".into());
        }
        parts.join(" ")
    }

    /// Validates: real parameters finite and > 0 (γ ≥ 0), k ≥ 1, iteration counts ≥ 1,
    /// `kernel_rank` ≥ 1 and only on the methods with a low-rank form.
    pub fn check(self) -> Result<GraphMethod> {
        match self.kernel.rank {
            Some(0) => return Err(Error::param("kernel_rank", "must be ≥ 1")),
            Some(_) if !self.kind.low_rank() => {
                return Err(Error::param(
                    "kernel_rank",
                    format!(
                        "`{}` has no low-rank form (it keeps the dense kernel); kernel_rank is \
                         an option of rls, lap_rls, tv_rls and cheeger_rls",
                        self.kind.name()
                    ),
                ));
            }
            _ => {}
        }
        let reals = [
            ("eta", self.eta),
            ("lambda", self.lambda),
            ("mu", self.mu),
            ("r1", self.r1),
            ("r2", self.r2),
            ("c", self.c),
            ("kernel_scale", self.kernel.scale),
        ];
        for (name, v) in reals {
            if !(v.is_finite() && v > 0.0) {
                return Err(Error::param(name, format!("must be finite and > 0, got {v}")));
            }
        }
        if !(self.gamma.is_finite() && self.gamma >= 0.0) {
            return Err(Error::param(
                "gamma",
                format!("must be finite and ≥ 0, got {}", self.gamma),
            ));
        }
        for (name, v) in [
            ("k", self.graph.k),
            ("iterations", self.iterations),
            ("rof_iterations", self.rof.max_iter),
        ] {
            if v == 0 {
                return Err(Error::param(name, "must be ≥ 1"));
            }
        }
        Ok(GraphMethod { params: self })
    }
}

/// A checked graph or kernel method: build with [`GraphParams::check`], then `fit`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GraphMethod {
    params: GraphParams,
}

impl GraphMethod {
    /// The validated parameters.
    pub fn params(&self) -> &GraphParams {
        &self.params
    }

    /// The (λ, r, γ) of the label-independent smoother K(λI + rK + γLK)⁻¹ the method uses,
    /// binary or multi-class, to share through [`Prepared::add_smoother`](super::Prepared::add_smoother);
    /// none with a low-rank kernel (its r × r systems are factored by each fit).
    pub fn smoother_key(&self, multiclass: bool) -> Option<(f64, f64, f64)> {
        let p = &self.params;
        if p.kernel.rank.is_some() {
            return None;
        }
        match p.kind {
            GraphKind::CheegerRls | GraphKind::CheegerSvm => Some((p.lambda, p.r1, 0.0)),
            GraphKind::TvRls | GraphKind::TvSvm => Some((p.lambda, p.r1, 0.0)),
            GraphKind::LapRls | GraphKind::LapSvm if multiclass => Some((p.lambda, p.r1, p.gamma)),
            GraphKind::LapRls | GraphKind::LapSvm => Some((p.lambda, 0.0, p.gamma)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_checks() {
        for k in GraphKind::ALL {
            assert_eq!(GraphKind::from_name(k.name()), Some(k));
            assert_eq!(
                GraphParams::new(k).describe().matches('=').count(),
                k.parameters().len() + if k.uses_graph() { 3 } else { 1 }
            );
            assert!(GraphParams::new(k).check().is_ok());
        }
        let mut p = GraphParams::new(GraphKind::TvSvm);
        p.r2 = 0.0;
        assert!(matches!(p.check(), Err(Error::Param { param: "r2", .. })));
        let mut p = GraphParams::new(GraphKind::LapRls);
        assert_eq!(
            p.describe(),
            "eta=1 lambda=0.1 gamma=0.1 kernel_scale=1 k=10 weighting=self_tuning"
        );
        p.graph.k = 0;
        assert!(matches!(p.check(), Err(Error::Param { param: "k", .. })));
    }

    #[test]
    fn kernel_rank_only_on_the_rls_methods() {
        for kind in GraphKind::ALL {
            let mut p = GraphParams::new(kind);
            p.kernel.rank = Some(50);
            let checked = p.check();
            assert_eq!(checked.is_ok(), kind.low_rank(), "{}", kind.name());
            if let Err(e) = checked {
                assert!(matches!(e, Error::Param { param: "kernel_rank", .. }));
                assert!(e.to_string().contains(kind.name()), "{e}");
            } else {
                assert!(p.describe().contains("kernel_rank=50"));
                assert_eq!(checked.unwrap().smoother_key(false), None);
            }
            p.kernel.rank = Some(0);
            assert!(matches!(p.check(), Err(Error::Param { param: "kernel_rank", .. })));
        }
    }
}
