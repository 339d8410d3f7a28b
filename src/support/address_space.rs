//! Address space under a cap (`ulimit -v`, `RLIMIT_AS`, as clusters set it): every worker
//! thread reserves address space of its own, mostly in a dependency (faer's x86 matrix
//! products keep a thread-local packing buffer of twice the L3 cache, e.g. 520 MiB for a
//! 260 MiB L3, reserved at a thread's first product and never touched in full; plus its stack
//! and malloc arena). sslab cannot size that buffer, so under a cap it measures what one
//! worker reserves and runs no more workers than three quarters of the free address space
//! holds (the rest is left for the data), saying so; without a cap nothing changes.

/// `RLIMIT_AS` in bytes, None when unlimited.
pub fn cap() -> Option<f64> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes one rlimit into the struct it is given.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur as f64)
}

/// The process's address space in use (`VmSize` of /proc/self/status), bytes.
fn in_use() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = status.lines().find(|l| l.starts_with("VmSize:"))?.split_whitespace().nth(1)?;
    kb.parse::<f64>().ok().map(|kb| kb * 1024.0)
}

/// The address space left under the cap, None without a cap.
pub fn free() -> Option<f64> {
    Some((cap()? - in_use()?).max(0.0))
}

/// What one worker thread reserves: a probe thread's growth of the address space after one
/// dense product (which makes faer reserve its buffer), bytes; 0 when it cannot be read.
fn per_worker() -> f64 {
    let before = in_use();
    let grown = std::thread::spawn(move || {
        let a = faer::Mat::<f64>::from_fn(96, 96, |i, j| (i + j) as f64);
        let product = &a * &a;
        std::hint::black_box(product);
        Some(in_use()? - before?)
    })
    .join();
    grown.ok().flatten().unwrap_or(0.0).max(0.0)
}

/// How many of `requested` workers fit under the cap (at least one; all without a cap), and
/// when fewer, the free address space and what each worker reserves (bytes).
pub fn workers(requested: usize) -> (usize, Option<(f64, f64)>) {
    let Some(free) = free() else { return (requested, None) };
    let each = per_worker();
    if each <= 0.0 {
        return (requested, None);
    }
    let fit = ((0.75 * free / each) as usize).max(1);
    if fit >= requested {
        return (requested, None);
    }
    (fit, Some((free, each)))
}
