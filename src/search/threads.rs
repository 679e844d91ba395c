//! What the threads of one Lazy SMP search share besides the table: the
//! stop flag for the helpers, the node count, and which root moves some
//! thread is searching now.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Stack of each helper thread: the search recurses up to `MAX_PLY` deep.
pub(super) const HELPER_STACK: usize = 64 << 20;

/// Everything the threads of one search share besides the table.
#[derive(Default)]
pub(super) struct SharedCounters {
    /// Set when the main thread has answered: the helpers stop.
    pub(super) done: AtomicBool,
    /// Nodes searched by all threads, published in chunks.
    pub(super) nodes: AtomicU64,
    pub(super) root_claims: RootClaims,
}

impl SharedCounters {
    pub(super) fn new(threads: usize) -> SharedCounters {
        SharedCounters { root_claims: RootClaims::new(threads), ..SharedCounters::default() }
    }
}

/// Tells the helper threads to stop when dropped.
pub(super) struct HelpersStop<'a>(pub(super) &'a AtomicBool);

impl Drop for HelpersStop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The root moves some thread is searching now, by the hash of the position
/// each leads to.
///
/// Threads at the same iteration would otherwise take the root moves in the
/// same order and each repeat the other's work, which left two threads
/// barely faster to a given depth than one. A thread instead leaves a move
/// that another thread is on for the end of its list, and by the time it
/// comes back finds that move's result in the table. Slots are indexed by
/// hash and a claim overwrites the slot: two claims in one slot lose the
/// first, and a move put off by mistake needs two equal 64-bit hashes. Either
/// way a thread only repeats work or takes a move later, so no lock is needed.
#[derive(Default)]
pub(super) struct RootClaims {
    /// Empty with one thread: nobody to share with.
    slots: Vec<AtomicU64>,
}

/// Slots in the claims table: at most one claim per thread is held at a
/// time, so collisions are rare.
const CLAIM_SLOTS: usize = 1 << 12;

impl RootClaims {
    fn new(threads: usize) -> RootClaims {
        let slots = if threads > 1 { CLAIM_SLOTS } else { 0 };
        RootClaims { slots: (0..slots).map(|_| AtomicU64::new(0)).collect() }
    }

    /// Whether there are other threads to share the root moves with.
    pub(super) fn shared(&self) -> bool {
        !self.slots.is_empty()
    }

    /// The slot of `hash`, and the value that marks it taken (never 0, the
    /// free value).
    fn slot(&self, hash: u64) -> (&AtomicU64, u64) {
        (&self.slots[hash as usize % self.slots.len()], hash | 1)
    }

    pub(super) fn is_claimed(&self, hash: u64) -> bool {
        !self.slots.is_empty() && {
            let (slot, mark) = self.slot(hash);
            slot.load(Ordering::Relaxed) == mark
        }
    }

    pub(super) fn claim(&self, hash: u64) {
        if !self.slots.is_empty() {
            let (slot, mark) = self.slot(hash);
            slot.store(mark, Ordering::Relaxed);
        }
    }

    /// Frees the slot, unless another position has claimed it since.
    pub(super) fn release(&self, hash: u64) {
        if !self.slots.is_empty() {
            let (slot, mark) = self.slot(hash);
            let _ = slot.compare_exchange(mark, 0, Ordering::Relaxed, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_lasts_until_released() {
        let claims = RootClaims::new(2);
        assert!(claims.shared());
        // Two positions that share a slot.
        let a = 0x1234_5678_9ABC_DEF0u64;
        let b = a + CLAIM_SLOTS as u64;
        assert!(!claims.is_claimed(a));
        claims.claim(a);
        assert!(claims.is_claimed(a) && !claims.is_claimed(b));
        claims.release(b);
        assert!(claims.is_claimed(a), "releasing another position keeps the claim");
        claims.claim(b);
        claims.release(a);
        assert!(claims.is_claimed(b) && !claims.is_claimed(a), "the later claim holds the slot");
        claims.release(b);
        assert!(!claims.is_claimed(b));
        // A position whose hash is 0 can be claimed too.
        claims.claim(0);
        assert!(claims.is_claimed(0));
    }

    #[test]
    fn one_thread_claims_nothing() {
        let claims = RootClaims::new(1);
        assert!(!claims.shared());
        claims.claim(7);
        assert!(!claims.is_claimed(7));
        claims.release(7);
    }
}
