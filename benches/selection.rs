//! Cost of choosing (α_l, α_u) per split on a 20×20 grid, d = 400, n = 2000 (100 labeled):
//! QLDS(th) (theory over the grid + the final fit), QLDS(cv) with 10 folds through the
//! eigenbasis of C_u, QLDS(or), and the naive 10-fold cv (a d×d Cholesky per grid point
//! and fold). One thread; medians of repeated runs. Run with `make bench-selection`.
//! Targets: th + fit < 50 ms; fast cv < 10× th.

mod common;

use std::time::Instant;

use common::median;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sslab::data::Sampler;
use sslab::data::synthetic::GaussianMixture;
use sslab::methods::qlds::selection::{Grid, Policy, SelectQlds, naive};
use sslab::methods::qlds::theory::Scale;
use sslab::methods::qlds::{LambdaPolicy, Moments};

/// Median wall time of `reps` runs of `f`, in ms.
fn median_ms(reps: usize, mut f: impl FnMut()) -> f64 {
    median((0..reps).map(|_| {
        let t = Instant::now();
        f();
        t.elapsed().as_secs_f64() * 1e3
    }))
}

fn main() {
    faer::set_global_parallelism(faer::Par::Seq);
    let (d, n_l, n_u) = (400, 100, 1900);
    let mixture = GaussianMixture::symmetric(d, 1.5).expect("valid mixture");
    let p = mixture.sample_problem([n_l / 2; 2], [n_u / 2; 2], &mut ChaCha8Rng::seed_from_u64(400));
    let grid = Grid::uniform(20).expect("valid grid");
    let policy = LambdaPolicy::default();
    let select = |pol| SelectQlds::new(pol, grid.clone(), policy).expect("valid selection");
    let p = &p;
    let run = |pol| {
        let s = select(pol);
        move || {
            std::hint::black_box(s.run(p).expect("selection runs"));
        }
    };
    let th = median_ms(11, run(Policy::Theory { scale: Scale::LabeledWithin }));
    let cv = median_ms(5, run(Policy::CrossValidation { folds: 10 }));
    let or = median_ms(5, run(Policy::Oracle));
    let prep = Moments::new(p).expect("prepared");
    let lambda = 1.001 * prep.top_eig_all().expect("eigenvalue");
    let naive_cv = median_ms(1, || {
        std::hint::black_box(naive::cv_errors(&prep, &grid, lambda, 10).expect("naive cv"));
    });
    println!("d = {d}, n_l = {n_l}, n_u = {n_u}, grid 20×20, one thread, per split (ms, median)\n");
    println!("| policy | time (ms) | × th |\n|---|---|---|");
    for (name, t) in [
        ("th + fit", th),
        ("cv, 10 folds, eigenbasis + Woodbury", cv),
        ("oracle, eigenbasis", or),
        ("cv, 10 folds, naive (selection only)", naive_cv),
    ] {
        println!("| {name} | {t:.1} | {:.1} |", t / th);
    }
}
