//! A cache of traced paths, owned by the thread that plays the moves (a
//! search thread, perft) and handed to [`Quoridor::play_with`], keyed by the walls, the seat and its
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
use super::seat_paths::SeatPaths;

/// Entries per cache (a power of two); about 90 bytes each. Most lookups
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

/// Traced paths by key; empty until first used, so that a cache nobody
/// uses costs nothing.
#[derive(Default)]
pub struct PathCache {
    entries: Vec<Entry>,
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
}

impl PathCache {
    /// Starts fetching the slots that playing `mv` in `position` will look
    /// up (see [`Quoridor::play_with`]): the mover's after a step, the
    /// seats' whose paths it cuts after a wall.
    pub(super) fn prefetch_for(&self, position: &Quoridor, mv: QuoridorMove) {
        if self.entries.is_empty() {
            return;
        }
        let keys = zobrist();
        let side = position.side as usize;
        let variant = position.variant_key();
        let fetch = |key: u64| crate::prefetch::prefetch(&self.entries[key as usize & (ENTRIES - 1)]);
        match mv.kind() {
            MoveKind::Step { square } => fetch(position.walls_hash ^ keys.pawn[side][square] ^ variant),
            MoveKind::Wall { centre, vertical } => {
                let walls = position.walls_hash
                    ^ if vertical { keys.vertical_wall[centre] } else { keys.horizontal_wall[centre] };
                let seats = 0..position.players as usize;
                for seat in seats.filter(|&s| position.paths[s].cut_by(centre, vertical)) {
                    fetch(walls ^ keys.pawn[seat][position.pawns[seat] as usize] ^ variant);
                }
            }
            MoveKind::Pass => {}
        }
    }

    /// A seat's paths in `position`, from the cache or traced (and then
    /// cached).
    pub(super) fn trace(&mut self, position: &Quoridor, seat: usize) -> SeatPaths {
        if self.entries.is_empty() {
            self.entries.resize(ENTRIES, Entry { key: 0, paths: SeatPaths::WALLED_OFF });
        }
        let key = position.trace_key(seat);
        let entry = &mut self.entries[(key as usize) & (ENTRIES - 1)];
        if entry.key != key {
            *entry = Entry { key, paths: position.trace_paths(seat) };
        }
        entry.paths
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
        let mut cache = super::PathCache::default();
        for _ in 0..2 {
            for text in texts {
                let p = Quoridor::from_text(text).unwrap();
                for seat in 0..2 {
                    assert_eq!(cache.trace(&p, seat), p.trace_paths(seat), "{text}");
                }
            }
        }
    }
}
