//! A hint to the processor to start loading memory that will be read soon:
//! tables far larger than the caches cost a wait for memory at every probe
//! otherwise.

/// Starts fetching the cache line holding `data`.
#[inline]
pub fn prefetch<T>(data: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it never faults nor changes memory.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((data as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = data;
}
