//! sslab's side of `make bench-graph-peers` (driven by `benches/graph_peers/graph_peers.py`,
//! which runs GraphLearning and scikit-learn on the same data and compares). Threads:
//! rayon's default pool (`RAYON_NUM_THREADS`). Each command prints one JSON line.
//! - `knn X.npy K OUT_DIR`: the exact K nearest other rows of every row of X (n × d, f64)
//!   by sslab's search (`KnnSpec::lists`), written in GraphLearning's `knn_data` layout:
//!   `OUT_DIR/knn_ind.npy` (int64, n × (K+1), the row itself first) and
//!   `OUT_DIR/knn_dist.npy` (float64 distances, not squared, 0 first); prints the wall and
//!   CPU seconds of the search.
//! - `solve SOURCE METHODS TRIALS.npy LABELS.npy OUT_DIR [--k K]`: METHODS is a
//!   comma-separated list of `laplace`, `poisson`, `label_spreading`, `label_propagation`.
//!   SOURCE is a folder of `knn_ind.npy`/`knn_dist.npy` (as `knn` writes them; K defaults to
//!   their width − 1, a smaller `--k` keeps the first K) or an `X.npy` searched here with
//!   `--k K` (timed). Laplace and Poisson run on GraphLearning's graph (`KnnSpec::default()`
//!   weights: exp(−4 d²/d_K²), (W + Wᵀ)/2), label spreading and propagation on
//!   scikit-learn's `kernel="knn"` graph (binary, not symmetrised; K = n_neighbors − 1), each
//!   with the defaults of `SparseParams::new`; each graph renumbered breadth-first as the
//!   engine's (`Graph::renumbered`, timed with the build), then its aggregates for the
//!   deflated solves of Laplace and Poisson computed and timed apart (per graph). TRIALS
//!   holds one labeled set per row (int64 node indices; negative entries are padding),
//!   LABELS every node's class (0, 1, …).
//!   Writes `OUT_DIR/<method>.npy` (int64, trials × n: the argmax of each node's scores,
//!   the first maximum) and prints the seconds of the search or read, of each graph build
//!   and of each solve (wall and CPU), with the solver's steps.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use ndarray::Array2;
use sslab::data::npy;
use sslab::methods::sparse_graph::{
    Graph, KnnSpec, KnnWeights, Seeds, SparseKind, SparseParams, Symmetrise, node_scores,
};
use sslab::{Error, Result};

const USAGE: &str = "usage: graph_peers knn X.npy K OUT_DIR | \
     graph_peers solve KNN_DIR|X.npy METHODS TRIALS.npy LABELS.npy OUT_DIR [--k K]";

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut k = None;
    let mut pos = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--k" {
            k = Some(it.next().and_then(|v| v.parse().ok()).ok_or_else(|| usage("--k K"))?);
        } else {
            pos.push(a.as_str());
        }
    }
    match pos[..] {
        ["knn", x, k, out] => knn(Path::new(x), k.parse().map_err(|_| usage("K"))?, Path::new(out)),
        ["solve", source, methods, trials, labels, out] => {
            let paths = [source, trials, labels, out].map(Path::new);
            solve(paths, methods, k)
        }
        _ => Err(usage("arguments")),
    }
}

fn usage(what: &str) -> Error {
    Error::Data(format!("bad {what}; {USAGE}"))
}

/// Wall and process CPU time since it was started.
struct Clock(Instant, f64);

impl Clock {
    fn start() -> Self {
        Clock(Instant::now(), cpu_seconds())
    }

    /// (wall seconds, CPU seconds) so far.
    fn read(&self) -> (f64, f64) {
        (self.0.elapsed().as_secs_f64(), cpu_seconds() - self.1)
    }
}

/// CPU time of this process, every thread, user + system (nanosecond clock).
fn cpu_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

fn read_matrix(path: &Path) -> Result<Array2<f64>> {
    npy::read(path)?.matrix(&path.display().to_string())
}

fn knn(x: &Path, k: usize, out: &Path) -> Result<()> {
    let x = read_matrix(x)?;
    let (n, d) = x.dim();
    let clock = Clock::start();
    let (neighbours, sq) = KnnSpec { k, ..KnnSpec::default() }.lists(x.view())?;
    let (wall, cpu) = clock.read();
    let mut ind = Vec::with_capacity(n * (k + 1));
    let mut dist = Vec::with_capacity(n * (k + 1));
    for i in 0..n {
        ind.push(i as i64);
        dist.push(0.0);
        ind.extend(neighbours[i * k..(i + 1) * k].iter().map(|&j| j as i64));
        dist.extend(sq[i * k..(i + 1) * k].iter().map(|s| s.sqrt()));
    }
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    npy::write_i64(&out.join("knn_ind.npy"), &[n, k + 1], &ind)?;
    npy::write_f64(&out.join("knn_dist.npy"), &[n, k + 1], &dist)?;
    println!(
        "{{\"command\": \"knn\", \"n\": {n}, \"d\": {d}, \"k\": {k}, \"threads\": {}, \
         \"wall_seconds\": {wall:.4}, \"cpu_seconds\": {cpu:.4}}}",
        rayon::current_num_threads()
    );
    Ok(())
}

/// Neighbour lists in GraphLearning's layout (n × (K+1), the row itself among them) as
/// sslab's: the first `k` entries of each row other than the row itself, squared.
fn lists_from_dir(dir: &Path, k: Option<usize>) -> Result<(usize, usize, Vec<usize>, Vec<f64>)> {
    let ind = npy::read(&dir.join("knn_ind.npy"))?;
    let dist = npy::read(&dir.join("knn_dist.npy"))?;
    let (n, width) = match ind.shape[..] {
        [n, w] if dist.shape == ind.shape && w >= 2 => (n, w),
        _ => return Err(Error::Data(format!("{}: knn_ind/knn_dist shapes", dir.display()))),
    };
    let k = k.unwrap_or(width - 1);
    if k == 0 || k >= width {
        return Err(Error::Data(format!("--k {k}: the lists hold {} neighbours", width - 1)));
    }
    let (mut neighbours, mut sq) = (Vec::with_capacity(n * k), Vec::with_capacity(n * k));
    for i in 0..n {
        let row = (i * width..(i + 1) * width).filter(|&e| ind.data[e] as usize != i).take(k);
        for e in row {
            neighbours.push(ind.data[e] as usize);
            sq.push(dist.data[e] * dist.data[e]);
        }
        if neighbours.len() != (i + 1) * k {
            return Err(Error::Data(format!("row {i} has fewer than {k} other neighbours")));
        }
    }
    Ok((n, k, neighbours, sq))
}

/// Non-negative integer values of a .npy file (classes, node indices; negative = padding).
fn integers(values: &[f64], what: &str) -> Result<Vec<i64>> {
    values
        .iter()
        .map(|&v| match v.fract() == 0.0 && v.abs() < 2f64.powi(53) {
            true => Ok(v as i64),
            false => Err(Error::Data(format!("{what}: {v} is not an integer"))),
        })
        .collect()
}

/// The graph each method runs on (see the module's documentation).
fn spec_of(kind: SparseKind, k: usize) -> KnnSpec {
    match kind {
        SparseKind::Laplace | SparseKind::Poisson => KnnSpec { k, ..KnnSpec::default() },
        _ => KnnSpec {
            k,
            weights: KnnWeights::Binary,
            symmetrise: Symmetrise::None,
            ..KnnSpec::default()
        },
    }
}

fn json_list<T: std::fmt::Display>(values: &[T]) -> String {
    let items: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    format!("[{}]", items.join(", "))
}

fn solve(paths: [&Path; 4], methods: &str, k: Option<usize>) -> Result<()> {
    let [source, trials, labels, out] = paths;
    let kinds = methods
        .split(',')
        .map(|m| match SparseKind::from_name(m) {
            Some(kind) if !kind.on_nodes() => Ok(kind),
            _ => Err(usage(&format!("method `{m}`"))),
        })
        .collect::<Result<Vec<_>>>()?;
    let labels = integers(&npy::read(labels)?.data, "labels")?;
    if labels.iter().any(|&l| l < 0) {
        return Err(Error::Data("labels: negative class".into()));
    }
    let c = labels.iter().max().map_or(0, |&m| m as usize + 1);
    let trials_npy = npy::read(trials)?;
    let (t, m) = match trials_npy.shape[..] {
        [t, m] => (t, m),
        _ => return Err(Error::Data(format!("{}: expected trials × m", trials.display()))),
    };
    let trial_nodes = integers(&trials_npy.data, "trials")?;
    let clock = Clock::start();
    let (what, (n, k, neighbours, sq)) = if source.is_dir() {
        ("read", lists_from_dir(source, k)?)
    } else {
        let k = k.ok_or_else(|| usage("--k (needed with X.npy)"))?;
        let x = read_matrix(source)?;
        let (neighbours, sq) = KnnSpec { k, ..KnnSpec::default() }.lists(x.view())?;
        ("search", (x.nrows(), k, neighbours, sq))
    };
    let (lists_wall, lists_cpu) = clock.read();
    if labels.len() != n {
        return Err(Error::Data(format!("{} labels for {n} nodes", labels.len())));
    }
    let mut json = format!(
        "{{\"command\": \"solve\", \"n\": {n}, \"k\": {k}, \"classes\": {c}, \"trials\": {t}, \
         \"threads\": {}, \"lists\": {{\"source\": \"{what}\", \"wall_seconds\": {lists_wall:.4}, \
         \"cpu_seconds\": {lists_cpu:.4}}}, \"graphs\": [",
        rayon::current_num_threads()
    );
    let mut graphs: Vec<(KnnSpec, (Graph, Vec<usize>))> = Vec::new();
    let mut solves = Vec::new();
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    for &kind in &kinds {
        let spec = spec_of(kind, k);
        if !graphs.iter().any(|(s, _)| *s == spec) {
            let clock = Clock::start();
            // Renumbered breadth-first as the engine does (`Graph::renumbered`), timed with it.
            let g = spec.from_lists(n, &neighbours, &sq)?.renumbered();
            let (wall, cpu) = clock.read();
            // The aggregates of the deflated solves: once per graph, timed apart.
            let clock = Clock::start();
            let aggregates = g.0.aggregates().count;
            let (agg_wall, agg_cpu) = clock.read();
            let sep = if graphs.is_empty() { "" } else { ", " };
            let _ = write!(
                json,
                "{sep}{{\"spec\": \"{}\", \"nnz\": {}, \"components\": {}, \
                 \"wall_seconds\": {wall:.4}, \"cpu_seconds\": {cpu:.4}, \
                 \"aggregates\": {aggregates}, \"aggregates_wall_seconds\": {agg_wall:.4}, \
                 \"aggregates_cpu_seconds\": {agg_cpu:.4}}}",
                spec.describe(),
                g.0.nnz(),
                g.0.components().0
            );
            graphs.push((spec, g));
        }
        let (g, node) =
            graphs.iter().find(|(s, _)| *s == spec).map(|(_, g)| g).ok_or(usage("graph"))?;
        let (mut wall, mut cpu, mut steps) = (Vec::new(), Vec::new(), Vec::new());
        let mut predictions = Vec::with_capacity(t * n);
        for r in 0..t {
            let row = &trial_nodes[r * m..(r + 1) * m];
            let nodes: Vec<usize> = row.iter().filter(|&&i| i >= 0).map(|&i| i as usize).collect();
            if let Some(&bad) = nodes.iter().find(|&&i| i >= n) {
                return Err(Error::Data(format!("trial {r}: node {bad} of {n}")));
            }
            let classes: Vec<usize> = nodes.iter().map(|&i| labels[i] as usize).collect();
            let renumbered: Vec<usize> = nodes.iter().map(|&i| node[i]).collect();
            let seeds = Seeds::new(&renumbered, &classes, c, n)?;
            let clock = Clock::start();
            let scores = node_scores(&SparseParams::new(kind), g, &seeds)?;
            let (w, p) = clock.read();
            predictions.extend(node.iter().map(|&a| scores.class(a) as i64));
            wall.push(format!("{w:.5}"));
            cpu.push(format!("{p:.5}"));
            steps.push(scores.steps);
        }
        npy::write_i64(&out.join(format!("{}.npy", kind.name())), &[t, n], &predictions)?;
        solves.push(format!(
            "\"{}\": {{\"wall_seconds\": {}, \"cpu_seconds\": {}, \"steps\": {}}}",
            kind.name(),
            json_list(&wall),
            json_list(&cpu),
            json_list(&steps)
        ));
    }
    println!("{json}], \"solves\": {{{}}}}}", solves.join(", "));
    Ok(())
}
