//! Correction history: what the search has learnt about the static value's
//! error in positions that share a structure (in Quoridor, the same walls
//! on the board and in hand, or the same pawn squares). After a node is
//! searched, the gap between its searched value and its static value
//! nudges the entries of its structures; later static values of positions
//! with those structures are corrected by their sum. A full-strength search
//! starts from what the last one of the game learnt, as it does with the
//! move-ordering history ([`super::learned`]).

/// Entries per side and per structure kind.
const ENTRIES: usize = 1 << 14;
/// Entries stay within plus or minus this (history gravity, as in move
/// ordering), in units of 1/GRAIN of a centipawn.
const LIMIT: i32 = 1 << 14;
/// A nudge is at most this share of the limit.
const MAX_NUDGE: i32 = LIMIT / 4;
/// Entries count this many units per centipawn.
const GRAIN: i32 = 64;

pub struct Correction {
    table: Vec<i32>,
}

impl Correction {
    pub fn new() -> Correction {
        Correction { table: vec![0; 2 * 2 * ENTRIES] }
    }

    #[inline]
    fn slot(kind: usize, side: usize, key: u64) -> usize {
        ((kind * 2 + (side & 1)) * ENTRIES) + (key >> 50) as usize % ENTRIES
    }

    /// The correction, in centipawns, of `side`'s static value in a
    /// position with these structure keys.
    #[inline]
    pub fn of(&self, keys: [u64; 2], side: usize) -> i32 {
        let sum: i32 = (0..2).map(|kind| self.table[Correction::slot(kind, side, keys[kind])]).sum();
        sum / GRAIN
    }

    /// The search of a position with these keys, `depth` plies deep, found
    /// `searched` where its (corrected) static value said `stand`.
    pub fn learn(&mut self, keys: [u64; 2], side: usize, depth: u32, searched: i32, stand: i32) {
        let gap = (searched - stand).clamp(-1000, 1000);
        let nudge = (gap * GRAIN * depth as i32 / 8).clamp(-MAX_NUDGE, MAX_NUDGE);
        for (kind, &key) in keys.iter().enumerate() {
            let entry = &mut self.table[Correction::slot(kind, side, key)];
            *entry += nudge - *entry * nudge.abs() / LIMIT;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_static_value_too_low_is_corrected_upwards_for_that_side_only() {
        let mut c = Correction::new();
        let keys = [1 << 60, 7 << 55];
        for _ in 0..50 {
            c.learn(keys, 0, 8, 300, 100);
        }
        let up = c.of(keys, 0);
        assert!(up > 50 && up <= 2 * LIMIT / GRAIN, "{up}");
        assert_eq!(c.of(keys, 1), 0);
        assert_eq!(c.of([2 << 58, 3 << 58], 0), 0);
    }
}
