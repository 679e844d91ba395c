//! A per-thread cache of traced paths, keyed by the walls, the seat and its
//! pawn's square: the only things a trace depends on (besides the board size,
//! also in the key). The search meets the same walls with the same pawn over
//! and over (moves in another order, pawns stepping back, the next
//! iteration), and a lookup costs far less than a trace.
//!
//! Entries are whole 64-bit keys, as in the transposition table; a wrong hit
//! would need two wall sets to collide in all 64 bits.

use super::board::Quoridor;
use super::geometry::zobrist;
use super::tracked::SeatPaths;
use std::cell::RefCell;

/// Entries per thread (a power of two); about 90 bytes each.
const ENTRIES: usize = 1 << 15;

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    paths: SeatPaths,
}

thread_local! {
    static CACHE: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

impl Quoridor {
    /// The key of a seat's trace: walls, pawn square, seat and board size.
    #[inline]
    fn trace_key(&self, seat: usize) -> u64 {
        let size = (self.width as u64) | (self.height as u64) << 8 | (self.players as u64) << 16;
        // Zero never occurs as a real key in practice; it marks empty slots.
        self.walls_hash
            ^ zobrist().pawn[seat][self.pawns[seat] as usize]
            ^ size.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// A seat's paths, from the cache or traced (and then cached).
    pub(super) fn cached_trace(&self, seat: usize) -> SeatPaths {
        let key = self.trace_key(seat);
        let slot = (key as usize) & (ENTRIES - 1);
        CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.is_empty() {
                cache.resize(ENTRIES, Entry { key: 0, paths: SeatPaths::WALLED_OFF });
            }
            let entry = &mut cache[slot];
            if entry.key != key {
                *entry = Entry { key, paths: self.trace_paths(seat) };
            }
            entry.paths
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::games::quoridor::Quoridor;

    #[test]
    fn a_cached_trace_equals_a_fresh_one_and_depends_on_the_board_size() {
        let texts = [
            "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=e4h turn=1",
            "quoridor 7x7 pawns=e1,e7 hand=10,10 walls=e4h turn=1",
            "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=e4v turn=1",
            "quoridor 9x9 pawns=e2,e9 hand=10,10 walls=e4h turn=1",
        ];
        for _ in 0..2 {
            for text in texts {
                let p = Quoridor::from_text(text).unwrap();
                for seat in 0..2 {
                    assert_eq!(p.cached_trace(seat), p.trace_paths(seat), "{text}");
                }
            }
        }
    }
}
