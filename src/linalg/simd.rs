//! Vector registers: the one place sslab's kernels choose their instruction set
//! ([`level`], forced narrower by `SSLAB_SIMD` so that tests run every path on one
//! machine), their state after faer's kernels, and kernels run on the widest.

use std::ffi::OsStr;
use std::sync::OnceLock;

use crate::error::{Error, Result};

/// The instruction sets sslab's own kernels are written for, narrowest first (faer's
/// products choose their own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// No vector extension beyond the baseline (SSE2 on x86-64).
    Scalar,
    /// AVX2 with FMA.
    Avx2,
    /// AVX-512F with AVX-512VL (and AVX2, FMA).
    Avx512,
}

/// The environment variable that forces a narrower [`Level`]: `scalar`, `avx2` or `avx512`.
pub const FORCE_VAR: &str = "SSLAB_SIMD";

/// The widest level the CPU has.
pub fn cpu() -> Level {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("avx2") && has!("fma") {
            return if has!("avx512f") && has!("avx512vl") { Level::Avx512 } else { Level::Avx2 };
        }
    }
    Level::Scalar
}

/// The level `SSLAB_SIMD` asks for (None when unset); an error names the variable and the
/// values it takes.
pub fn forced() -> Result<Option<Level>> {
    std::env::var_os(FORCE_VAR).map(|v| parse(&v)).transpose()
}

/// A value of `SSLAB_SIMD`.
fn parse(value: &OsStr) -> Result<Level> {
    match value.to_str() {
        Some("scalar") => Ok(Level::Scalar),
        Some("avx2") => Ok(Level::Avx2),
        Some("avx512") => Ok(Level::Avx512),
        _ => Err(Error::Param {
            param: FORCE_VAR,
            message: format!("`{}` is not scalar, avx2 or avx512", value.to_string_lossy()),
        }),
    }
}

/// The level every kernel of sslab runs at: the CPU's widest, or the narrower one that
/// `SSLAB_SIMD` forces (never wider than the CPU's; an invalid value is ignored here, and
/// refused by the command line). Read once per process.
pub fn level() -> Level {
    static LEVEL: OnceLock<Level> = OnceLock::new();
    *LEVEL.get_or_init(|| match forced() {
        Ok(Some(forced)) => forced.min(cpu()),
        _ => cpu(),
    })
}

/// Clears the upper halves of the AVX registers (`vzeroupper`) when the CPU has AVX; a no-op
/// otherwise. faer's AVX-512 gemm kernels return without it, and until it runs every scalar
/// (non-VEX SSE) instruction on the same thread is ~3.5× slower (graph ROF iteration: 238 µs
/// against 68 µs). Call after faer products and before scalar hot loops; values are unchanged.
pub fn clear_upper_simd() {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: AVX is present; `vzeroupper` only zeroes bits 128 and up of the vector
        // registers, which the C ABI treats as clobbered across this call.
        unsafe { std::arch::asm!("vzeroupper", clobber_abi("C")) }
    }
}

/// A hot loop that LLVM vectorizes: [`widest`] compiles its `run` (mark it and its helpers
/// `#[inline(always)]`) for the widest vector unit the CPU has.
pub trait Kernel {
    type Output;
    /// The loop.
    fn run(self) -> Self::Output;
}

/// Runs `k` compiled for the [`level`]: AVX-512, AVX2 or the baseline. Results are the
/// same in every width: IEEE sums and products round the same whatever the register, and
/// Rust never fuses them into multiply-adds.
pub fn widest<K: Kernel>(k: K) -> K::Output {
    match level() {
        // SAFETY: `level` is never wider than the CPU: it has AVX-512F and AVX-512VL.
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => unsafe { avx512(k) },
        // SAFETY: as above, the CPU has AVX2 and FMA.
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => unsafe { avx2(k) },
        _ => k.run(),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl")]
fn avx512<K: Kernel>(k: K) -> K::Output {
    k.run()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn avx2<K: Kernel>(k: K) -> K::Output {
    k.run()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forced_levels_parse_and_others_are_refused_by_name() {
        assert_eq!(parse(OsStr::new("scalar")).unwrap(), Level::Scalar);
        assert_eq!(parse(OsStr::new("avx2")).unwrap(), Level::Avx2);
        assert_eq!(parse(OsStr::new("avx512")).unwrap(), Level::Avx512);
        for bad in ["", "AVX2", "sse", "avx512 "] {
            let e = parse(OsStr::new(bad)).unwrap_err().to_string();
            assert!(e.contains("SSLAB_SIMD") && e.contains("scalar, avx2 or avx512"), "{e}");
        }
    }

    #[test]
    fn the_level_is_never_wider_than_the_cpu() {
        assert!(level() <= cpu());
        if let Ok(Some(forced)) = forced() {
            assert_eq!(level(), forced.min(cpu()), "{FORCE_VAR} is obeyed");
        }
    }
}
