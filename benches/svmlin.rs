//! SVMlin benchmarks on synthetic two-topic sparse text with 50 words per document
//! (`make bench-svmlin`, one thread), by SVMlin's own solver (MFN, not the default dual CD).
//! Sections, selectable by the first argument:
//! - `mfn`: l2-SVM-MFN on 10⁵ documents × 5·10⁴ words (target < 5 s);
//! - `switch`: TSVM with S = 1 against multi-switch (S = 10000), time and error;
//! - `da-path`: the DA objectives along the temperature path: `results/svmlin_da_path.csv`,
//!   `figures/svmlin_da_path.png`.

use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sslab::data::sparse_text::SparseText;
use sslab::data::{Features, Problem, Sampler, error_rate};
use std::path::Path;

use sslab::methods::svmlin::{Details, Kind, SvmSolver, SvmlinParams};
use sslab::report::figures::{AnnealingPlot, annealing_plot};
use sslab::stats::prbep;

const NNZ: usize = 50;

/// `docs` documents of which `labeled` labeled, equal classes; `topic_weight` sets the
/// difficulty (0.2: about 19% supervised error with 50 labels, 0.3: about 7% after TSVM).
fn problem(
    docs: usize,
    labeled: usize,
    vocabulary: usize,
    topic_weight: f64,
    seed: u64,
) -> Problem {
    let text = SparseText::new(vocabulary, NNZ, topic_weight, 1.0).expect("valid generator");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let u = docs - labeled;
    text.sample_problem([labeled / 2, labeled - labeled / 2], [u / 2, u - u / 2], &mut rng)
}

/// CPU seconds of this process so far, all threads (the fits' mat-vecs run on the rayon
/// pool; Linux `/proc`, 100 ticks per second): the machine is shared, so wall time alone
/// overstates the cost when other jobs run.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let tick = |k: usize| fields.get(k).and_then(|v| v.parse::<f64>().ok()).unwrap_or(f64::NAN);
    (tick(11) + tick(12)) / 100.0
}

/// Fits and returns (CPU seconds, unlabeled error, unlabeled PRBEP, solver details); prints
/// the wall time alongside.
fn run(p: &Problem, params: SvmlinParams) -> (f64, f64, f64, Details) {
    let m = params.check().expect("valid parameters");
    let (t, cpu) = (Instant::now(), cpu_seconds());
    let fit = m.fit(p).expect("fit");
    let secs = cpu_seconds() - cpu;
    eprintln!("  {:?}: wall {:.2} s, CPU {secs:.2} s", params.kind, t.elapsed().as_secs_f64());
    let s = fit.scores(&p.x_u);
    (secs, error_rate(s.view(), p.y_u.view()), prbep(s.view(), p.y_u.view()), fit.details)
}

fn mfn() {
    println!(
        "| documents | words | nnz | λ | MFN CPU time (s) | wall (s) | Newton steps | CG iterations | training error (%) |\n|---|---|---|---|---|---|---|---|---|"
    );
    // All 10⁵ documents labeled: the supervised l2-SVM on the full matrix (costs 1).
    let text = SparseText::new(50_000, NNZ, 0.2, 1.0).expect("valid generator");
    let data = text.sample([50_000, 50_000], &mut ChaCha8Rng::seed_from_u64(1));
    let (x_u, y_u) = (data.x.select_rows(&[0]), data.y.slice(ndarray::s![..1]).to_owned());
    let p = Problem::new(data.x, data.y, x_u, y_u);
    for lambda in [1.0, 0.1] {
        let m = SvmlinParams { lambda, svm_solver: SvmSolver::Mfn, ..SvmlinParams::new(Kind::Svm) }
            .check()
            .expect("valid parameters");
        let (t, cpu) = (Instant::now(), cpu_seconds());
        let fit = m.fit(&p).expect("fit");
        let (wall, secs) = (t.elapsed().as_secs_f64(), cpu_seconds() - cpu);
        let Details::Svm(rep) = fit.details else { unreachable!("svm details") };
        let err = error_rate(fit.scores(&p.x_l).view(), p.y_l.view());
        println!(
            "| {} | 50000 | {} | {lambda} | {secs:.2} | {wall:.2} | {} | {} | {:.2} |",
            p.n_labeled(),
            nnz(&p.x_l),
            rep.newton_steps,
            rep.cg_iterations,
            100.0 * err
        );
    }
}

fn nnz(x: &Features) -> usize {
    match x {
        Features::Sparse(c) => c.nnz(),
        Features::Dense(d) => d.len(),
    }
}

fn switch() {
    println!(
        "| unlabeled | S | CPU time (s) | MFN calls | Newton steps | CG iterations | switch rounds | pairs | error (%) | PRBEP (%) |\n|---|---|---|---|---|---|---|---|---|---|"
    );
    for u in [5_000, 20_000] {
        let p = problem(u + 50, 50, 20_000, 0.2, 2);
        let mut times = Vec::new();
        for switches in [1, 10_000] {
            let params = SvmlinParams {
                lambda: 1e-3,
                svm_solver: SvmSolver::Mfn,
                ..SvmlinParams::new(Kind::Tsvm { switches })
            };
            let (secs, err, pr, details) = run(&p, params);
            let Details::Tsvm(rep) = details else { unreachable!("tsvm details") };
            println!(
                "| {u} | {switches} | {secs:.2} | {} | {} | {} | {} | {} | {:.2} | {:.2} |",
                rep.solves,
                rep.newton_steps,
                rep.cg_iterations,
                rep.switch_rounds,
                rep.pairs_switched,
                100.0 * err,
                100.0 * pr
            );
            times.push(secs);
        }
        println!("speed-up of multi-switch at u = {u}: {:.1}×", times[0] / times[1]);
    }
}

fn da_path() {
    let p = problem(10_050, 50, 20_000, 0.2, 4);
    // SVMlin's own solver (MFN), as when the committed path was drawn.
    let m =
        SvmlinParams { lambda: 1e-3, svm_solver: SvmSolver::Mfn, ..SvmlinParams::new(Kind::Da) }
            .check()
            .expect("valid parameters");
    let fit = m.fit(&p).expect("fit");
    let Details::Da(rep) = &fit.details else { unreachable!("da details") };
    let s = fit.scores(&p.x_u);
    let mut rows =
        vec!["temperature,annealed_objective,objective,mean_entropy,inner_iterations".to_string()];
    for st in &rep.path {
        rows.push(format!(
            "{},{},{},{},{}",
            st.temperature,
            st.annealed_objective,
            st.objective,
            st.mean_entropy,
            st.inner_iterations
        ));
    }
    write(Path::new("results/svmlin_da_path.csv"), &(rows.join("\n") + "\n"));
    let plot = AnnealingPlot {
        path: rep
            .path
            .iter()
            .map(|st| (st.temperature, st.annealed_objective, st.objective))
            .collect(),
        best: rep.best_objective,
        title: format!(
            "DA on synthetic text (u = {}): error {:.2}%, {} MFN calls",
            p.n_unlabeled(),
            100.0 * error_rate(s.view(), p.y_u.view()),
            rep.solves
        ),
        stamp: stamp("make svmlin-figures"),
    };
    let out = Path::new("figures/svmlin_da_path.png");
    annealing_plot(&plot, out).expect("annealing figure");
    println!(
        "{} temperatures, best S3VM objective {:.6}; wrote results/svmlin_da_path.csv and {}",
        rep.path.len(),
        rep.best_objective,
        out.display()
    );
}

fn write(path: &Path, text: &str) {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("output folder");
    }
    std::fs::write(path, text).expect("write output");
}

/// The provenance stamp (commit) with the command that produced a figure.
fn stamp(command: &str) -> String {
    format!("{} · {command}", sslab::report::stamp("bench"))
}

fn main() {
    // One thread, as documented (the fits' mat-vecs would otherwise use the whole pool).
    rayon::ThreadPoolBuilder::new().num_threads(1).build_global().expect("first pool");
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    match args.first().map(String::as_str) {
        Some("mfn") => mfn(),
        Some("switch") => switch(),
        Some("da-path") => da_path(),
        _ => {
            mfn();
            switch();
        }
    }
}
