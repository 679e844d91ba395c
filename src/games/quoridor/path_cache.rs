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
use super::moves::{MoveKind, QuoridorMove};
use super::tracked::SeatPaths;
use std::cell::RefCell;

/// Entries per thread (a power of two); about 90 bytes each. Most lookups
/// in a search miss (a new wall makes a new key), so the cache pays only
/// while it stays in the processor's own cache: with 32,768 entries (3 MB)
/// four lookups in five missed and the wait for memory made a search about
/// a tenth slower than with 2,048 (180 kB).
const ENTRIES: usize = 1 << 11;

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    paths: SeatPaths,
}

thread_local! {
    static CACHE: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

impl Quoridor {
    /// What tells the board sizes and player counts apart in a key.
    #[inline]
    fn variant_key(&self) -> u64 {
        let size = (self.width as u64) | (self.height as u64) << 8 | (self.players as u64) << 16;
        size.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// The key of a seat's trace: walls, pawn square, seat and board size.
    #[inline]
    fn trace_key(&self, seat: usize) -> u64 {
        // Zero never occurs as a real key in practice; it marks empty slots.
        self.walls_hash ^ zobrist().pawn[seat][self.pawns[seat] as usize] ^ self.variant_key()
    }

    /// Starts fetching the cache slots that playing `mv` will look up (see
    /// [`Quoridor::play`]): the mover's after a step, the seats' whose paths
    /// it cuts after a wall.
    pub(super) fn prefetch_traces_for(&self, mv: QuoridorMove) {
        let keys = zobrist();
        let side = self.side as usize;
        let variant = self.variant_key();
        CACHE.with(|cache| {
            let cache = cache.borrow();
            if cache.is_empty() {
                return;
            }
            let fetch = |key: u64| crate::prefetch::prefetch(&cache[key as usize & (ENTRIES - 1)]);
            match mv.kind() {
                MoveKind::Step { square } => fetch(self.walls_hash ^ keys.pawn[side][square] ^ variant),
                MoveKind::Wall { centre, vertical } => {
                    let walls = self.walls_hash
                        ^ if vertical { keys.vertical_wall[centre] } else { keys.horizontal_wall[centre] };
                    for seat in (0..self.players as usize).filter(|&s| self.paths[s].cut_by(centre, vertical))
                    {
                        fetch(walls ^ keys.pawn[seat][self.pawns[seat] as usize] ^ variant);
                    }
                }
                MoveKind::Pass => {}
            }
        });
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
