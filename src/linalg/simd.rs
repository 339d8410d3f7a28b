//! Vector-register state after faer's kernels.

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
