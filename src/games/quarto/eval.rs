//! The heuristic value of a Quarto position the search has not solved: who
//! will run out of safe pieces to give first.
//!
//! A piece is safe to give when the receiver cannot win with it at once. In a
//! quiet position each turn uses up one safe piece, so the player left to give
//! when none remains loses: after the mover's placement an odd number of safe
//! pieces is good for the mover, an even number bad. The mover picks the
//! placement, so the value is the best over the empty squares. One pass over
//! the patterns finds, for every square, which pieces would win after the
//! piece in hand lands there (patterns one piece short whose pieces share an
//! attribute value: the dangerous lines).
//!
//! The values are few and small on purpose (+-30, +-10 while nothing
//! threatens, -300 when every placement leaves only winning pieces): with
//! few distinct leaf values the null-window search stays about as cheap as
//! with none, while a finer scale (a bonus per good square) cost two to four
//! times the nodes per iteration and lost at equal time what it won at equal
//! depth.

use super::board::{pattern_table, pieces_with, Quarto};
use crate::bits::bits;

/// The parity of safe pieces while some piece is already unsafe to give.
const PARITY: i32 = 30;
/// The parity while every piece is still safe: further from deciding.
const QUIET_PARITY: i32 = 10;
/// Every placement leaves only winning pieces to give: lost next turn unless
/// the search sees otherwise.
const NO_SAFE_PIECE: i32 = 300;

impl Quarto {
    /// The value for the side to move (positive: good for it), at most
    /// `NO_SAFE_PIECE` either way.
    pub fn heuristic_value(&self) -> i32 {
        let Some(hand) = self.hand else { return 0 };
        if self.available == 0 || self.winner.is_some() {
            return 0;
        }
        let winning = self.winning_pieces_after_placing(hand);
        let all = self.available.count_ones();
        let mut best = -NO_SAFE_PIECE;
        for square in bits(self.empty_squares()) {
            let safe = (self.available & !winning[square]).count_ones();
            let value = match safe {
                0 => continue,
                // Nothing threatens yet: parity is further from deciding.
                s if s == all => QUIET_PARITY * if s % 2 == 1 { 1 } else { -1 },
                s if s % 2 == 1 => PARITY,
                _ => -PARITY,
            };
            best = best.max(value);
            if best == PARITY {
                break;
            }
        }
        best
    }

    /// For every empty square, the pieces that would win at once after
    /// `hand` is placed there (assuming `hand` itself does not win there).
    pub(super) fn winning_pieces_after_placing(&self, hand: u8) -> [u16; 16] {
        let empty = self.empty_squares();
        let attributes = self.rules.attributes();
        // Threats of patterns with one empty square stand wherever the piece
        // lands outside them; a pattern with two empty squares becomes a
        // threat when the piece lands on one of them.
        let mut everywhere_but = [0u16; 16];
        let mut lone_squares = 0u16;
        let mut winning = [0u16; 16];
        for &pattern in &pattern_table(self.rules).all {
            let open = pattern & empty;
            match open.count_ones() {
                1 => {
                    let threat = threat_of(&self.attribute[..attributes], pattern & !open);
                    lone_squares |= open;
                    everywhere_but[open.trailing_zeros() as usize] |= threat;
                }
                2 => {
                    for square in bits(open) {
                        let filled = pattern & !open | 1 << square;
                        let mut attribute = [0u16; 4];
                        for (a, mask) in attribute[..attributes].iter_mut().enumerate() {
                            *mask = self.attribute[a] | u16::from(hand >> a & 1) << square;
                        }
                        winning[square] |= threat_of(&attribute[..attributes], filled);
                    }
                }
                _ => {}
            }
        }
        // A square's own lone patterns are full once the piece lands there,
        // so only the threats of other squares' lone patterns stand.
        for square in bits(empty) {
            let others = bits(lone_squares & !(1 << square)).fold(0u16, |m, s| m | everywhere_but[s]);
            winning[square] |= others;
        }
        winning
    }
}

/// The pieces that complete a pattern whose squares `filled` are all occupied
/// but one: those sharing an attribute value with every piece there.
#[inline]
fn threat_of(attribute: &[u16], filled: u16) -> u16 {
    let mut threat = 0;
    for (a, &mask) in attribute.iter().enumerate() {
        let set = mask & filled;
        if set == filled {
            threat |= pieces_with(a, true);
        } else if set == 0 {
            threat |= pieces_with(a, false);
        }
    }
    threat
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::prelude::*;
    use crate::games::quarto::symmetry::{symmetry_table, EMPTY};
    use crate::games::quarto::Rules;
    use crate::rng::Rng;

    fn position(text: &str) -> Quarto {
        Quarto::from_text(text).unwrap()
    }

    /// Positions from random games, every rule set, stopped at a random turn.
    fn random_positions(count: usize) -> Vec<Quarto> {
        let mut rng = Rng::new(7);
        let mut all = Vec::new();
        let rule_sets = [(4, 1), (4, 2), (4, 3), (4, 4), (3, 1)];
        for i in 0..count {
            let (side, level) = rule_sets[i % rule_sets.len()];
            let mut q = Quarto::new(Rules { side, level }).unwrap();
            let stop = 1 + rng.next_u64() as usize % 14;
            for _ in 0..stop {
                let mut moves = MoveList::default();
                q.search_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = *rng.pick(moves.as_slice());
                let mut next = q.clone();
                next.make_move(mv);
                if next.is_over() {
                    break;
                }
                q = next;
            }
            all.push(q);
        }
        all
    }

    #[test]
    fn winning_pieces_match_placing_and_checking_every_pattern() {
        for q in random_positions(400) {
            let Some(hand) = q.hand() else { continue };
            let winning = q.winning_pieces_after_placing(hand);
            for square in bits(q.empty_squares()) {
                if q.placement_wins(square, hand) {
                    continue;
                }
                let mut after = q.clone();
                after.put(square, hand);
                assert_eq!(winning[square], after.pieces_that_win_now(), "{} at {square}", q.to_text());
            }
        }
    }

    #[test]
    fn an_odd_number_of_safe_pieces_after_the_placement_is_good_for_the_mover() {
        // a1-c1 hold 0, 2, 4 (light and solid): every light or solid piece
        // wins at d1. The mover holds 9 (dark, hollow); of the pieces to give
        // only 11, 13 and 15 are dark and hollow. Away from d1 no new line
        // fills, so three pieces stay safe: odd, good, on 12 squares. On d1
        // the row is full and all 12 pieces are safe: even.
        let odd = position("quarto 4x4 level=1 board=..../..../..../024. hand=9 turn=1");
        assert_eq!(odd.heuristic_value(), PARITY);
        // With 13 on a3 only 11 and 15 stay safe away from d1: even. On d1
        // all 11 pieces left are safe, odd but quiet: the best there is.
        let even = position("quarto 4x4 level=1 board=..../d.../..../024. hand=9 turn=2");
        let winning = even.winning_pieces_after_placing(9);
        for square in bits(even.empty_squares() & !(1 << 3)) {
            assert_eq!((even.available() & !winning[square]).count_ones(), 2);
        }
        assert_eq!(even.heuristic_value(), QUIET_PARITY);
        // The row filled by 11: nothing threatens, ten pieces are safe
        // wherever 9 lands: even, quiet, bad for the mover.
        let quiet = position("quarto 4x4 level=1 board=..../f.../..../024b hand=9 turn=1");
        assert_eq!(quiet.heuristic_value(), -QUIET_PARITY);
        // The opponent's view is the negation.
        assert_eq!(quiet.evaluate(1 - quiet.side()), QUIET_PARITY);
    }

    #[test]
    fn no_safe_piece_after_any_placement_is_the_worst_value() {
        // Every line through the empty squares is a threat for both values of
        // some attribute: whatever the mover does, the opponent wins next.
        for q in random_positions(400) {
            let Some(hand) = q.hand() else { continue };
            let winning = q.winning_pieces_after_placing(hand);
            let cornered =
                q.available() != 0 && bits(q.empty_squares()).all(|s| q.available() & !winning[s] == 0);
            let value = q.heuristic_value();
            assert_eq!(cornered, value == -NO_SAFE_PIECE, "{}", q.to_text());
            assert!(value.abs() <= NO_SAFE_PIECE);
        }
    }

    #[test]
    fn evaluate_is_from_the_given_players_side() {
        for q in random_positions(50) {
            assert_eq!(q.evaluate(0), -q.evaluate(1));
            assert_eq!(q.evaluate(q.side()), q.heuristic_value());
        }
    }

    /// The position moved by a board symmetry (a reading order) and its
    /// pieces relabelled by an attribute permutation and a complement.
    fn transformed(q: &Quarto, order: &[u8; 16], permutation: &[usize], complement: u8) -> Quarto {
        let relabel = |p: u8| {
            let moved = permutation.iter().enumerate().fold(0u8, |m, (from, &to)| m | (p >> from & 1) << to);
            moved ^ complement
        };
        let n = q.rules().squares();
        let mut image = Quarto::new(q.rules()).unwrap();
        for (i, &square) in order[..n].iter().enumerate() {
            if let Some(piece) = q.piece_at(square as usize) {
                image.put(i, relabel(piece));
            }
        }
        image.hand = q.hand().map(relabel);
        let on_board = (0..n).filter_map(|s| image.piece_at(s)).fold(0u16, |m, p| m | 1 << p);
        image.available =
            ((1u32 << q.rules().pieces()) - 1) as u16 & !on_board & !image.hand.map_or(0, |h| 1 << h);
        image.side = q.side() as u8;
        assert_eq!(
            image.board.iter().filter(|&&p| p != EMPTY).count(),
            q.board.iter().filter(|&&p| p != EMPTY).count()
        );
        image
    }

    #[test]
    fn symmetric_and_relabelled_positions_get_equal_values() {
        let mut rng = Rng::new(11);
        for q in random_positions(200) {
            let orders = &symmetry_table(q.rules()).reading_orders;
            let attributes = q.rules().attributes();
            for _ in 0..8 {
                let order = orders[rng.next_u64() as usize % orders.len()];
                let mut permutation: Vec<usize> = (0..attributes).collect();
                for i in (1..attributes).rev() {
                    permutation.swap(i, rng.next_u64() as usize % (i + 1));
                }
                let complement = (rng.next_u64() % (1 << attributes)) as u8;
                let image = transformed(&q, &order, &permutation, complement);
                assert_eq!(image.canonical(), q.canonical(), "not an equivalent position");
                assert_eq!(
                    image.heuristic_value(),
                    q.heuristic_value(),
                    "{} vs {}",
                    q.to_text(),
                    image.to_text()
                );
            }
        }
    }
}
