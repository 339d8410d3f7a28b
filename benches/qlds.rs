//! QLDS fit + predict time per split (median of repeated runs, one thread), for
//! d ∈ {100, 400, 1000} with n = 5d points of which 100 labeled.
//! Run with `make bench`; the target is < 50 ms at d = 400, n = 2000.

mod common;

use std::time::Instant;

use common::median;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sslab::data::Sampler;
use sslab::data::synthetic::GaussianMixture;
use sslab::methods::qlds::QldsParams;

fn main() {
    faer::set_global_parallelism(faer::Par::Seq);
    println!("| d | n | n_l | QLDS fit + predict (ms, median) |\n|---|---|---|---|");
    for d in [100, 400, 1000] {
        let n = 5 * d;
        let mix = GaussianMixture::symmetric(d, 1.5).expect("valid mixture");
        let mut rng = ChaCha8Rng::seed_from_u64(d as u64);
        let p = mix.sample_problem([50, 50], [(n - 100) / 2, (n - 100) / 2], &mut rng);
        let x_u = p.x_u.to_dense();
        let q = QldsParams::new(0.5, 1.0).check().expect("valid parameters");
        let reps = if d >= 1000 { 5 } else { 15 };
        let times: Vec<f64> = (0..reps)
            .map(|_| {
                let t = Instant::now();
                let f = q.fit(&p).expect("fit");
                std::hint::black_box(f.predict(x_u.view()));
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        println!("| {d} | {n} | 100 | {:.1} |", median(times));
    }
}
