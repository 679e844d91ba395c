//! Move ordering: the transposition-table move, then killer moves, then the
//! history heuristic, which learns per side which move codes caused
//! cutoffs and which were tried in vain before one.

use super::MAX_PLY;

/// Move codes are 16-bit; the history table covers the low 10 bits, which is
/// every Quoridor move (kind in bits 8-9, index in bits 0-7), for each of
/// two sides (with four players, seats of the same parity share).
const HISTORY_SIZE: usize = 1 << 10;
/// History values stay within plus or minus this: each update moves a
/// value towards the bound by a share of the distance left (history
/// gravity), so old lessons fade as new ones come.
const HISTORY_LIMIT: i32 = 1 << 16;
/// How many moves tried before a cutoff are remembered for the malus.
pub const TRIED_KEPT: usize = 32;

pub struct Ordering {
    killers: [[u16; 2]; MAX_PLY],
    history: Vec<i32>,
}

impl Ordering {
    pub fn new() -> Ordering {
        Ordering { killers: [[u16::MAX; 2]; MAX_PLY], history: vec![0; 2 * HISTORY_SIZE] }
    }

    /// Forgets the killers (their plies are counted from another root).
    pub fn forget_killers(&mut self) {
        self.killers = [[u16::MAX; 2]; MAX_PLY];
    }

    #[inline]
    fn slot(code: u16, side: usize) -> usize {
        (side & 1) * HISTORY_SIZE + code as usize % HISTORY_SIZE
    }

    /// How promising a move of `side` looks; higher first.
    #[inline]
    pub fn score(&self, code: u16, tt_move: Option<u16>, ply: usize, side: usize) -> i32 {
        if Some(code) == tt_move {
            return i32::MAX;
        }
        if self.killers[ply][0] == code {
            return i32::MAX - 1;
        }
        if self.killers[ply][1] == code {
            return i32::MAX - 2;
        }
        self.history[Ordering::slot(code, side)]
    }

    /// The killer moves' codes at this ply (`u16::MAX` where none).
    #[inline]
    pub fn killers(&self, ply: usize) -> [u16; 2] {
        self.killers[ply]
    }

    /// `side`'s move `code` refuted the opponent's play at this ply, with
    /// `depth` plies to go, after the moves `tried` failed to.
    pub fn record_cutoff(&mut self, code: u16, ply: usize, depth: u32, side: usize, tried: &[u16]) {
        let killers = &mut self.killers[ply];
        if killers[0] != code {
            killers[1] = killers[0];
            killers[0] = code;
        }
        let bonus = (depth * depth * 16).min(8192) as i32;
        self.nudge(Ordering::slot(code, side), bonus);
        for &other in tried {
            self.nudge(Ordering::slot(other, side), -bonus);
        }
    }

    #[inline]
    fn nudge(&mut self, slot: usize, by: i32) {
        let entry = &mut self.history[slot];
        *entry += by - *entry * by.abs() / HISTORY_LIMIT;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cutoffs_raise_a_move_and_lower_those_tried_before_it() {
        let mut o = Ordering::new();
        o.record_cutoff(7, 3, 6, 0, &[5, 9]);
        assert!(o.score(7, None, 0, 0) > 0);
        assert!(o.score(5, None, 0, 0) < 0 && o.score(9, None, 0, 0) < 0);
        // The other side's history is its own.
        assert_eq!(o.score(7, None, 0, 1), 0);
        assert_eq!(o.score(7, None, 3, 0), i32::MAX - 1);
    }

    #[test]
    fn history_stays_within_its_bound() {
        let mut o = Ordering::new();
        for _ in 0..10_000 {
            o.record_cutoff(7, 1, 60, 1, &[8]);
        }
        assert!(o.score(7, None, 0, 1) <= HISTORY_LIMIT && o.score(8, None, 0, 1) >= -HISTORY_LIMIT);
    }
}
