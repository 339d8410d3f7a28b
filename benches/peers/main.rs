//! sslab's side of `make bench-peers` (driven by `benches/peers/peers.py`, which runs the
//! peers on the same data and prints the ratios). One kernel per process, so the driver
//! reads each run's peak memory from the operating system. Usage:
//! `peers KERNEL [ARGS] [--threads N] [--out FILE]`, printing one line `RESULT key=value ...`:
//! - `svm DIR`: l2-SVM-MFN on `DIR/ex_100000`, `DIR/lab_100000` (all rows but the last
//!   labeled, λ = 0.001); errors on the labeled rows; with `--dual-cd EPSILON` (also for
//!   `tsvm`, `da`: their inner solver), by dual coordinate descent stopped at that ε instead;
//!   with `--precondition` (also for `tsvm`, `da`), CGLS runs with the diagonal preconditioner;
//! - `tsvm DIR`, `da DIR`: the first 1,000 rows labeled, the rest unlabeled, λ = 0.001,
//!   λ_u = 1, r = 0.5 (multi-switch TSVM, S = 10,000); errors on the unlabeled rows and the
//!   final (TSVM) or best (DA) objective;
//!   with `--out`, these three write the weights and then the bias;
//! - `qlds-export FILE`, `qlds`: QLDS(0.5, 1) fit + predict at d = 400 (`--dim D`), n = 2,000
//!   (100 labeled), median of 15, errors on the unlabeled rows; `qlds-export` writes the
//!   problem for the numpy peer; also the median CPU time of the process (all threads) per
//!   fit + predict and the GFLOP/s of the covariance step and of a 1,000³ faer
//!   product (fastest of 5: the peak);
//! - `qlds-grid`: QLDS(cv) (10 folds) and QLDS(th) over the 11 × 11 grid of [0, 1]² on the
//!   same problem, selection and the final fit + predict, median of 5 each; the chosen point
//!   and errors on the unlabeled rows;
//! - `knn-export FILE`, `knn`: the exact k = 10 self-tuning graph on all USPS digits (from
//!   `SSLAB_DATA_DIR`, default `data/`); with `--out`, its edges i < j as u32 pairs.
//!
//! Files are raw little-endian: exports a header (rows, columns, labeled rows) then the
//! data then the labels of all rows, as f64.

#[path = "../common/mod.rs"]
mod common;

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use common::median;
use faer::Mat;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sslab::data::synthetic::GaussianMixture;
use sslab::data::{Problem, Sampler};
use sslab::methods::graph::KnnGraph;
use sslab::methods::qlds::selection::{Grid, Policy, SelectQlds};
use sslab::methods::qlds::theory::Scale;
use sslab::methods::qlds::{LambdaPolicy, QldsParams};
use sslab::methods::svmlin::{Details, Kind, PositiveFraction, SvmSolver, SvmlinParams};

const DOCS: usize = 100_000;
const WORDS: usize = 50_000;

type Res<T> = Result<T, String>;

fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let option = |name: &str| args.iter().position(|a| a == name).map(|k| args.get(k + 1));
    let threads = match option("--threads") {
        Some(v) => v.and_then(|v| v.parse().ok()).ok_or("--threads needs a number")?,
        None => 1,
    };
    let out = match option("--out") {
        Some(v) => Some(Path::new(v.ok_or("--out needs a file")?)),
        None => None,
    };
    let svm_solver = match option("--dual-cd") {
        Some(v) => SvmSolver::DualCd {
            epsilon: v.and_then(|v| v.parse().ok()).ok_or("--dual-cd needs a number")?,
        },
        None => SvmSolver::Mfn,
    };
    let pre = args.iter().any(|a| a == "--precondition");
    let dim = match option("--dim") {
        Some(v) => v.and_then(|v| v.parse().ok()).ok_or("--dim needs a number")?,
        None => 400,
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
    // Positional arguments: those that are neither an option nor an option's value.
    let takes_value = |a: &str| a.starts_with("--") && a != "--precondition";
    let pos: Vec<&str> = (0..args.len())
        .filter(|&k| !args[k].starts_with("--") && (k == 0 || !takes_value(&args[k - 1])))
        .map(|k| args[k].as_str())
        .collect();
    match (pos.first().copied(), pos.get(1).copied()) {
        (Some("svm"), Some(dir)) => sparse(Path::new(dir), Kind::Svm, (svm_solver, pre), out),
        (Some("tsvm"), Some(dir)) => {
            let tsvm = Kind::Tsvm { switches: SvmlinParams::SWITCHES };
            sparse(Path::new(dir), tsvm, (svm_solver, pre), out)
        }
        (Some("da"), Some(dir)) => sparse(Path::new(dir), Kind::Da, (svm_solver, pre), out),
        (Some("qlds-export"), Some(file)) => qlds_export(Path::new(file), dim),
        (Some("qlds"), _) => qlds(dim),
        (Some("qlds-grid"), _) => qlds_grid(dim),
        (Some("knn-export"), Some(file)) => knn_export(Path::new(file)),
        (Some("knn"), _) => knn(out),
        _ => Err("usage: peers svm|tsvm|da DIR | qlds | qlds-grid | qlds-export FILE | knn \
                  | knn-export FILE [--threads N] [--out FILE] [--dual-cd EPSILON] \
                  [--precondition] [--dim D]"
            .into()),
    }
}

/// The sparse set as a problem: all rows but the last labeled (supervised), else the first
/// 1,000 (the rest unlabeled). The file's matrix is split in place, not copied.
fn sparse_problem(dir: &Path, supervised: bool) -> Res<Problem> {
    let (ex, lab) = (dir.join(format!("ex_{DOCS}")), dir.join(format!("lab_{DOCS}")));
    let set = sslab::data::svmlin::read(&ex, &lab, Some(WORDS)).map_err(|e| e.to_string())?;
    let n = set.x.nrows();
    Ok(set.first_labeled(if supervised { n - 1 } else { 1_000 }))
}

fn sparse(
    dir: &Path,
    kind: Kind,
    (svm_solver, precondition): (SvmSolver, bool),
    out: Option<&Path>,
) -> Res<()> {
    let p = sparse_problem(dir, kind == Kind::Svm)?;
    let params = SvmlinParams {
        lambda: 1e-3,
        lambda_u: 1.0,
        r: PositiveFraction::Fixed(0.5),
        svm_solver,
        precondition,
        ..SvmlinParams::new(kind)
    };
    let m = params.check().map_err(|e| e.to_string())?;
    let (t, cpu) = (Instant::now(), cpu_seconds()?);
    let fit = m.fit(&p).map_err(|e| e.to_string())?;
    let (secs, cpu) = (t.elapsed().as_secs_f64(), cpu_seconds()? - cpu);
    let (x, y) = if kind == Kind::Svm { (&p.x_l, &p.y_l) } else { (&p.x_u, &p.y_u) };
    let s = fit.scores(x);
    let errors = s.iter().zip(y).filter(|(s, y)| (**s >= 0.0) != (**y > 0.0)).count();
    let work = match fit.details {
        Details::Svm(r) => format!("newton={} cg={}", r.newton_steps, r.cg_iterations),
        Details::SvmDualCd(r) => format!("epochs={} converged={}", r.epochs, r.converged),
        Details::Tsvm(r) => {
            format!(
                "solves={} newton={} cg={} epochs={} objective={:.12}",
                r.solves, r.newton_steps, r.cg_iterations, r.epochs, r.objective
            )
        }
        Details::Da(r) => {
            format!("solves={} objective={:.12}", r.solves, r.best_objective)
        }
        Details::Rls { iterations } => format!("cg={iterations}"),
    };
    println!("RESULT seconds={secs:.4} cpu_seconds={cpu:.2} errors={errors} of={} {work}", y.len());
    match out {
        Some(file) => {
            let w = fit.w.iter().chain([&fit.bias]);
            write(file, &w.flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>())
        }
        None => Ok(()),
    }
}

/// The QLDS benchmark problem in dimension `d` (at d = 400 the one of `make bench`).
fn qlds_problem(d: usize) -> Problem {
    let n = 2_000;
    let mix = GaussianMixture::symmetric(d, 1.5).expect("valid mixture");
    let mut rng = ChaCha8Rng::seed_from_u64(d as u64);
    mix.sample_problem([50, 50], [(n - 100) / 2, (n - 100) / 2], &mut rng)
}

fn qlds_export(file: &Path, dim: usize) -> Res<()> {
    let p = qlds_problem(dim);
    let (x_l, x_u) = (p.x_l.to_dense(), p.x_u.to_dense());
    let mut out = Vec::new();
    header(&mut out, x_l.nrows() + x_u.nrows(), x_l.ncols(), x_l.nrows());
    let labels = p.y_l.iter().chain(p.y_u.iter());
    out.extend(x_l.iter().chain(x_u.iter()).chain(labels).flat_map(|v| v.to_le_bytes()));
    write(file, &out)
}

fn qlds(dim: usize) -> Res<()> {
    let p = qlds_problem(dim);
    let x_u = p.x_u.to_dense().into_owned();
    let q = QldsParams::new(0.5, 1.0).check().map_err(|e| e.to_string())?;
    let (mut errors, mut cpu) = (0, Vec::new());
    let ms = median((0..15).map(|_| {
        let (t, c) = (Instant::now(), process_cpu());
        let f = q.fit(&p).expect("fit");
        let predicted = std::hint::black_box(f.predict(x_u.view()));
        let secs = t.elapsed().as_secs_f64() * 1e3;
        cpu.push(process_cpu() - c);
        errors = predicted.iter().zip(&p.y_u).filter(|(a, b)| a != b).count();
        secs
    }));
    // The covariance step alone: XᵀX of the n × d training rows, n·d·(d+1) flops as a
    // symmetric product (2·n·d² as a full one), against a 1,000³ faer product (the peak).
    let all = ndarray::concatenate(ndarray::Axis(0), &[p.x_l.to_dense().view(), x_u.view()])
        .map_err(|e| e.to_string())?;
    let (n, d) = all.dim();
    let cov = median((0..15).map(|_| {
        let t = Instant::now();
        std::hint::black_box(sslab::linalg::gram(&all.view(), 1.0));
        t.elapsed().as_secs_f64()
    }));
    let sym_flops = (n * d * (d + 1)) as f64;
    let k = 1_000;
    let (a, b) = (
        Mat::<f64>::from_fn(k, k, |i, j| ((i * 7 + j) % 13) as f64),
        Mat::<f64>::from_fn(k, k, |i, j| ((i + 3 * j) % 11) as f64),
    );
    let mut c = Mat::<f64>::zeros(k, k);
    let peak = fastest((0..5).map(|_| {
        let t = Instant::now();
        faer::linalg::matmul::matmul(
            c.as_mut(),
            faer::Accum::Replace,
            a.as_ref(),
            b.as_ref(),
            1.0,
            faer::get_global_parallelism(),
        );
        t.elapsed().as_secs_f64()
    }));
    println!(
        "RESULT seconds={:.5} cpu_seconds={:.5} errors={errors} of={} cov_seconds={cov:.5} cov_gflops={:.1} cov_gflops_as_full_product={:.1} peak_gflops={:.1}",
        ms / 1e3,
        median(cpu),
        p.y_u.len(),
        sym_flops / cov / 1e9,
        2.0 * (n * d * d) as f64 / cov / 1e9,
        2.0 * (k * k * k) as f64 / peak / 1e9
    );
    Ok(())
}

/// QLDS(cv) and QLDS(th) over the default grid: median seconds of 5 whole selections (with
/// the final fit and the unlabeled scores), the chosen point and the errors.
fn qlds_grid(dim: usize) -> Res<()> {
    let p = qlds_problem(dim);
    let grid = Grid::uniform(Grid::DEFAULT_POINTS).map_err(|e| e.to_string())?;
    let mut fields = Vec::new();
    for (name, policy) in [
        ("cv", Policy::CrossValidation { folds: Policy::FOLDS }),
        ("th", Policy::Theory { scale: Scale::default() }),
    ] {
        let select = SelectQlds::new(policy, grid.clone(), LambdaPolicy::default())
            .map_err(|e| e.to_string())?;
        let mut chosen = None;
        let secs = median((0..5).map(|_| {
            let t = Instant::now();
            let s = select.run(&p).expect("selection");
            chosen = Some(std::hint::black_box(s));
            t.elapsed().as_secs_f64()
        }));
        let s = chosen.ok_or("no run")?;
        let errors = s.scores.iter().zip(&p.y_u).filter(|(s, y)| (**s >= 0.0) != (**y > 0.0));
        fields.push(format!(
            "{name}_seconds={secs:.5} {name}_alpha_l={} {name}_alpha_u={} {name}_errors={}",
            s.alpha_l,
            s.alpha_u,
            errors.count()
        ));
    }
    println!("RESULT {} of={} points={}", fields.join(" "), p.y_u.len(), grid.len());
    Ok(())
}

fn usps() -> Res<ndarray::Array2<f64>> {
    use sslab::data::load::load_named;
    use sslab::support::data_dir;
    let registry = sslab::data::registry::Registry::builtin().map_err(|e| e.to_string())?;
    let usps = load_named(&registry, "usps", &data_dir(), None).map_err(|e| e.to_string())?;
    Ok(usps.x.to_dense().into_owned())
}

fn knn_export(file: &Path) -> Res<()> {
    let x = usps()?;
    let mut out = Vec::new();
    header(&mut out, x.nrows(), x.ncols(), 0);
    out.extend(x.iter().flat_map(|v| v.to_le_bytes()));
    write(file, &out)
}

fn knn(out: Option<&Path>) -> Res<()> {
    let x = usps()?;
    let t = Instant::now();
    let g = KnnGraph::default().build(x.view()).map_err(|e| e.to_string())?;
    let secs = t.elapsed().as_secs_f64();
    // A fingerprint of every edge and weight bit, to compare builds across versions.
    let mut sum = 0u64;
    for i in 0..x.nrows() {
        for (j, w) in g.row(i) {
            sum = sum.wrapping_mul(31).wrapping_add(w.to_bits() ^ (i * x.nrows() + j) as u64);
        }
    }
    println!("RESULT seconds={secs:.4} entries={} fingerprint={sum:016x}", g.nnz());
    match out {
        Some(file) => {
            let pairs = (0..x.nrows())
                .flat_map(|i| g.row(i).filter(move |e| e.0 > i).map(move |e| (i, e.0)));
            let bytes = pairs.flat_map(|(i, j)| [i as u32, j as u32]).flat_map(u32::to_le_bytes);
            write(file, &bytes.collect::<Vec<u8>>())
        }
        None => Ok(()),
    }
}

/// CPU time of this process (user + system, from `/proc/self/stat`, in clock ticks of
/// 1/100 s): what SVMlin's own timer (`clock()`) reports, so the two compare alike on a
/// busy machine.
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

/// CPU time of this process in seconds, every thread's (`CLOCK_PROCESS_CPUTIME_ID`, to the
/// nanosecond): what the machine's other work takes from a run shows less in it than in
/// wall time.
fn process_cpu() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

fn write(file: &Path, bytes: &[u8]) -> Res<()> {
    std::fs::write(file, bytes).map_err(|e| format!("{}: {e}", file.display()))?;
    println!("RESULT bytes={}", bytes.len());
    Ok(())
}

fn header(out: &mut Vec<u8>, rows: usize, cols: usize, labeled: usize) {
    for v in [rows, cols, labeled] {
        out.write_all(&(v as f64).to_le_bytes()).expect("in memory");
    }
}

fn fastest(it: impl Iterator<Item = f64>) -> f64 {
    it.fold(f64::INFINITY, f64::min)
}
