//! Quarto move generation: every legal turn, for the search a smaller
//! list with the same game value (a win in one when there is one; never a
//! piece that lets the opponent win at once while a safe piece exists),
//! and the exact value of the last few placements. The solver's order of
//! the turns is in `ordering`.

use super::board::Quarto;
use super::moves::QuartoMove;
use super::open::OpenPatterns;
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
        self.search_moves_safe(moves);
    }

    /// The turns worth searching (as `search_moves`), and whether no turn
    /// listed gives a piece that wins at once for the opponent (false only
    /// where every turn does).
    pub fn search_moves_safe(&self, moves: &mut MoveList<QuartoMove>) -> bool {
        moves.clear();
        if self.is_over() {
            return true;
        }
        let Some(hand) = self.hand else {
            // The first turn: nothing on the board to win with.
            self.legal_moves(moves);
            return true;
        };
        let empty = self.empty_squares();
        if let Some(square) = bits(empty).find(|&s| self.placement_wins(s, hand)) {
            moves.push(QuartoMove::new(Some(square), None));
            return true;
        }
        if self.available == 0 {
            for square in bits(empty) {
                moves.push(QuartoMove::new(Some(square), None));
            }
            return true;
        }
        // A placement after which every piece wins for the opponent loses at
        // once, the fastest loss there is: it matters only when every
        // placement is like that, and then one of them stands for all.
        let mut safe_after = [0u16; 16];
        let open = OpenPatterns::of(self);
        for square in bits(empty) {
            safe_after[square] = self.available & !open.winning_after(square, hand);
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
        any_safe
    }
}

/// With at most this many placements left, positions are solved by a small
/// direct recursion instead of the general search (whose per-node costs
/// dominate so close to the end).
pub const SOLVE_PLACEMENTS: u32 = 4;

impl Quarto {
    /// The exact value when at most `SOLVE_PLACEMENTS` placements are left.
    pub fn solve_endgame(&self) -> Option<Solved> {
        self.solve_endgame_knowing(false)
    }

    /// [`Quarto::solve_endgame`], told whether the piece in hand is known
    /// to win nowhere (then that is not looked at again).
    pub fn solve_endgame_knowing(&self, hand_wins_nowhere: bool) -> Option<Solved> {
        let hand = self.hand?;
        if self.is_over() || self.placements_left() > SOLVE_PLACEMENTS {
            return None;
        }
        let value =
            if hand_wins_nowhere { self.solve_without_win(hand, None) } else { self.solve_from(hand, None) };
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
        if bits(self.empty_squares()).any(|s| self.placement_wins(s, hand)) {
            return WIN_NOW;
        }
        self.solve_without_win(hand, parent_best)
    }

    /// [`Quarto::solve_from`] where `hand` wins nowhere.
    fn solve_without_win(&self, hand: u8, parent_best: Option<i64>) -> i64 {
        solve_open(&OpenPatterns::of(self), self.available, hand, parent_best)
    }
}

/// [`Quarto::solve_without_win`] of the position whose open patterns are
/// `open` and whose pieces to give are `available`.
fn solve_open(open: &OpenPatterns, available: u16, hand: u8, parent_best: Option<i64>) -> i64 {
    if available == 0 {
        return 0;
    }
    // Losing to the opponent's next placement is the worst there is:
    // a piece that wins at once is never worth giving.
    let mut best = -(WIN_NOW - 1);
    for square in bits(open.empty) {
        let safe = available & !open.winning_after(square, hand);
        if safe == 0 {
            continue;
        }
        let after = open.after(square, hand);
        for piece in bits(safe) {
            let mine = one_ply_back(solve_open(&after, available & !(1 << piece), piece as u8, Some(best)));
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
