//! Move ordering: the transposition-table move, then killer moves, then the
//! history heuristic, which learns which move codes caused cutoffs.

use super::MAX_PLY;

/// Move codes are 16-bit; the history table covers the low 10 bits, which is
/// every Quoridor move (kind in bits 8-9, index in bits 0-7).
const HISTORY_SIZE: usize = 1 << 10;

pub struct Ordering {
    killers: [[u16; 2]; MAX_PLY],
    history: Vec<i32>,
}

impl Ordering {
    pub fn new() -> Ordering {
        Ordering { killers: [[u16::MAX; 2]; MAX_PLY], history: vec![0; HISTORY_SIZE] }
    }

    /// How promising a move looks; higher first.
    #[inline]
    pub fn score(&self, code: u16, tt_move: Option<u16>, ply: usize) -> i32 {
        if Some(code) == tt_move {
            return i32::MAX;
        }
        if self.killers[ply][0] == code {
            return i32::MAX - 1;
        }
        if self.killers[ply][1] == code {
            return i32::MAX - 2;
        }
        self.history[code as usize % HISTORY_SIZE]
    }

    /// The killer moves' codes at this ply (`u16::MAX` where none).
    #[inline]
    pub fn killers(&self, ply: usize) -> [u16; 2] {
        self.killers[ply]
    }

    /// A quiet move refuted the opponent's play at this ply.
    pub fn record_cutoff(&mut self, code: u16, ply: usize, depth: u32) {
        let killers = &mut self.killers[ply];
        if killers[0] != code {
            killers[1] = killers[0];
            killers[0] = code;
        }
        let entry = &mut self.history[code as usize % HISTORY_SIZE];
        *entry = (*entry + (depth * depth) as i32).min(1 << 24);
    }
}
