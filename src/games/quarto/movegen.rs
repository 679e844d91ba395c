//! Quarto move generation: every legal turn, and for the search a smaller
//! list with the same game value (a win in one when there is one; never a
//! piece that lets the opponent win at once while a safe piece exists),
//! and the solver's order of the turns (fewest safe replies first).

use super::board::Quarto;
use super::moves::QuartoMove;
use crate::bits::bits;
use crate::game::{MoveList, Solved};

impl Quarto {
    /// Every legal turn.
    pub(super) fn legal_moves(&self, moves: &mut MoveList<QuartoMove>) {
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

    pub(super) fn legal_move_count(&self) -> u64 {
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
    pub(super) fn search_moves(&self, moves: &mut MoveList<QuartoMove>) {
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

impl Quarto {
    /// Orders turns for a proof: first the ones that leave the opponent
    /// the fewest safe replies (a placement and a piece to give after which
    /// the mover cannot win at once). A turn that leaves none wins, and one
    /// that leaves few is the likeliest to; ties keep their order.
    pub fn order_by_safe_replies(&self, moves: &mut MoveList<QuartoMove>) {
        let Some(hand) = self.hand else {
            return;
        };
        moves.as_mut_slice().sort_by_cached_key(|&mv| self.safe_replies(hand, mv));
    }

    /// The opponent's safe replies after `mv`: for each empty square, the
    /// pieces it could give after placing there that do not let this side
    /// win at once.
    fn safe_replies(&self, hand: u8, mv: QuartoMove) -> u32 {
        let (Some(square), Some(piece)) = (mv.square(), mv.piece()) else {
            return 0;
        };
        let mut after = self.clone();
        after.put(square, hand);
        let left = self.available & !(1 << piece);
        bits(after.empty_squares())
            .map(|reply| {
                let mut next = after.clone();
                next.put(reply, piece);
                (left & !next.pieces_that_win_now()).count_ones()
            })
            .sum()
    }
}

/// With at most this many placements left, positions are solved by a small
/// direct recursion instead of the general search (whose per-node costs
/// dominate so close to the end).
pub const SOLVE_PLACEMENTS: u32 = 4;

impl Quarto {
    /// The exact value when at most `SOLVE_PLACEMENTS` placements are left.
    pub fn solve_endgame(&self) -> Option<Solved> {
        let hand = self.hand?;
        if self.is_over() || self.placements_left() > SOLVE_PLACEMENTS {
            return None;
        }
        let value = self.solve_from(hand, None);
        Some(match value {
            v if v > 0 => Solved::WinIn((WIN_NOW + 1 - v) as u32),
            v if v < 0 => Solved::LossIn((WIN_NOW + 1 + v) as u32),
            _ => Solved::Draw,
        })
    }

    /// Minimax over the last few placements, in mover-relative units: a win
    /// `k` plies from now is `WIN_NOW + 1 - k`, a loss the negative, a draw 0.
    /// A child stops as soon as its parent can no longer prefer the move that
    /// led to it (`parent_best`).
    fn solve_from(&self, hand: u8, parent_best: Option<i64>) -> i64 {
        let empty = self.empty_squares();
        if bits(empty).any(|s| self.placement_wins(s, hand)) {
            return WIN_NOW;
        }
        if self.available == 0 {
            return 0;
        }
        // Losing to the opponent's next placement is the worst there is.
        let mut best = -(WIN_NOW - 1);
        for square in bits(empty) {
            let mut after = self.clone();
            after.put(square, hand);
            for piece in bits(self.available) {
                let mut child = after.clone();
                child.available &= !(1 << piece);
                let mine = one_ply_back(child.solve_from(piece as u8, Some(best)));
                if mine > best {
                    best = mine;
                    // A win two turns from now is the fastest left to find.
                    let fastest = best == WIN_NOW - 2;
                    if fastest || parent_best.is_some_and(|p| one_ply_back(best) <= p) {
                        return best;
                    }
                }
            }
        }
        best
    }
}

/// The value of winning with the placement being made.
const WIN_NOW: i64 = 1_000;

/// A child's value seen from its parent: the sign flips and a win or loss
/// moves one ply further away.
fn one_ply_back(value: i64) -> i64 {
    match value {
        v if v > 0 => -v + 1,
        v if v < 0 => -v - 1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::prelude::*;
    use crate::rng::Rng;

    /// The opponent's safe replies counted the slow way: every legal reply
    /// played out, those after which the game goes on and this side cannot
    /// win at once.
    fn safe_replies_slowly(pos: &Quarto, mv: QuartoMove) -> u32 {
        let mut child = pos.clone();
        child.make_move(mv);
        let mut replies = MoveList::default();
        child.legal_moves(&mut replies);
        let mut safe = 0;
        for &reply in replies.iter() {
            let mut next = child.clone();
            next.make_move(reply);
            if !next.is_over() && !next.wins_at_once() {
                safe += 1;
            }
        }
        safe
    }

    #[test]
    fn turns_are_ordered_by_the_opponents_safe_replies_counted_the_slow_way() {
        let mut checked = 0;
        for level in 1..=4 {
            for seed in 0..6 {
                let mut rng = Rng::new(seed);
                let mut pos = Quarto::from_text(&format!(
                    "quarto 4x4 level={level} board=..../..../..../.... hand=- turn=1"
                ))
                .unwrap();
                for _ in 0..(3 + seed % 5) {
                    let mut moves = MoveList::default();
                    pos.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    pos.make_move(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
                }
                if pos.is_over() || pos.wins_at_once() {
                    continue;
                }
                let mut moves = MoveList::default();
                pos.search_moves(&mut moves);
                let mut before: Vec<u16> = moves.iter().map(|m| m.code()).collect();
                pos.order_by_safe_replies(&mut moves);
                let counts: Vec<u32> = moves.iter().map(|&m| safe_replies_slowly(&pos, m)).collect();
                assert!(counts.windows(2).all(|w| w[0] <= w[1]), "level {level} seed {seed}: {counts:?}");
                let mut after: Vec<u16> = moves.iter().map(|m| m.code()).collect();
                before.sort_unstable();
                after.sort_unstable();
                assert_eq!(before, after, "the same turns");
                checked += 1;
            }
        }
        assert!(checked >= 12, "{checked} positions checked");
    }
}
