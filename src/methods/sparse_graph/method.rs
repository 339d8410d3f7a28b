//! The graph-only methods on a split. When a split uses all of a dataset's points (the
//! transductive protocol, `unlabeled = "rest"`), the kNN graph is built once per dataset and
//! graph setting (in the dataset's store) on the rows in file order, and each split names
//! its labeled and unlabeled nodes in it; otherwise the split's methods share a graph built
//! on the split's own points (labeled first), so that no method sees a row the protocol did
//! not give it. A dataset's kNN graph is also cached in `<data dir>/graphs/` (see
//! `graph_file.rs`). A graph given as a file (`graph = "w.npz"`) has one node per dataset
//! row; a split using only some rows gets the edges among them. A graph given as an object
//! (from Python) has one node per row of the caller's arrays. The node RLS methods score
//! two classes with one ±1 column, more with one column per class (one against the rest),
//! predicting the argmax. A kNN graph's fit leaves a neighbours model
//! ([`Neighbours`]: the fit rows and their node scores, the graph's k and weights), which
//! scores the test rows; the unlabeled rows keep the solve's scores (the model's scores of
//! them, bit for bit). A graph file places no new point: no model, no test scores.

use std::sync::Arc;

use ndarray::{Array2, Axis, concatenate};

use super::read_npz;
use super::{Graph, GraphSource, Seeds, SparseGraphMethod, SparseKind, cached, node_scores};
use super::{KnnWeights, NodeScores};
use crate::data::{DataSource, LoadedData};
use crate::engine::{Fitted, Method, Model, Neighbours, Split};
use crate::error::{Error, Result};

impl Method for SparseGraphMethod {
    fn params(&self) -> String {
        self.params().describe()
    }

    /// The exact kNN search (N²·d, shared by the methods and splits of a dataset) and the
    /// iterations (N·k each, a few hundred; a few thousand for the ROF methods).
    fn cost(&self, n: usize, dim: usize) -> f64 {
        let p = self.params();
        let (n, d, k) = (n as f64, dim as f64, p.graph.k as f64);
        let steps = match p.kind {
            SparseKind::GraphTvRls => p.rof_iterations as f64,
            SparseKind::GraphCheegerRls => (p.max_iter * p.rof_iterations) as f64 / 4.0,
            _ => 500.0,
        };
        n * n * d / 64.0 + n * k * steps
    }

    /// The split's dense rows, the graph (two entries of 8 bytes per neighbour) and a few
    /// n × c blocks of the solver (c ≤ 16 assumed); the ROF methods add a dual variable of
    /// 8 bytes per stored entry and a few n-vectors.
    fn memory(&self, n: usize, dim: usize) -> f64 {
        let (n, k) = (n as f64, self.params().graph.k as f64);
        let rof = if self.params().kind.on_nodes() { 16.0 * k + 64.0 } else { 0.0 };
        n * (8.0 * dim as f64 + 16.0 * k + 5.0 * 8.0 * 16.0 + rof)
    }

    /// False when its graph is a file or the kNN graph of all of a loaded dataset's rows
    /// (both read from the dataset, [`graph_of`]); the kNN graph of a split's own rows reads them.
    fn reads_features(&self, source: &DataSource, rows: &[usize]) -> bool {
        match self.source() {
            GraphSource::Knn { .. } => !of_whole_dataset(Some(source), Some(rows)),
            GraphSource::File(_) | GraphSource::Given(_) => false,
        }
    }

    /// The graph a dataset's splits share: the kNN graph of all of a loaded dataset's rows,
    /// or a graph file.
    fn prepare(&self, split: &Split) -> Result<()> {
        let shared = match self.source() {
            GraphSource::Knn { .. } => of_whole_dataset(split.source, split.rows),
            GraphSource::File(_) => true,
            GraphSource::Given(_) => false,
        };
        if shared {
            graph_of(self, split)?;
        }
        Ok(())
    }

    fn no_model(&self) -> Option<String> {
        match self.source() {
            GraphSource::File(path) => Some(format!(
                "its graph is the file {} (no features: a new row has no place in it)",
                path.display()
            )),
            GraphSource::Given(_) => {
                Some("its graph was given (no features: a new row has no place in it)".into())
            }
            GraphSource::Knn { .. } => None,
        }
    }

    fn fit(&self, split: &Split) -> Result<Fitted> {
        let p = self.params();
        let problem = split.problem;
        let Placed { graph, nodes, fit_rows } = graph_of(self, split)?;
        let nl = problem.n_labeled();
        let c = problem.n_classes;
        let seeds = Seeds::new(&nodes[..nl], &problem.classes_l, c, graph.n())?;
        let scores = node_scores(p, &graph, &seeds)?;
        let unlabeled = &nodes[nl..];
        let fitted = match scores.columns {
            1 | 2 => Fitted::binary(
                unlabeled.iter().map(|&i| scores.binary(i).expect("one or two columns")).collect(),
            ),
            k => Fitted::per_class(Array2::from_shape_fn((unlabeled.len(), k), |(r, j)| {
                scores.u[unlabeled[r] * k + j]
            })),
        };
        let mut fitted =
            fitted.with("steps", scores.steps as f64).with("graph_edges", graph.nnz() as f64);
        if let Some(local) = fit_rows {
            let model = neighbours(&scores, &local, p.graph.k, p.graph.weights)?;
            fitted.test = split.test.map(|x| model.score(x)).transpose()?;
            fitted.model = Some(model);
        }
        let fitted = match scores.capped {
            Some(n) => fitted.with("rof_capped", n as f64),
            None => fitted,
        };
        Ok(match graph.recall() {
            Some(r) => fitted.with("graph_recall", r),
            None => fitted,
        })
    }
}

/// The neighbours model of `scores` on the rows of `local` (row r: node `local.node[r]`).
fn neighbours(scores: &NodeScores, local: &Local, k: usize, weights: KnnWeights) -> Result<Model> {
    let node = &local.node;
    let of_row = match scores.columns {
        1 | 2 => Array2::from_shape_fn((node.len(), 1), |(r, _)| {
            scores.binary(node[r]).expect("one or two columns")
        }),
        c => Array2::from_shape_fn((node.len(), c), |(r, j)| scores.u[node[r] * c + j]),
    };
    Ok(Model::Neighbours(Neighbours::new(local.rows.clone(), of_row, k, weights)?))
}

/// The graph this split's methods use, the split's nodes in it (labeled first) and, for a
/// kNN graph, the rows it was built on and each row's node.
struct Placed {
    graph: Arc<Graph>,
    nodes: Vec<usize>,
    fit_rows: Option<Arc<Local>>,
}

/// The graph this split's methods use ([`Placed`]).
fn graph_of(m: &SparseGraphMethod, split: &Split) -> Result<Placed> {
    let spec = m.params().graph;
    if let GraphSource::Given(graph) = m.source() {
        let n = split.problem.n_labeled() + split.problem.n_unlabeled();
        if graph.n() != n {
            return Err(Error::Data(format!(
                "the given graph has {} nodes for {n} rows",
                graph.n()
            )));
        }
        let nodes = split.rows.map_or_else(|| (0..n).collect(), <[usize]>::to_vec);
        return Ok(Placed { graph: graph.clone(), nodes, fit_rows: None });
    }
    let loaded = loaded(split.source, split.rows)?;
    if let GraphSource::File(path) = m.source() {
        let Some((data, rows)) = loaded else {
            return Err(Error::Data(format!(
                "{}: a graph file needs a dataset read from files (one node per row)",
                path.display()
            )));
        };
        let key = format!("graph file {} {}", path.display(), spec.symmetrise.name());
        let graph = split.dataset_store.get(&key, || read_npz(path, spec.symmetrise))?;
        if graph.n() != data.dataset.len() {
            return Err(Error::Data(format!(
                "{}: {} nodes for a dataset of {} rows",
                path.display(),
                graph.n(),
                data.dataset.len()
            )));
        }
        let (graph, nodes) = match rows.len() == graph.n() {
            true => (graph, rows.to_vec()),
            // Only the split's rows: the edges among them.
            false => (Arc::new(graph.induced(rows)?), (0..rows.len()).collect()),
        };
        return Ok(Placed { graph, nodes, fit_rows: None });
    }
    let key = format!("sparse graph {}", spec.describe());
    if let Some((data, rows)) = loaded
        && whole(data, rows)
    {
        let local = split.dataset_store.get(&key, || {
            let x = data.dataset.x.to_dense().into_owned();
            let graph = match m.source() {
                GraphSource::Knn { cache: Some(dir) } => cached(&spec, x.view(), dir)?,
                _ => spec.build(x.view())?,
            };
            Ok(Local::new(&graph, x))
        })?;
        let nodes = rows.iter().map(|&r| local.node[r]).collect();
        return Ok(Placed { graph: local.graph.clone(), nodes, fit_rows: Some(local) });
    }
    let problem = split.problem;
    let own = split.split_store.get(&key, || {
        let x = concatenate(
            Axis(0),
            &[problem.x_l.to_dense().view(), problem.x_u.to_dense().view()],
        )
        .map_err(|e| Error::Data(format!("labeled and unlabeled rows differ in width: {e}")))?;
        let graph = Arc::new(spec.build(x.view())?);
        let node = Arc::new((0..x.nrows()).collect());
        Ok(Local { graph, node, rows: Arc::new(x) })
    })?;
    let nodes = own.node.to_vec();
    Ok(Placed { graph: own.graph.clone(), nodes, fit_rows: Some(own.clone()) })
}

/// For a split of a dataset read from files: the dataset and the split's rows of it.
fn loaded<'a, 'r>(
    source: Option<&'a DataSource>,
    rows: Option<&'r [usize]>,
) -> Result<Option<(&'a LoadedData, &'r [usize])>> {
    match (source, rows) {
        (Some(DataSource::Loaded(file)), Some(rows)) => Ok(Some((file.data()?, rows))),
        _ => Ok(None),
    }
}

/// Whether `rows` are all of a dataset read from files (its kNN graph is then the dataset's).
fn of_whole_dataset(source: Option<&DataSource>, rows: Option<&[usize]>) -> bool {
    matches!(loaded(source, rows), Ok(Some((data, rows))) if whole(data, rows))
}

/// Whether a split's rows are all of the dataset's (the transductive protocol).
fn whole(data: &LoadedData, rows: &[usize]) -> bool {
    rows.len() == data.dataset.len()
}

/// A kNN graph, the rows it was built on and each row's node.
struct Local {
    graph: Arc<Graph>,
    node: Arc<Vec<usize>>,
    rows: Arc<Array2<f64>>,
}

impl Local {
    /// A dataset's graph renumbered breadth-first ([`Graph::renumbered`]).
    fn new(graph: &Graph, rows: Array2<f64>) -> Self {
        let (graph, node) = graph.renumbered();
        Local { graph: Arc::new(graph), node: Arc::new(node), rows: Arc::new(rows) }
    }
}
