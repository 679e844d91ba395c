//! Asks the kernel to back a large table with huge pages (2 MiB on x86-64
//! Linux) where it only does so on request (transparent huge pages in
//! `madvise` mode, a common default). A table probed at random addresses
//! otherwise misses the processor's address cache (TLB) on almost every
//! probe, and each miss walks the page tables in memory: with huge pages a
//! 64 MiB table is 32 pages instead of 16,384.

use std::collections::TryReserveError;
use std::ops::Range;

/// The size of a huge page.
const HUGE_PAGE: usize = 2 << 20;

#[cfg(target_os = "linux")]
extern "C" {
    fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
}

/// `MADV_HUGEPAGE` of Linux.
#[cfg(target_os = "linux")]
const MADV_HUGEPAGE: i32 = 14;

/// The whole huge pages inside the addresses `start..start + len`, if any.
fn whole_pages(start: usize, len: usize) -> Option<Range<usize>> {
    let first = start.checked_next_multiple_of(HUGE_PAGE)?;
    let last = start.checked_add(len)? / HUGE_PAGE * HUGE_PAGE;
    (first < last).then_some(first..last)
}

/// Advises huge pages for the whole huge pages inside `memory`, which should
/// not have been written yet (pages already touched keep their size until the
/// kernel merges them). Only a hint: a kernel that refuses it changes
/// nothing but speed, so its answer is not checked.
pub fn advise<T>(memory: &mut [T]) {
    let Some(pages) = whole_pages(memory.as_mut_ptr() as usize, std::mem::size_of_val(memory)) else {
        return;
    };
    #[cfg(target_os = "linux")]
    // SAFETY: the range lies inside memory this process owns (`memory`);
    // this advice changes neither its contents nor its mapping.
    unsafe {
        madvise(pages.start as *mut std::ffi::c_void, pages.len(), MADV_HUGEPAGE);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = pages;
}

/// `n` values made by `fill`, in memory advised for huge pages before the
/// first write, or the error of reserving it (a table sized from outside
/// must not abort the process).
pub fn try_filled_with<T>(n: usize, fill: impl FnMut() -> T) -> Result<Vec<T>, TryReserveError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)?;
    advise(v.spare_capacity_mut());
    v.resize_with(n, fill);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_whole_huge_pages_inside_the_memory_are_advised() {
        let mb = 1 << 20;
        assert_eq!(whole_pages(0, 4 * mb), Some(0..4 * mb));
        assert_eq!(whole_pages(16, 4 * mb), Some(2 * mb..4 * mb));
        assert_eq!(whole_pages(16, 4 * mb + 16), Some(2 * mb..4 * mb));
        assert_eq!(whole_pages(mb, 2 * mb), None);
        assert_eq!(whole_pages(16, 64), None);
        assert_eq!(whole_pages(usize::MAX - 16, 8), None);
    }

    #[test]
    fn advising_leaves_the_memory_as_it_was() {
        let mut table = vec![7u64; (5 * HUGE_PAGE) / 8];
        advise(&mut table);
        advise(&mut table[..3]);
        assert!(table.iter().all(|&x| x == 7));
    }

    #[test]
    fn a_filled_table_holds_its_values_and_an_impossible_one_is_an_error() {
        let mut next = 0;
        let v = try_filled_with(3 << 20, || {
            next += 1;
            next
        })
        .expect("12 MiB");
        assert_eq!((v.len(), v[0], v[(3 << 20) - 1]), (3 << 20, 1, 3 << 20));
        assert!(try_filled_with(usize::MAX / 2, || 0u64).is_err());
    }
}
