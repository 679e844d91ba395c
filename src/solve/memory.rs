//! Memory, measured rather than assumed: what the solvers' containers hold
//! (from their capacities, as the allocator was asked for it, growth
//! included: a growing container holds its old buffer and its new one at
//! once), the memory limit a run gets by default (a share of the
//! machine's), the process's peak resident memory, and handing freed
//! memory back to the system after a run.

use super::SolveError;
use std::collections::HashMap;
use std::hash::Hash;

/// Bytes a vector's buffer holds.
pub fn vec_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity().saturating_mul(std::mem::size_of::<T>())
}

/// Bytes of the new buffer a vector allocates to take `more` items (0 when
/// they fit): Rust's vectors at least double.
pub fn vec_growth<T>(v: &Vec<T>, more: usize) -> usize {
    let needed = v.len().saturating_add(more);
    if needed <= v.capacity() {
        return 0;
    }
    let minimum = match std::mem::size_of::<T>() {
        1 => 8,
        2..=1024 => 4,
        _ => 1,
    };
    needed.max(v.capacity().saturating_mul(2)).max(minimum).saturating_mul(std::mem::size_of::<T>())
}

/// Bytes of a hash table with `buckets` slots of `K, V`: the slots, a
/// control byte each and a group of control bytes more (the layout of the
/// standard library's SwissTable).
fn table_bytes<K, V>(buckets: usize) -> usize {
    if buckets == 0 {
        return 0;
    }
    buckets.saturating_mul(std::mem::size_of::<(K, V)>() + 1).saturating_add(16)
}

/// The slots of a table that holds `capacity` entries before it grows:
/// tables are powers of two filled to seven eighths (small ones to one
/// less than full).
fn buckets_of(capacity: usize) -> usize {
    match capacity {
        0 => 0,
        1..=6 => capacity + 1,
        _ => capacity / 7 * 8,
    }
}

/// The slots a table grows to so as to hold `items`.
fn buckets_for(items: usize) -> usize {
    match items {
        0 => 0,
        1..=3 => 4,
        4..=7 => 8,
        _ => items.saturating_mul(8).div_ceil(7).next_power_of_two(),
    }
}

/// Bytes a hash map's table holds.
pub fn map_bytes<K, V>(map: &HashMap<K, V>) -> usize {
    table_bytes::<K, V>(buckets_of(map.capacity()))
}

/// Bytes of the new table a map allocates to take `more` entries (0 when
/// they fit).
pub fn map_growth<K, V>(map: &HashMap<K, V>, more: usize) -> usize {
    let needed = map.len().saturating_add(more);
    if needed <= map.capacity() {
        return 0;
    }
    table_bytes::<K, V>(buckets_for(needed.max(map.capacity() + 1)))
}

/// What the allocator takes for a block of `bytes` on the heap (glibc:
/// 8 bytes of header, 16-byte steps, 32 at least).
pub fn heap_block(bytes: usize) -> usize {
    (bytes.saturating_add(8 + 15) & !15).max(32)
}

/// Grows `map` for `more` entries; an allocation that fails is a run over
/// its limit.
pub fn reserve_map<K: Hash + Eq, V>(
    map: &mut HashMap<K, V>,
    more: usize,
    limit: usize,
) -> Result<(), SolveError> {
    map.try_reserve(more).map_err(|_| SolveError::OverMemory(limit))
}

/// Grows `v` for `more` items; an allocation that fails is a run over its
/// limit.
pub fn reserve_vec<T>(v: &mut Vec<T>, more: usize, limit: usize) -> Result<(), SolveError> {
    v.try_reserve(more).map_err(|_| SolveError::OverMemory(limit))
}

/// A vector of `n` copies of `value`, or a run over its limit when the
/// memory cannot be had.
pub fn filled_vec<T: Clone>(n: usize, value: T, limit: usize) -> Result<Vec<T>, SolveError> {
    crate::huge_pages::try_filled_with(n, || value.clone()).map_err(|_| SolveError::OverMemory(limit))
}

/// The value of a `/proc` line such as `MemTotal:  24684096 kB`, in bytes.
fn kib_field(text: &str, field: &str) -> Option<usize> {
    let line = text.lines().find(|l| l.split(':').next() == Some(field))?;
    let kib: usize = line.split(':').nth(1)?.split_whitespace().next()?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The machine's memory (`MemTotal` of `/proc/meminfo`), where known.
pub fn machine_bytes() -> Option<usize> {
    kib_field(&std::fs::read_to_string("/proc/meminfo").ok()?, "MemTotal")
}

/// The limit when none is given, where the machine's memory is not known.
pub const FALLBACK_LIMIT: usize = 4 << 30;

/// The default memory limit of a run: half of the machine's memory, or
/// [`FALLBACK_LIMIT`] where it is not known.
pub fn default_limit() -> usize {
    machine_bytes().map_or(FALLBACK_LIMIT, |total| total / 2)
}

/// The most memory this process has held resident (`VmHWM` of
/// `/proc/self/status`), where known.
pub fn peak_resident_bytes() -> Option<usize> {
    kib_field(&std::fs::read_to_string("/proc/self/status").ok()?, "VmHWM")
}

/// Hands memory freed by a run back to the system. Rust frees a run's
/// containers when they go, but the C allocator keeps the freed blocks of
/// a thread's heap for later use (hundreds of MB after a large graph);
/// glibc returns them when asked.
pub fn release_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only gives free pages of the allocator's heaps
    // back to the system; it touches no memory in use.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vector_grows_by_doubling_and_says_so() {
        let mut v: Vec<u64> = Vec::with_capacity(10);
        assert_eq!(vec_bytes(&v), 80);
        assert_eq!(vec_growth(&v, 10), 0);
        v.extend(0..10);
        assert_eq!(vec_growth(&v, 1), 160);
        assert_eq!(vec_growth(&v, 25), 280);
        v.push(1);
        assert_eq!(vec_bytes(&v), 160, "the buffer doubled as predicted");
    }

    #[test]
    fn a_map_is_measured_by_its_table() {
        let mut map: HashMap<u64, u64> = HashMap::new();
        assert_eq!(map_bytes(&map), 0);
        for i in 0..1000u64 {
            let predicted = map_growth(&map, 1);
            let before = map_bytes(&map);
            map.insert(i, i);
            if predicted > 0 {
                assert_eq!(map_bytes(&map), predicted, "after {i} entries");
            } else {
                assert_eq!(map_bytes(&map), before);
            }
        }
        // 1000 entries: 2048 slots of 16 bytes and a control byte.
        assert_eq!(map_bytes(&map), 2048 * 17 + 16);
    }

    #[test]
    fn proc_fields_are_read_in_bytes() {
        let text = "MemTotal:       24684096 kB\nMemFree:        23390580 kB\n";
        assert_eq!(kib_field(text, "MemTotal"), Some(24684096 * 1024));
        assert_eq!(kib_field(text, "Mem"), None);
        assert_eq!(kib_field("VmHWM:\t  1464 kB\n", "VmHWM"), Some(1464 * 1024));
        assert!(default_limit() >= 1 << 20);
        assert_eq!(heap_block(1), 32);
        assert_eq!(heap_block(60), 80);
    }
}
