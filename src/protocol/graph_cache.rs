//! The graph methods on file datasets. Kernel, kNN graph and label-independent smoothers
//! depend only on the points, so when every split uses all of a dataset's points (the TV
//! paper's transductive protocol, `unlabeled = "rest"`, official splits) they are computed
//! once per dataset and setting and permuted for each split; other splits get their own.
//! Binary datasets are scored by sign, multi-class ones by the argmax of the class scores.

use std::sync::{Arc, OnceLock};

use ndarray::Axis;

use super::runner::Evaluation;
use crate::config::{DataSource, Experiment, LoadedData};
use crate::data::error_rate;
use crate::data::split::Split;
use crate::error::{Error, Result};
use crate::methods::Method;
use crate::methods::graph::{GraphMethod, Prepared, argmax_rows};
use crate::stats::prbep;

/// Kernel and graph settings that share one [`Prepared`].
type Setting = (f64, usize, &'static str);

fn setting(g: &GraphMethod) -> Setting {
    let p = g.params();
    (p.kernel.scale, p.graph.k, p.graph.weighting.name())
}

/// One dataset and setting: the points' kernel, graph and smoothers, built on first use.
struct Entry {
    data: Arc<LoadedData>,
    setting: Setting,
    base: OnceLock<std::result::Result<Prepared, String>>,
}

/// Shared kernels and graphs of every (file dataset, graph setting) of an experiment.
pub(super) struct GraphCache<'a> {
    exp: &'a Experiment,
    entries: Vec<Entry>,
}

impl<'a> GraphCache<'a> {
    /// One entry per distinct loaded dataset (entries reading the same rows share it) and
    /// kernel/graph setting of the experiment's graph methods; nothing is computed yet.
    pub(super) fn new(exp: &'a Experiment) -> Self {
        let mut entries: Vec<Entry> = Vec::new();
        for spec in &exp.datasets {
            let DataSource::Loaded(data) = &spec.source else { continue };
            for g in exp.methods.iter().filter_map(|m| graph(&m.method)) {
                let s = setting(g);
                if !entries.iter().any(|e| Arc::ptr_eq(&e.data, data) && e.setting == s) {
                    entries.push(Entry { data: data.clone(), setting: s, base: OnceLock::new() });
                }
            }
        }
        GraphCache { exp, entries }
    }

    /// The base of `method` on `data`: computed by the first split that needs it.
    fn base(&self, data: &Arc<LoadedData>, method: &GraphMethod) -> Result<&Prepared> {
        let s = setting(method);
        let entry = self
            .entries
            .iter()
            .find(|e| Arc::ptr_eq(&e.data, data) && e.setting == s)
            .ok_or_else(|| Error::Data("graph cache: no entry for this dataset and setting".into()))?;
        let built = entry.base.get_or_init(|| {
            let p = method.params();
            let x = data.dataset.x.to_dense();
            let mut base = Prepared::from_rows(x.view(), Vec::new(), &p.kernel, Some(&p.graph)).map_err(|e| e.to_string())?;
            let multiclass = data.dataset.n_classes() > 2;
            for g in self.exp.methods.iter().filter_map(|m| graph(&m.method)).filter(|g| setting(g) == s) {
                if let Some((l, r, gamma)) = g.smoother_key(multiclass) {
                    base.cache_smoother(l, r, gamma).map_err(|e| e.to_string())?;
                }
            }
            Ok(base)
        });
        built.as_ref().map_err(|e| Error::Data(e.clone()))
    }
}

/// The graph method of a config method, if it is one.
pub(super) fn graph(m: &Method) -> Option<&GraphMethod> {
    match m {
        Method::Graph(g) => Some(g),
        _ => None,
    }
}

/// One split of a file dataset as the graph methods see it: the points reordered labeled
/// first, their class ids, and the prepared kernels per setting (made on first use).
pub(super) struct GraphSplit<'c> {
    cache: &'c GraphCache<'c>,
    data: Arc<LoadedData>,
    order: Vec<usize>,
    classes: Vec<usize>,
    n_labeled: usize,
    dim: usize,
    covers_all: bool,
    prepared: Vec<(Setting, Prepared)>,
}

impl<'c> GraphSplit<'c> {
    pub(super) fn new(cache: &'c GraphCache<'c>, data: &Arc<LoadedData>, split: &Split) -> Self {
        let order: Vec<usize> = split.labeled.iter().chain(&split.unlabeled).copied().collect();
        let classes = order.iter().map(|&i| data.dataset.classes[i]).collect();
        GraphSplit {
            cache,
            data: data.clone(),
            covers_all: order.len() == data.dataset.len(),
            order,
            classes,
            n_labeled: split.labeled.len(),
            dim: data.dataset.dim(),
            prepared: Vec::new(),
        }
    }

    /// (labeled, unlabeled, dimension) of the split.
    pub(super) fn sizes(&self) -> (usize, usize, usize) {
        (self.n_labeled, self.order.len() - self.n_labeled, self.dim)
    }

    /// Runs `method` on this split: error on the unlabeled points (and PRBEP when binary).
    pub(super) fn evaluate(&mut self, method: &GraphMethod) -> Result<Evaluation> {
        let n_classes = self.data.dataset.n_classes();
        let i = self.prepared(method)?;
        let (prep, nl) = (&self.prepared[i].1, self.n_labeled);
        let (error, prbep) = if n_classes == 2 {
            let f = method.fit_prepared(prep)?;
            let y_u = self.data.dataset.y.select(Axis(0), &self.order[nl..]);
            let scores = ndarray::ArrayView1::from(&f[nl..]);
            (error_rate(scores, y_u.view()), prbep(scores, y_u.view()))
        } else {
            let scores = method.fit_multiclass(prep, &self.classes[..nl], n_classes)?;
            let truth = &self.classes[nl..];
            let wrong = argmax_rows(&scores)[nl..].iter().zip(truth).filter(|(p, t)| p != t).count();
            (wrong as f64 / truth.len().max(1) as f64, f64::NAN)
        };
        Ok(Evaluation { error, prbep, alpha_l: None, alpha_u: None, lambda: method.params().lambda })
    }

    /// The index in `self.prepared` of the kernel and graph of `method`'s setting for
    /// this split, made on first use.
    fn prepared(&mut self, method: &GraphMethod) -> Result<usize> {
        let s = setting(method);
        if let Some(i) = self.prepared.iter().position(|(k, _)| *k == s) {
            return Ok(i);
        }
        let d = &self.data.dataset;
        let labels: Vec<f64> = self.order[..self.n_labeled]
            .iter()
            .map(|&i| if d.n_classes() == 2 { d.y[i] } else { d.classes[i] as f64 })
            .collect();
        let prep = if self.covers_all {
            self.cache.base(&self.data, method)?.reorder(&self.order, labels)?
        } else {
            let p = method.params();
            let x = d.x.select_rows(&self.order).to_dense().into_owned();
            Prepared::from_rows(x.view(), labels, &p.kernel, p.kind.uses_graph().then_some(&p.graph))?
        };
        self.prepared.push((s, prep));
        Ok(self.prepared.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use crate::config::{DataSource, parse};
    use crate::data::error_rate;
    use crate::methods::graph::{Prepared, argmax_rows};
    use crate::protocol::{RunOptions, run, split_problem};

    use super::graph;

    /// Runs a config on a 3-class file (labels 1, 2, 3 in three clusters, 12 rows each).
    fn run_on_clusters(tag: &str, classes: &str, methods: &str) -> (crate::config::Experiment, Vec<crate::protocol::ResultRow>) {
        let dir = std::env::temp_dir().join(format!("sslab-graph-cache-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data: String = (0..36).map(|i| format!("{} 1:{} 2:{}\n", i % 3 + 1, (i % 3) as f64 * 3.0 + (i as f64 * 0.37).sin(), (i as f64 * 0.71).cos())).collect();
        std::fs::write(dir.join("d.svm"), data).unwrap();
        let src = format!(
            "[experiment]\nname = \"g\"\nseed = 3\nsplits = 2\n\n[[datasets]]\nname = \"d\"\nkind = \"svmlight\"\npath = \"{}\"\n{classes}\nlabeled_per_class = 2\nunlabeled = \"rest\"\n\n{methods}",
            dir.join("d.svm").display()
        );
        let exp = parse(&src, &dir.join("c.toml")).unwrap();
        let rows = run(&exp, &RunOptions::default(), &dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        (exp, rows)
    }

    const METHODS: &str = "[[methods]]\nkind = \"lap_rls\"\nk = 4\n\n[[methods]]\nkind = \"cheeger_rls\"\nk = 4\niterations = 3\n";

    #[test]
    fn shared_kernels_give_the_per_split_results_binary() {
        let (exp, rows) = run_on_clusters("bin", "classes = [1, 3]", METHODS);
        assert_eq!(rows.len(), 4);
        for r in &rows {
            let m = exp.methods.iter().find(|m| m.name == r.method).unwrap();
            let g = graph(&m.method).unwrap();
            let p = split_problem(&exp.datasets[0], exp.seed, r.split).unwrap();
            let direct = error_rate(g.fit(&p).unwrap().unlabeled_scores().view(), p.y_u.view());
            assert_eq!((r.status.as_str(), r.n_labeled, r.n_unlabeled), ("ok", 4, 20));
            assert!((r.error - direct).abs() < 1e-12, "{}: {} vs {direct}", r.method, r.error);
            assert!(r.params.contains("k=4"), "{}", r.params);
        }
    }

    #[test]
    fn multiclass_rows_score_the_argmax() {
        let (exp, rows) = run_on_clusters("multi", "", METHODS);
        let DataSource::Loaded(data) = &exp.datasets[0].source else { panic!("not loaded") };
        for r in &rows {
            let m = exp.methods.iter().find(|m| m.name == r.method).unwrap();
            let g = graph(&m.method).unwrap();
            // Independent route: this split's rows stacked labeled first, kernel and graph
            // built from them directly (no shared base, no permutation).
            let p = split_problem(&exp.datasets[0], exp.seed, r.split).unwrap();
            let x = ndarray::concatenate(ndarray::Axis(0), &[p.x_l.to_dense().view(), p.x_u.to_dense().view()]).unwrap();
            let classes: Vec<usize> = (0..x.nrows())
                .map(|i| (0..data.dataset.len()).find(|&j| data.dataset.x.to_dense().row(j) == x.row(i)).map(|j| data.dataset.classes[j]).unwrap())
                .collect();
            let labels: Vec<f64> = classes[..6].iter().map(|&c| c as f64).collect();
            let prep = Prepared::from_rows(x.view(), labels, &g.params().kernel, Some(&g.params().graph)).unwrap();
            let predicted = argmax_rows(&g.fit_multiclass(&prep, &classes[..6], 3).unwrap());
            let wrong = predicted[6..].iter().zip(&classes[6..]).filter(|(a, b)| a != b).count();
            assert_eq!((r.status.as_str(), r.n_labeled, r.n_unlabeled), ("ok", 6, 30), "{}", r.message);
            assert!((r.error - wrong as f64 / 30.0).abs() < 1e-12, "{}: {} vs {wrong}/30", r.method, r.error);
            assert!(r.prbep.is_nan());
        }
    }
}
