//! sslab's side of `make bench-scale` (driven by `benches/scale/scale.py`, which runs one
//! kernel and size per process, so the operating system's peak memory is that size's).
//! Usage: `scale KERNEL ARGS [--threads N]`, printing one line `RESULT key=value ...`:
//! - `tsvm DIR N`, `da DIR N`: multi-switch TSVM (S = 10,000) or DA on `DIR/ex_N`,
//!   `DIR/lab_N` (written by `../shared/bench/synth_sparse.py N 100000 50`), the first
//!   [`SPARSE_LABELED`] rows labeled, λ = 0.001, λ_u = 1, r = 0.5; errors on the rest;
//!   with `--dual-cd EPSILON`, dual CD as their inner solver (not part of `make bench-scale`);
//! - `lap_rls N`, `tv_rls N`, `cheeger_rls N`: the method with its defaults (k = 10
//!   self-tuning graph) on [`mixture`]'s N points; errors on the unlabeled ones; with
//!   `--rank M`, its low-rank kernel (`kernel_rank = M`, Nyström with M landmarks);
//! - `knn N`: only the exact kNN graph of those points (what any graph method pays first)
//!   and the time of one Laplacian product on it;
//! - `sparse_knn N`, or a graph-only kind and N (`laplace N`, `poisson N`, `graph_tv_rls N`,
//!   …): the family's k = 10 graph (GraphLearning's weights; exact search up to 10⁵ points,
//!   NN-descent above, its recall on a sample in the notes; renumbered breadth-first as the
//!   engine's) alone, or with the kind's defaults on it (set-up = the graph, solve = the
//!   method; errors on the unlabeled points); `fashion KIND` the same on Fashion-MNIST;
//! - `export N FILE`: the same points for scikit-learn (rows, columns, labeled rows as f64,
//!   then the rows, then every row's ±1 label, little-endian f64);
//! - `plot RESULTS FIGURES`: `RESULTS/{sparse,graph}.csv` into `FIGURES/scaling.png` (time
//!   and memory against N, every method) and `FIGURES/svmlin_scaling.png` (TSVM and DA
//!   solver CPU time against the unlabeled count, with log–log slopes).

mod plot;

use std::path::Path;
use std::time::Instant;

use ndarray::{Axis, concatenate};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sslab::data::synthetic::GaussianMixture;
use sslab::data::{Features, Problem, Sampler};
use sslab::methods::graph::{GraphKind, GraphParams, KnnGraph, Prepared, laplacian_times};
use sslab::methods::sparse_graph::{KnnSpec, Seeds, SparseKind, SparseParams, node_scores};
use sslab::methods::svmlin::{Details, Kind, PositiveFraction, SvmSolver, SvmlinParams};

/// Labeled rows of the sparse sets (the first rows of the generator's file).
const SPARSE_LABELED: usize = 500;
/// Vocabulary of the generator's files.
const WORDS: usize = 100_000;
/// Labeled images per class of the Fashion-MNIST rows.
const FASHION_LABELED: usize = 5;
/// Labeled points of the graph sets, half per class.
const GRAPH_LABELED: usize = 100;
/// Dimension, class-mean distance and seed of the graph sets.
const DIM: usize = 50;
const MEAN_NORM: f64 = 2.0;
const SEED: u64 = 31;

type Res<T> = Result<T, String>;

fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let threads = match args.iter().position(|a| a == "--threads") {
        Some(k) => {
            args.get(k + 1).and_then(|v| v.parse().ok()).ok_or("--threads needs a number")?
        }
        None => 1,
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .map_err(|e| e.to_string())?;
    faer::set_global_parallelism(if threads == 1 {
        faer::Par::Seq
    } else {
        faer::Par::rayon(threads)
    });
    let rank = match args.iter().position(|a| a == "--rank") {
        Some(k) => {
            Some(args.get(k + 1).and_then(|v| v.parse().ok()).ok_or("--rank needs a number")?)
        }
        None => None,
    };
    let solver = match args.iter().position(|a| a == "--dual-cd") {
        Some(k) => SvmSolver::DualCd {
            epsilon: args.get(k + 1).and_then(|v| v.parse().ok()).ok_or("--dual-cd needs ε")?,
        },
        None => SvmSolver::Mfn,
    };
    let option = |a: &String| a == "--threads" || a == "--rank" || a == "--dual-cd";
    let pos: Vec<&str> = args
        .iter()
        .enumerate()
        .filter(|(k, a)| !option(a) && (*k == 0 || !option(&args[k - 1])))
        .map(|(_, a)| a.as_str())
        .collect();
    let size = |k: usize| -> Res<usize> {
        pos.get(k).and_then(|v| v.parse().ok()).ok_or_else(|| format!("argument {k}: a size N"))
    };
    match pos.as_slice() {
        ["tsvm", dir, _] => {
            sparse(Path::new(dir), size(2)?, Kind::Tsvm { switches: 10_000 }, solver)
        }
        ["da", dir, _] => sparse(Path::new(dir), size(2)?, Kind::Da, solver),
        ["knn", _] => knn(size(1)?),
        ["sparse_knn", _] => sparse_graph(None, size(1)?),
        ["fashion", kind] => fashion(SparseKind::from_name(kind)),
        [name, _] if SparseKind::from_name(name).is_some() => {
            sparse_graph(SparseKind::from_name(name), size(1)?)
        }
        ["export", _, file] => export(size(1)?, Path::new(file)),
        ["plot", results, figures] => plot::figures(Path::new(results), Path::new(figures)),
        [name, _] => match GraphKind::from_name(name) {
            Some(kind) if kind.uses_graph() => graph(kind, size(1)?, rank),
            _ => Err(format!("unknown kernel {name}")),
        },
        _ => Err("usage: scale tsvm|da DIR N [--dual-cd EPSILON] | \
                  lap_rls|tv_rls|cheeger_rls N [--rank M] | \
                  knn N | sparse_knn|GRAPH_KIND N | fashion sparse_knn|GRAPH_KIND | \
                  export N FILE | plot RESULTS FIGURES [--threads N]"
            .into()),
    }
}

fn sparse(dir: &Path, n: usize, kind: Kind, svm_solver: SvmSolver) -> Res<()> {
    let (ex, lab) = (dir.join(format!("ex_{n}")), dir.join(format!("lab_{n}")));
    let (t, cpu) = (Instant::now(), cpu_seconds()?);
    let set = sslab::data::svmlin::read(&ex, &lab, Some(WORDS)).map_err(|e| e.to_string())?;
    let setup = (t.elapsed().as_secs_f64(), cpu_seconds()? - cpu);
    let p = set.first_labeled(SPARSE_LABELED);
    let params = SvmlinParams {
        lambda: 1e-3,
        lambda_u: 1.0,
        r: PositiveFraction::Fixed(0.5),
        svm_solver,
        ..SvmlinParams::new(kind)
    };
    let m = params.check().map_err(|e| e.to_string())?;
    let (t, cpu) = (Instant::now(), cpu_seconds()?);
    let fit = m.fit(&p).map_err(|e| e.to_string())?;
    let solve = (t.elapsed().as_secs_f64(), cpu_seconds()? - cpu);
    let errors = count_errors(fit.scores(&p.x_u).iter().copied(), p.y_u.iter().copied());
    let work = match fit.details {
        Details::Tsvm(r) if r.epochs > 0 => format!("solves={} epochs={}", r.solves, r.epochs),
        Details::Tsvm(r) => format!("mfn_calls={} cg={}", r.solves, r.cg_iterations),
        Details::Da(r) if svm_solver != SvmSolver::Mfn => format!("solves={}", r.solves),
        Details::Da(r) => format!("mfn_calls={}", r.solves),
        _ => String::new(),
    };
    let nnz = match &p.x_u {
        Features::Sparse(c) => c.nnz(),
        Features::Dense(d) => d.len(),
    };
    result(
        setup,
        solve,
        errors,
        p.n_unlabeled(),
        &format!("labeled={} nnz_unlabeled={nnz} {work}", p.n_labeled()),
    );
    Ok(())
}

/// The graph sets: a two-class Gaussian mixture in [`DIM`] dimensions (means ±μ,
/// ‖μ‖ = [`MEAN_NORM`], identity covariance: Bayes error Φ(−2) = 2.3 %), the first
/// [`GRAPH_LABELED`] points labeled, then N − [`GRAPH_LABELED`] unlabeled, drawn from
/// [`SEED`]; every size is its own draw.
fn mixture(n: usize) -> Res<Problem> {
    let mix = GaussianMixture::symmetric(DIM, MEAN_NORM).map_err(|e| e.to_string())?;
    let u = n.checked_sub(GRAPH_LABELED).filter(|u| *u >= 2).ok_or("N must exceed 101")?;
    let l = GRAPH_LABELED;
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    Ok(mix.sample_problem([l / 2, l - l / 2], [u / 2, u - u / 2], &mut rng))
}

/// All rows of a problem, labeled first.
fn rows(p: &Problem) -> Res<ndarray::Array2<f64>> {
    concatenate(Axis(0), &[p.x_l.to_dense().view(), p.x_u.to_dense().view()])
        .map_err(|e| e.to_string())
}

fn graph(kind: GraphKind, n: usize, rank: Option<usize>) -> Res<()> {
    let p = mixture(n)?;
    let x = rows(&p)?;
    let mut params = GraphParams::new(kind);
    params.kernel.rank = rank;
    let method = params.check().map_err(|e| e.to_string())?;
    // The kernel (dense N × N, or the N × m Nyström factor) and the graph, each timed: the
    // method's set-up.
    let (t, cpu) = (Instant::now(), cpu_seconds()?);
    let mut prep = Prepared::from_rows(x.view(), p.y_l.to_vec(), &params.kernel, None)
        .map_err(|e| e.to_string())?;
    let gram = t.elapsed().as_secs_f64();
    let g = params.graph.build(x.view()).map_err(|e| e.to_string())?;
    let knn = t.elapsed().as_secs_f64() - gram;
    let entries = g.nnz();
    prep.graph = Some(g);
    let setup = (t.elapsed().as_secs_f64(), cpu_seconds()? - cpu);
    let (t, cpu) = (Instant::now(), cpu_seconds()?);
    let scores = method.fit_prepared(&prep).map_err(|e| e.to_string())?.scores;
    let solve = (t.elapsed().as_secs_f64(), cpu_seconds()? - cpu);
    let u = &scores[prep.n_labeled..];
    let errors = count_errors(u.iter().copied(), p.y_u.iter().copied());
    let mut notes = format!("gram_seconds={gram:.3} knn_seconds={knn:.3} graph_entries={entries}");
    if let Some(z) = prep.gram.factor() {
        notes += &format!(" kernel_rank={} factor_columns={}", rank.unwrap_or(0), z.ncols());
    }
    result(setup, solve, errors, u.len(), &notes);
    Ok(())
}

/// The graph alone, then the CPU time of one Laplacian product L·v on it (median of 21): the
/// per-iteration cost of a solver working on the graph only (CG on (J + γL) f = y, or a
/// ROF step, which applies the edge difference and its transpose once each).
fn knn(n: usize) -> Res<()> {
    let x = rows(&mixture(n)?)?;
    let (t, cpu) = (Instant::now(), cpu_seconds()?);
    let g = KnnGraph::default().build(x.view()).map_err(|e| e.to_string())?;
    let solve = (t.elapsed().as_secs_f64(), cpu_seconds()? - cpu);
    let v = faer::Mat::from_fn(n, 1, |i, _| (i % 7) as f64 - 3.0);
    let mut times: Vec<f64> = (0..21)
        .map(|_| {
            let t = thread_cpu_seconds();
            std::hint::black_box(laplacian_times(&g, &v));
            thread_cpu_seconds() - t
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "RESULT setup_seconds=0 setup_cpu_seconds=0 solve_seconds={:.4} solve_cpu_seconds={:.2} graph_entries={} laplacian_matvec_cpu_seconds={:.6}",
        solve.0,
        solve.1,
        g.nnz(),
        times[10]
    );
    Ok(())
}

/// The graph-only family's default graph of [`mixture`]'s points, then (with a kind)
/// the kind from its labeled points.
fn sparse_graph(kind: Option<SparseKind>, n: usize) -> Res<()> {
    let p = mixture(n)?;
    let classes: Vec<usize> = p.classes_l.iter().chain(&p.classes_u).copied().collect();
    let labeled: Vec<usize> = (0..p.n_labeled()).collect();
    graph_and_solve(rows(&p)?, &classes, 2, &labeled, kind)
}

/// [`sparse_graph`] on Fashion-MNIST's 70,000 images.
fn fashion(kind: Option<SparseKind>) -> Res<()> {
    let reg = sslab::data::registry::Registry::builtin().map_err(|e| e.to_string())?;
    let data =
        sslab::data::load::load_named(&reg, "fashion_mnist", &sslab::support::data_dir(), None)
            .map_err(|e| e.to_string())?;
    let c = data.class_names.len();
    let mut labeled = Vec::new();
    for class in 0..c {
        let rows = data.classes.iter().enumerate().filter(|(_, k)| **k == class);
        labeled.extend(rows.take(FASHION_LABELED).map(|(i, _)| i));
    }
    let x = data.x.to_dense().into_owned();
    graph_and_solve(x, &data.classes, c, &labeled, kind)
}

/// Builds the default graph of `x` (timed as set-up) and, with a kind, solves from the
/// `labeled` rows (timed as solve); errors on the other rows.
fn graph_and_solve(
    x: ndarray::Array2<f64>,
    classes: &[usize],
    c: usize,
    labeled: &[usize],
    kind: Option<SparseKind>,
) -> Res<()> {
    let n = x.nrows();
    let (t, cpu) = (Instant::now(), cpu_seconds()?);
    // Renumbered breadth-first as the engine does, timed with the build.
    let (g, node) = KnnSpec::default().build(x.view()).map_err(|e| e.to_string())?.renumbered();
    let setup = (t.elapsed().as_secs_f64(), cpu_seconds()? - cpu);
    let mut notes =
        format!("graph_entries={} graph_mib={:.1}", g.nnz(), g.size_bytes() as f64 / 1048576.0);
    if let Some(r) = g.recall() {
        notes += &format!(" recall_at_10={r:.4}");
    }
    drop(x);
    let Some(kind) = kind else {
        result(setup, (0.0, 0.0), 0, 0, &notes);
        return Ok(());
    };
    let nodes: Vec<usize> = labeled.iter().map(|&i| node[i]).collect();
    let seed_classes: Vec<usize> = labeled.iter().map(|&i| classes[i]).collect();
    let seeds = Seeds::new(&nodes, &seed_classes, c, n).map_err(|e| e.to_string())?;
    let (t, cpu) = (Instant::now(), cpu_seconds()?);
    let scores = node_scores(&SparseParams::new(kind), &g, &seeds).map_err(|e| e.to_string())?;
    let solve = (t.elapsed().as_secs_f64(), cpu_seconds()? - cpu);
    let is_labeled = seeds.mask(n);
    let unlabeled: Vec<usize> = (0..n).filter(|&i| !is_labeled[node[i]]).collect();
    let errors = unlabeled.iter().filter(|&&i| scores.class(node[i]) != classes[i]).count();
    notes += &format!(" steps={}", scores.steps);
    result(setup, solve, errors, unlabeled.len(), &notes);
    Ok(())
}

fn export(n: usize, file: &Path) -> Res<()> {
    let p = mixture(n)?;
    let x = rows(&p)?;
    let head = [x.nrows(), x.ncols(), p.n_labeled()].map(|v| v as f64);
    let labels = p.y_l.iter().chain(p.y_u.iter());
    let values = head.iter().chain(x.iter()).chain(labels);
    let bytes: Vec<u8> = values.flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(file, &bytes).map_err(|e| format!("{}: {e}", file.display()))?;
    println!("RESULT bytes={}", bytes.len());
    Ok(())
}

fn count_errors(scores: impl Iterator<Item = f64>, y: impl Iterator<Item = f64>) -> usize {
    scores.zip(y).filter(|(s, y)| (*s >= 0.0) != (*y > 0.0)).count()
}

/// Prints the RESULT line: set-up (reading or kernel + graph) and solve, wall and CPU.
fn result(setup: (f64, f64), solve: (f64, f64), errors: usize, of: usize, notes: &str) {
    println!(
        "RESULT setup_seconds={:.4} setup_cpu_seconds={:.2} solve_seconds={:.4} solve_cpu_seconds={:.2} errors={errors} of={of} {notes}",
        setup.0, setup.1, solve.0, solve.1
    );
}

/// CPU time of the calling thread in seconds (nanosecond clock: on a loaded machine a
/// wall-clock timer of a few milliseconds mostly measures the other processes).
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// CPU time of this process (user + system, `/proc/self/stat`, 100 ticks per second).
fn cpu_seconds() -> Res<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").map_err(|e| e.to_string())?;
    let after = stat.rsplit_once(')').ok_or("unreadable /proc/self/stat")?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |k: usize| fields.get(k).and_then(|v| v.parse::<f64>().ok());
    match (ticks(11), ticks(12)) {
        (Some(user), Some(system)) => Ok((user + system) / 100.0),
        _ => Err("unreadable /proc/self/stat".into()),
    }
}
