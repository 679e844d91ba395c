//! Quarto move generation: every legal turn, and for the search a smaller
//! list with the same game value (a win in one when there is one; never a
//! piece that lets the opponent win at once while a safe piece exists).

use super::board::Quarto;
use super::moves::QuartoMove;
use crate::game::MoveList;

impl Quarto {
    /// Every legal turn.
    pub fn legal_moves(&self, moves: &mut MoveList<QuartoMove>) {
        moves.clear();
        if self.is_over() {
            return;
        }
        let Some(hand) = self.hand else {
            for piece in bits(self.available) {
                moves.push(QuartoMove::new(None, Some(piece as u8)));
            }
            return;
        };
        for square in bits(self.empty_squares()) {
            if self.available == 0 || self.placement_wins(square, hand) {
                moves.push(QuartoMove::new(Some(square), None));
                continue;
            }
            for piece in bits(self.available) {
                moves.push(QuartoMove::new(Some(square), Some(piece as u8)));
            }
        }
    }

    pub fn legal_move_count(&self) -> u64 {
        if self.is_over() {
            return 0;
        }
        let Some(hand) = self.hand else {
            return self.available.count_ones() as u64;
        };
        let gives = (self.available.count_ones() as u64).max(1);
        bits(self.empty_squares()).map(|s| if self.placement_wins(s, hand) { 1 } else { gives }).sum()
    }

    /// The turns worth searching; the game value over them equals the value
    /// over all legal turns.
    pub fn search_moves(&self, moves: &mut MoveList<QuartoMove>) {
        moves.clear();
        if self.is_over() {
            return;
        }
        let Some(hand) = self.hand else {
            return self.legal_moves(moves);
        };
        let empty = self.empty_squares();
        if let Some(square) = bits(empty).find(|&s| self.placement_wins(s, hand)) {
            moves.push(QuartoMove::new(Some(square), None));
            return;
        }
        if self.available == 0 {
            for square in bits(empty) {
                moves.push(QuartoMove::new(Some(square), None));
            }
            return;
        }
        // A placement after which every piece wins for the opponent loses at
        // once, the fastest loss there is: it matters only when every
        // placement is like that, and then one of them stands for all.
        let mut safe_after = [0u16; 16];
        for square in bits(empty) {
            let mut after = self.clone();
            after.put(square, hand);
            safe_after[square] = self.available & !after.pieces_that_win_now();
        }
        let mut any_safe = false;
        for square in bits(empty) {
            for piece in bits(safe_after[square]) {
                moves.push(QuartoMove::new(Some(square), Some(piece as u8)));
                any_safe = true;
            }
        }
        if !any_safe {
            let square = empty.trailing_zeros() as usize;
            let piece = self.available.trailing_zeros() as u8;
            moves.push(QuartoMove::new(Some(square), Some(piece)));
        }
    }
}

/// The set bits of a mask, lowest first.
pub fn bits(mut mask: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let bit = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            bit
        })
    })
}
