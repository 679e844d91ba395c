//! A position's open patterns (not yet full), each with the attribute
//! values its filled squares share, looked at once for all the placements
//! of a turn: the pieces each placement would make unsafe to give, for the
//! solver's move lists, its order and its endgame.

use super::board::{pattern_table, Quarto};
use crate::bits::bits;

/// A position's patterns with at least one square empty, each with the
/// attribute values its filled squares share (as bits: the attributes set,
/// then those clear, four bits up; every value of the rules when none is
/// filled).
#[derive(Clone)]
pub(super) struct OpenPatterns {
    list: [(u16, u8); 32],
    len: usize,
    /// The position's empty squares.
    pub(super) empty: u16,
    /// Every attribute value of the rules, as `shared` writes them.
    every: u8,
}

impl OpenPatterns {
    pub(super) fn of(position: &Quarto) -> OpenPatterns {
        let attributes = position.rules.attributes();
        let every = (0..attributes).fold(0u8, |v, a| v | 1 << a | 1 << (a + 4));
        let empty = position.empty_squares();
        let mut open = OpenPatterns { list: [(0, 0); 32], len: 0, empty, every };
        for &pattern in &pattern_table(position.rules).all {
            if pattern & empty == 0 {
                continue;
            }
            let shared = bits(pattern & position.occupied)
                .fold(every, |shared, square| shared & piece_values(position.board[square]));
            open.list[open.len] = (pattern, shared);
            open.len += 1;
        }
        open
    }

    /// The same after `hand` is placed on `square` (where it wins nowhere).
    pub(super) fn after(&self, square: usize, hand: u8) -> OpenPatterns {
        let bit = 1u16 << square;
        let values = piece_values(hand);
        let empty = self.empty & !bit;
        let mut open = OpenPatterns { list: [(0, 0); 32], len: 0, empty, every: self.every };
        for &(pattern, shared) in self.patterns() {
            if pattern & empty == 0 {
                continue;
            }
            open.list[open.len] = (pattern, if pattern & bit != 0 { shared & values } else { shared });
            open.len += 1;
        }
        open
    }

    /// The patterns, each with the values its filled squares share.
    pub(super) fn patterns(&self) -> &[(u16, u8)] {
        &self.list[..self.len]
    }

    /// Whether `piece` wins at once here (placed on the one empty square
    /// of a pattern whose other pieces share a value with it).
    pub(super) fn wins_with(&self, piece: u8) -> bool {
        let values = piece_values(piece);
        self.patterns().iter().any(|&(pattern, shared)| {
            let holes = pattern & self.empty;
            holes & (holes - 1) == 0 && shared & values != 0
        })
    }

    /// The pieces that win at once after `hand` is placed on `square`
    /// (as [`Quarto::pieces_that_win_now`] of that position).
    pub(super) fn winning_after(&self, square: usize, hand: u8) -> u16 {
        let bit = 1u16 << square;
        let values = piece_values(hand);
        let mut winning = 0;
        for &(pattern, shared) in self.patterns() {
            let holes = pattern & self.empty & !bit;
            if holes == 0 || holes & (holes - 1) != 0 {
                continue;
            }
            winning |= AGREEING[usize::from(if pattern & bit != 0 { shared & values } else { shared })];
        }
        winning
    }
}

/// A piece's attribute values as the patterns' shared values are written:
/// its set attributes, then its clear ones four bits up.
pub(super) fn piece_values(piece: u8) -> u8 {
    piece & 0xF | (!piece & 0xF) << 4
}

/// The pieces that share one of the attribute values named, by `set | clear
/// << 4`: `set` the attributes whose value 1 is shared, `clear` those whose
/// 0 is.
pub(super) const AGREEING: [u16; 256] = {
    const SET: [u16; 4] = [0xAAAA, 0xCCCC, 0xF0F0, 0xFF00];
    let mut table = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        let mut a = 0;
        while a < 4 {
            if i >> a & 1 == 1 {
                table[i] |= SET[a];
            }
            if i >> (a + 4) & 1 == 1 {
                table[i] |= !SET[a];
            }
            a += 1;
        }
        i += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::prelude::*;
    use crate::rng::Rng;

    /// Random positions of every rule set, 3x3 too, with 0 to 14 pieces
    /// placed and a piece in hand.
    fn positions() -> Vec<Quarto> {
        let mut all = Vec::new();
        let starts =
            (1..=4).map(|level| format!("quarto 4x4 level={level} board=..../..../..../.... hand=- turn=1"));
        for (i, start) in
            starts.chain(["quarto 3x3 level=1 board=.../.../... hand=- turn=1".to_string()]).enumerate()
        {
            for seed in 0..40u64 {
                let mut rng = Rng::new(seed * 7 + i as u64);
                let mut pos = Quarto::from_text(&start).expect("a start");
                for _ in 0..=(seed % 15) {
                    let mut moves = MoveList::default();
                    pos.legal_moves(&mut moves);
                    let mut next = pos.clone();
                    next.make_move(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
                    if next.is_over() {
                        break;
                    }
                    pos = next;
                }
                if pos.hand().is_some() {
                    all.push(pos);
                }
            }
        }
        all
    }

    #[test]
    fn each_placement_makes_the_pieces_unsafe_that_the_position_after_it_says() {
        let mut checked = 0;
        for pos in positions() {
            let hand = pos.hand().expect("a piece in hand");
            let open = OpenPatterns::of(&pos);
            for square in bits(pos.empty_squares()) {
                if pos.placement_wins(square, hand) {
                    continue;
                }
                let mut after = pos.clone();
                after.put(square, hand);
                assert_eq!(
                    open.winning_after(square, hand),
                    after.pieces_that_win_now(),
                    "{}",
                    pos.to_text()
                );
                let (derived, direct) = (open.after(square, hand), OpenPatterns::of(&after));
                assert_eq!(derived.patterns(), direct.patterns(), "{} at {square}", pos.to_text());
                assert_eq!(derived.empty, direct.empty);
                for given in bits(pos.available()).map(|p| p as u8) {
                    let wins = bits(after.empty_squares()).any(|s| after.placement_wins(s, given));
                    assert_eq!(direct.wins_with(given), wins, "{} at {square}", pos.to_text());
                }
                checked += 1;
            }
        }
        assert!(checked > 500, "{checked} placements checked");
    }
}
