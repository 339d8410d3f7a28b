//! Exact k = 10 self-tuning kNN graph on all 9,298 USPS digits (train + test, d = 256):
//! median wall time of 3 builds, the distance blocks spread over all cores by rayon,
//! and the process CPU time per build (user + system, all threads; from /proc, so that a
//! busy shared machine can be told apart from a slow build). Target: < 3 s. Run with `make bench-graph` (data from $SSLAB_DATA_DIR, default `data/`).

use std::time::Instant;

use sslab::data::load::load_named;
use sslab::data::registry::Registry;
use sslab::methods::graph::KnnGraph;
use sslab::support::data_dir;

fn main() -> Result<(), String> {
    let registry = Registry::builtin().map_err(|e| e.to_string())?;
    let usps = load_named(&registry, "usps", &data_dir(), None).map_err(|e| e.to_string())?;
    let x = usps.x.to_dense();
    let knn = KnnGraph::default();
    let mut times = Vec::new();
    let mut nnz = 0;
    let cpu_start = cpu_seconds();
    for _ in 0..3 {
        let t = Instant::now();
        let graph = knn.build(x.view()).map_err(|e| e.to_string())?;
        times.push(t.elapsed().as_secs_f64());
        nnz = graph.nnz();
    }
    let cpu = (cpu_seconds() - cpu_start) / 3.0;
    times.sort_by(f64::total_cmp);
    println!(
        "kNN graph (k = {}, {}) on USPS {} x {}: median {:.2} s wall over 3 builds (min {:.2}, max {:.2}), {:.2} s CPU per build, {} stored entries",
        knn.k,
        knn.weighting.name(),
        x.nrows(),
        x.ncols(),
        times[1],
        times[0],
        times[2],
        cpu,
        nnz
    );
    Ok(())
}

/// User + system CPU seconds of this process so far (fields 14 and 15 of /proc/self/stat,
/// in clock ticks of 1/100 s); NaN where /proc is missing.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after_name = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    match (ticks(11), ticks(12)) {
        (Some(u), Some(s)) => (u + s) / 100.0,
        _ => f64::NAN,
    }
}
