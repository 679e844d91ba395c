//! Quarto: the 4x4 game with its four rule levels and the 3x3 game with
//! eight pieces. Pieces are numbers whose bits are attributes (bit 0 dark,
//! bit 1 tall, bit 2 square, bit 3 hollow).

mod board;
mod eval;
mod levels;
mod movegen;
mod moves;
mod open;
mod ordering;
pub mod patterns;
mod position_text;
pub mod symmetry;

pub use crate::bits::bits;
pub use board::{pieces_with, Quarto, RulesError};
pub use moves::QuartoMove;
pub use patterns::Rules;
pub use position_text::QuartoTextError;

use crate::game::{Handicap, MoveList, Outcome, Position, Solved, Strategy};

/// Positions this close to the end are solved in one go (see
/// [`Strategy::exact_search_plies`]).
const EXACT_SEARCH_PLIES: u32 = 10;

/// Nodes with this many plies to search are keyed by their canonical form.
const CANONICAL_KEY_DEPTH: u32 = 5;

/// A 128-bit key folded into 64 well-mixed bits.
fn mix(key: u128) -> u64 {
    let folded = (key as u64) ^ ((key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let z = (folded ^ (folded >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^ (z >> 29)
}

/// Below this many plies to search, symmetric siblings are not worth
/// detecting: the transposition table catches them cheaply enough.
const SIBLING_CHECK_DEPTH: u32 = 3;

/// Symmetric siblings are common only while few pieces are on the board; later
/// the canonical form of every child costs more than the rare duplicate saves.
const SIBLING_CHECK_MAX_PLACED: u32 = 4;

impl Position for Quarto {
    type Move = QuartoMove;
    type Tables = ();

    fn player_count(&self) -> usize {
        2
    }

    fn side_to_move(&self) -> usize {
        self.side()
    }

    fn generate_moves(&self, moves: &mut MoveList<QuartoMove>) {
        self.legal_moves(moves);
    }

    fn count_moves(&self) -> u64 {
        self.legal_move_count()
    }

    fn make_move(&mut self, mv: QuartoMove) {
        self.play_parts(mv.square(), mv.piece());
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(w) => Some(Outcome::Win(w)),
            None if self.pieces_run_out() => Some(Outcome::Draw),
            None => None,
        }
    }

    fn hash(&self) -> u64 {
        // Every cell and the hand, five bits each, mixed.
        let cells = self.board[..self.rules().squares()]
            .iter()
            .fold(self.hand().map_or(31u128, u128::from), |k, &c| k << 5 | u128::from(c));
        mix(cells ^ (self.rules().level as u128) << 100)
    }

    fn is_irreversible(&self, _mv: QuartoMove) -> bool {
        true
    }

    fn move_code(mv: QuartoMove) -> u16 {
        mv.code()
    }

    fn exact_key(&self) -> Option<u128> {
        // Symmetric positions have the same value for the player to move.
        Some(self.canonical())
    }
}

impl Strategy for Quarto {
    fn generate_search_moves(&mut self, moves: &mut MoveList<QuartoMove>, depth: u32) {
        self.search_moves(moves);
        if depth >= SIBLING_CHECK_DEPTH && self.placed() <= SIBLING_CHECK_MAX_PLACED && moves.len() > 1 {
            self.drop_symmetric_siblings(moves);
        }
    }

    fn table_key(&self, depth: u32) -> u64 {
        // Symmetric positions share deep entries; near the leaves the
        // canonical form costs more than the transpositions it finds.
        if depth >= CANONICAL_KEY_DEPTH {
            // The rules are part of the key: the same board is another
            // position under another level.
            let rules = (self.rules().side * 8 + self.rules().level) as u128;
            mix(self.canonical() ^ rules << 120) ^ 0x5A5A_0000_0000_0001
        } else {
            self.hash()
        }
    }

    fn wins_at_once(&self) -> bool {
        match self.hand() {
            Some(piece) if self.winner().is_none() => {
                bits(self.empty_squares()).any(|square| self.placement_wins(square, piece))
            }
            _ => false,
        }
    }

    fn solve_small(&self, _tables: &mut (), _depth: u32) -> Option<Solved> {
        self.solve_endgame()
    }

    fn exact_search_plies(&self) -> u32 {
        EXACT_SEARCH_PLIES
    }

    fn table_min_depth(&self) -> u32 {
        // The key is canonical under symmetry, so costly; leaf parents skip it.
        2
    }

    fn plies_left_bound(&self) -> Option<u32> {
        if self.is_over() {
            return Some(0);
        }
        // One ply per placement, plus the first turn's give.
        Some(self.placements_left() + u32::from(self.hand().is_none()))
    }

    fn evaluate(&self, player: usize) -> i32 {
        // Exact once solvable; before that, the parity of safe pieces.
        let value = self.heuristic_value();
        if player == self.side() {
            value
        } else {
            -value
        }
    }

    /// Level 1 plays any legal turn; level 2 takes a win when it has one;
    /// level 3 also never hands over a piece that wins at once while a safe
    /// one exists.
    fn scripted_move(&self, level: u32, rng: &mut crate::rng::Rng) -> Option<QuartoMove> {
        let mut moves = MoveList::default();
        match level {
            1 | 2 => self.legal_moves(&mut moves),
            3 => self.search_moves(&mut moves),
            _ => return None,
        }
        if moves.is_empty() {
            return None;
        }
        let winning = moves.iter().copied().find(|m| {
            let mut after = self.clone();
            after.make_move(*m);
            after.winner().is_some()
        });
        match winning {
            Some(win) if level >= 2 => Some(win),
            _ => Some(*rng.pick(moves.as_slice())),
        }
    }

    /// Levels 4-9 in Quarto's terms (see `levels`).
    fn handicap(&self, level: u32) -> Option<Handicap> {
        self.level_handicap(level)
    }
}

impl Quarto {
    /// Pieces on the board.
    fn placed(&self) -> u32 {
        self.rules().squares() as u32 - self.empty_squares().count_ones()
    }

    /// Keeps the first move of each group whose results are symmetric
    /// images, and each kept move's `key` beside it; returns how many.
    fn drop_symmetric_siblings_keyed(&self, moves: &mut MoveList<QuartoMove>, keys: &mut [u32]) -> usize {
        let mut seen = [0u128; crate::game::MAX_MOVES];
        let mut kept = 0;
        let list = moves.as_mut_slice();
        for i in 0..list.len() {
            let mv = list[i];
            let mut child = self.clone();
            child.make_move(mv);
            let key = child.canonical();
            if !seen[..kept].contains(&key) {
                seen[kept] = key;
                list[kept] = mv;
                keys[kept] = keys[i];
                kept += 1;
            }
        }
        kept
    }

    /// Keeps one move of each group whose results are symmetric images.
    fn drop_symmetric_siblings(&self, moves: &mut MoveList<QuartoMove>) {
        let mut keys = [0u32; crate::game::MAX_MOVES];
        let kept = self.drop_symmetric_siblings_keyed(moves, &mut keys);
        moves.truncate(kept);
    }
}

#[cfg(test)]
mod level_tests {
    use super::*;
    use crate::game::Notation;
    use crate::rng::Rng;

    #[test]
    fn level_two_takes_a_win_and_level_three_never_hands_one_over() {
        // Pieces 0, 2, 4 on a1-c1 are all light and solid; piece 6 (light)
        // completes the row at d1.
        let win = Quarto::from_text("quarto 4x4 level=1 board=..../..../..../024. hand=6 turn=1").unwrap();
        let mut rng = Rng::new(1);
        let mv = win.scripted_move(2, &mut rng).unwrap();
        assert_eq!(win.format_move(mv), "d1");
        // Piece 9 (dark, hollow) cannot win here; level 3 must not give a
        // light or solid piece that completes the row while safe ones exist.
        let quiet = Quarto::from_text("quarto 4x4 level=1 board=..../..../..../024. hand=9 turn=1").unwrap();
        for seed in 0..50 {
            let mv = quiet.scripted_move(3, &mut Rng::new(seed)).unwrap();
            let mut after = quiet.clone();
            after.make_move(mv);
            assert!(!after.wins_at_once(), "level 3 handed over a win: {}", quiet.format_move(mv));
        }
    }
}
