//! Data loading benchmarks (one thread): SVMlight parsing throughput in MB/s of
//! uncompressed text (target ≥ 100 MB/s), the MATLAB `.mat` reader's MB/s (SSL-book SecStr
//! and other originals, parsed from memory), and the peak heap allocated while loading a9a
//! compared with its CSR size (target ≤ 2×), tracked by a counting global allocator.
//! Run with `make bench-data`; reads the mirror (`$SSLAB_DATA_MIRROR`, else ../shared/data).

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use common::median;
use rand::{Rng, SeedableRng};
use sslab::data::mat;
use sslab::data::svmlight::{self, SvmlightOptions};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // Counted as alloc-new-then-free-old: the moment both blocks may exist.
            let now = CURRENT.fetch_add(new_size, Ordering::Relaxed) + new_size;
            PEAK.fetch_max(now, Ordering::Relaxed);
            CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// MB/s (10⁶ bytes) of parsing `text` from memory, median of `reps` runs.
fn throughput(text: &[u8], opts: &SvmlightOptions, reps: usize) -> f64 {
    let secs = (0..reps).map(|_| {
        let t = Instant::now();
        let f = svmlight::parse(text, Path::new("bench"), opts).expect("valid benchmark input");
        std::hint::black_box(f);
        t.elapsed().as_secs_f64()
    });
    text.len() as f64 / 1e6 / median(secs)
}

/// 200k rows of 40 random features among 5000, values as Python-style shortest floats.
fn synthetic_text() -> Vec<u8> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let mut out = String::new();
    for i in 0..200_000 {
        out.push_str(if i % 2 == 0 { "+1" } else { "-1" });
        let mut j = 0;
        for _ in 0..40 {
            j += rng.random_range(1..120);
            out.push_str(&format!(" {j}:{:?}", rng.random::<f64>()));
        }
        out.push('\n');
    }
    out.into_bytes()
}

/// MB/s of parsing the `.mat` bytes `bytes` from memory, median of `reps` runs.
fn mat_throughput(bytes: &[u8], reps: usize) -> f64 {
    let secs = (0..reps).map(|_| {
        let t = Instant::now();
        std::hint::black_box(mat::parse(bytes, Path::new("bench")).expect("valid .mat file"));
        t.elapsed().as_secs_f64()
    });
    bytes.len() as f64 / 1e6 / median(secs)
}

/// The `.mat` reader on the mirror's originals (gzip'd ones decompressed beforehand).
fn mat_bench(mirror: &Path) {
    println!(
        "\n| .mat file | MB (uncompressed) | what | parse MB/s (median, 1 thread) |\n|---|---|---|---|"
    );
    let files = [
        ("ssl_book/mat/data8.mat.gz", "SecStr: T uint8 83679x15, y"),
        ("ssl_book/mat/splits8-labeled10000.mat.gz", "SecStr splits: idxLabs, idxUnls double"),
        ("ssl_book/mat/data1.mat", "Digit1: X double 1500x241"),
        ("ssl_book/mat/data9.mat", "Text: X sparse double 1500x11960"),
        ("pcmac/PCMAC.mat", "PCMAC: fea uint8 1943x3289, zlib-compressed"),
    ];
    for (f, what) in files {
        let Ok(raw) = std::fs::read(mirror.join(f)) else {
            println!("| {f} | - | {what} | skipped: not in {} |", mirror.display());
            continue;
        };
        let mut bytes = Vec::new();
        if f.ends_with(".gz") {
            use std::io::Read;
            flate2::read::GzDecoder::new(raw.as_slice())
                .read_to_end(&mut bytes)
                .expect("valid gzip");
        } else {
            bytes = raw;
        }
        println!(
            "| {f} | {:.2} | {what} | {:.0} |",
            bytes.len() as f64 / 1e6,
            mat_throughput(&bytes, 21)
        );
    }
}

fn main() {
    let mirror = std::env::var_os("SSLAB_DATA_MIRROR")
        .map_or_else(|| PathBuf::from("../shared/data"), PathBuf::from);
    println!("| input | MB | parse MB/s (median, 1 thread) |\n|---|---|---|");
    let synth = synthetic_text();
    let opts = SvmlightOptions::default();
    println!(
        "| synthetic 200k x 40 nnz, f64 values | {:.1} | {:.0} |",
        synth.len() as f64 / 1e6,
        throughput(&synth, &opts, 5)
    );
    drop(synth);
    let files = [
        "adult/a9a",
        "adult/a9a.t",
        "amazon/svmlight/books_400.svm",
        "pcmac/pcmac.svm",
        "mushrooms/mushrooms",
    ];
    let mut all = Vec::new();
    for f in files {
        let Ok(text) = std::fs::read(mirror.join(f)) else {
            println!("| {f} | - | skipped: not in {} |", mirror.display());
            continue;
        };
        println!("| {f} | {:.1} | {:.0} |", text.len() as f64 / 1e6, throughput(&text, &opts, 9));
        all.extend_from_slice(&text);
    }
    if !all.is_empty() {
        println!(
            "| all of the above, concatenated | {:.1} | {:.0} |",
            all.len() as f64 / 1e6,
            throughput(&all, &opts, 9)
        );
    }
    drop(all);
    mat_bench(&mirror);

    let a9a = mirror.join("adult/a9a");
    if a9a.is_file() {
        let opts = SvmlightOptions { n_features: Some(123), ..Default::default() };
        let base = CURRENT.load(Ordering::Relaxed);
        PEAK.store(base, Ordering::Relaxed);
        let f = svmlight::read(&a9a, &opts).expect("a9a loads");
        let peak = PEAK.load(Ordering::Relaxed) - base;
        let csr = f.x.size_bytes() + f.labels.len() * 8;
        println!(
            "\na9a load (file → CSR + labels): peak heap {:.2} MB, CSR + labels {:.2} MB, ratio {:.2} (target ≤ 2)",
            peak as f64 / 1e6,
            csr as f64 / 1e6,
            peak as f64 / csr as f64
        );
    }
}
