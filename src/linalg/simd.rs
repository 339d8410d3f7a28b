//! Vector registers: their state after faer's kernels, and kernels run on the widest.

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

/// Runs `k` compiled for AVX-512 or AVX2 when the CPU has them, else for the baseline.
/// Results are the same in every width: IEEE sums and products round the same whatever
/// the register, and Rust never fuses them into multiply-adds.
pub fn widest<K: Kernel>(k: K) -> K::Output {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
        {
            // SAFETY: the CPU has AVX-512F and AVX-512VL.
            return unsafe { avx512(k) };
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has AVX2 and FMA.
            return unsafe { avx2(k) };
        }
    }
    k.run()
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
