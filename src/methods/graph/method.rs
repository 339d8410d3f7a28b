//! The graph family's methods on a split. Kernel, kNN graph and label-independent smoothers
//! depend only on the points, so when a split uses all of a dataset's points (the TV
//! paper's transductive protocol, `unlabeled = "rest"`, official splits) they are computed
//! once per dataset and setting (in the dataset's store) and permuted for each split;
//! other splits get their own. The methods of one split share its kernel and graph.
//! Two classes are scored by sign, more by the per-class scores, after the method's
//! decision rule; methods of a split that differ only in that rule share one fit. A fit
//! with a kernel expansion ([`RawFit`], [`RawMulticlass`]) leaves a [`KernelExpansion`] model
//! with the rule's pointwise form, which scores the test rows; the unlabeled rows keep the
//! solve's scores (the model's equal them to rounding, binary TV's to the splitting's
//! convergence).

use std::sync::{Arc, Mutex, PoisonError};

use faer::Mat;
use ndarray::{Array1, Array2, Axis, concatenate};

use super::solvers::smoother::compute;
use super::{Decision, GraphKind, GraphMethod, Prepared, RawFit, RawMulticlass};
use crate::data::DataSource;
use crate::engine::{Fitted, KernelExpansion, Method, Model, Split};
use crate::error::{Error, Result};
use crate::linalg::to_array2;

impl Method for GraphMethod {
    fn params(&self) -> String {
        self.params().describe()
    }

    /// Kernel and graph (N²·d), N×N factorisations (N³) and the outer iterations (N² each);
    /// with m landmarks the kernel N·m·(d + m) and the iterations N·m.
    fn cost(&self, n: usize, dim: usize) -> f64 {
        let (n, d, it) = (n as f64, dim as f64, self.params().iterations as f64);
        match self.params().kernel.rank {
            Some(m) => n * n * d + n * (m as f64) * (d + m as f64 + it),
            None => n * n * (d + n + it),
        }
    }

    /// The dense rows, the N×N kernel, its permuted copy and a smoother (N×m factors with
    /// m landmarks).
    fn memory(&self, n: usize, dim: usize) -> f64 {
        let n = n as f64;
        let width = self.params().kernel.rank.map_or(n, |m| m.min(n as usize) as f64);
        8.0 * (n * dim as f64 + 3.0 * n * width)
    }

    /// The dataset's kernel and graph when a split uses all of its rows ([`shared_base`]).
    fn prepare(&self, split: &Split) -> Result<()> {
        shared_base(self, split).map(drop)
    }

    fn no_model(&self) -> Option<String> {
        let p = self.params();
        match p.kind {
            GraphKind::CheegerRls | GraphKind::CheegerSvm => {
                Some("its scores are a graph ROF solution, not a kernel expansion".into())
            }
            _ => None,
        }
    }

    fn fit(&self, split: &Split) -> Result<Fitted> {
        let problem = split.problem;
        let multiclass = problem.n_classes > 2;
        let base = shared_base(self, split)?;
        let prepared = prepared(self, split, base.clone())?;
        let mut prep = prepared.lock().unwrap_or_else(PoisonError::into_inner);
        if let (Some((base, rows)), Some(key)) = (base, self.smoother_key(multiclass))
            && prep.cached_smoother(key.0, key.1, key.2).is_none()
        {
            let name = format!("{} smoother {key:?}", setting(self));
            // On the run's threads: the other splits' tasks wait for it.
            let threads = rayon::current_num_threads();
            let m: Arc<Mat<f64>> =
                split.dataset_store.get(&name, || compute(&base, key.0, key.1, key.2, threads))?;
            prep.add_smoother(key, &m, rows);
        }
        let nl = prep.n_labeled;
        let lambda = self.params().lambda;
        // Methods of a split that differ only in their decision rule share the raw scores.
        let raw = {
            let mut p = *self.params();
            p.decision = Decision::Plain;
            format!("{} raw scores {}", p.kind.name(), p.describe())
        };
        let (mut fitted, expanded) = if multiclass {
            let s: Arc<RawMulticlass> = split
                .split_store
                .get(&raw, || self.fit_multiclass(&prep, &problem.classes_l, problem.n_classes))?;
            let f = s.scores.as_ref();
            let mut scores = to_array2(f.subrows(nl, f.nrows() - nl));
            let rule = self.params().decision.per_class(&mut scores, &problem.classes_l)?;
            let bias = Array1::zeros(f.ncols());
            let expanded = s.coef.as_ref().map(|a| (to_array2(a.as_ref()), bias, rule, false));
            (Fitted::per_class(scores), expanded)
        } else {
            let s: Arc<RawFit> = split.split_store.get(&raw, || self.fit_prepared(&prep))?;
            let mut scores = Array1::from(s.scores[nl..].to_vec());
            let rule = self.params().decision.binary(scores.view_mut(), &prep.y)?;
            let expanded = s.expansion.as_ref().map(|e| {
                let coef =
                    Array2::from_shape_vec((e.coef.len(), 1), e.coef.clone()).expect("n × 1");
                (coef, Array1::from_elem(1, e.bias), rule, e.landmarks)
            });
            (Fitted::binary(scores), expanded)
        };
        if let Some((coef, bias, rule, landmarks)) = expanded {
            // Over the Nyström landmarks, or the split's first rows (labeled first).
            let rows = match prep.gram.landmarks().filter(|_| landmarks) {
                Some(l) => l.rows.clone(),
                None => Arc::new(fit_rows(split, coef.nrows())?),
            };
            let model =
                Model::Kernel(KernelExpansion::new(rows, coef, bias, prep.gram.width, rule)?);
            fitted.test = split.test.map(|x| model.score(x)).transpose()?;
            fitted.model = Some(model);
        }
        Ok(fitted.labelled("lambda_policy", "fixed").with("lambda", lambda))
    }
}

/// The split's first `n` rows (labeled first).
fn fit_rows(split: &Split, n: usize) -> Result<Array2<f64>> {
    let problem = split.problem;
    let nl = problem.n_labeled().min(n);
    let rows = concatenate(
        Axis(0),
        &[
            problem.x_l.to_dense().slice(ndarray::s![..nl, ..]),
            problem.x_u.to_dense().slice(ndarray::s![..n - nl, ..]),
        ],
    )
    .map_err(|e| Error::Data(format!("labeled and unlabeled rows differ in width: {e}")))?;
    Ok(rows)
}

/// The kernel and graph settings that share one [`Prepared`].
fn setting(g: &GraphMethod) -> String {
    let p = g.params();
    format!(
        "graph kernel_scale={} kernel_rank={:?} k={} weighting={} normalized={}",
        p.kernel.scale,
        p.kernel.rank,
        p.graph.k,
        p.graph.weighting.name(),
        p.graph.normalized
    )
}

/// The dataset's kernel and graph (no labels, rows in file order) and the split's rows, when
/// the split uses all of them; computed by the first split that needs them.
fn shared_base<'s>(
    g: &GraphMethod,
    split: &Split<'s>,
) -> Result<Option<(Arc<Prepared>, &'s [usize])>> {
    let (Some(DataSource::Loaded(file)), Some(rows)) = (split.source, split.rows) else {
        return Ok(None);
    };
    let data = file.data()?;
    if rows.len() != data.dataset.len() {
        return Ok(None);
    }
    let p = g.params();
    let base = split.dataset_store.get(&format!("{} base", setting(g)), || {
        let x = data.dataset.x.to_dense();
        Prepared::from_rows(x.view(), Vec::new(), &p.kernel, Some(&p.graph))
    })?;
    Ok(Some((base, rows)))
}

/// This split's points (labeled first) with their kernel and graph, shared by the split's
/// methods of the same setting: the dataset's `base` permuted, or built from the split's rows.
fn prepared(
    g: &GraphMethod,
    split: &Split,
    base: Option<(Arc<Prepared>, &[usize])>,
) -> Result<Arc<Mutex<Prepared>>> {
    let p = g.params();
    let problem = split.problem;
    let labels: Vec<f64> = match problem.n_classes {
        2 => problem.y_l.to_vec(),
        _ => problem.classes_l.iter().map(|&c| c as f64).collect(),
    };
    // A split's own kernel has a graph only when its first method needs one.
    let uses_graph = p.kind.uses_graph();
    let key =
        if base.is_some() { setting(g) } else { format!("{} graph={uses_graph}", setting(g)) };
    split.split_store.get(&key, || {
        let prep = match base {
            Some((base, rows)) => base.reorder(rows, labels)?,
            None => {
                let x = concatenate(
                    Axis(0),
                    &[problem.x_l.to_dense().view(), problem.x_u.to_dense().view()],
                )
                .map_err(|e| {
                    Error::Data(format!("labeled and unlabeled rows differ in width: {e}"))
                })?;
                Prepared::from_rows(x.view(), labels, &p.kernel, uses_graph.then_some(&p.graph))?
            }
        };
        Ok(Mutex::new(prep))
    })
}
