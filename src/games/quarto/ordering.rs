//! The solver's order of the turns: first the ones that leave the opponent
//! the fewest safe replies, each placement's patterns looked at once for
//! both the pieces it makes unsafe to give and the replies they leave.

use super::board::Quarto;
use super::moves::QuartoMove;
use super::open::{piece_values, OpenPatterns, AGREEING};
use crate::bits::bits;
use crate::game::MoveList;

impl Quarto {
    /// Orders turns for a proof: first the ones that leave the opponent
    /// the fewest safe replies (a placement and a piece to give after which
    /// the mover cannot win at once). A turn that leaves none wins, and one
    /// that leaves few is the likeliest to; ties keep their order. (The
    /// solver uses [`Quarto::ordered_search_moves`], which gives the same
    /// order at less cost; this is its reference.)
    #[cfg(test)]
    pub fn order_by_safe_replies(&self, moves: &mut MoveList<QuartoMove>) {
        let Some(hand) = self.hand else {
            return;
        };
        // Counted once per placement square for every piece to give.
        let mut by_square: [Option<[u32; 16]>; 16] = [None; 16];
        moves.as_mut_slice().sort_by_cached_key(|&mv| match (mv.square(), mv.piece()) {
            (Some(square), Some(piece)) => {
                by_square[square].get_or_insert_with(|| self.safe_replies_after(square, hand))[piece as usize]
            }
            _ => 0,
        });
    }

    /// For each piece `p` to give after placing `hand` on `square`: the
    /// opponent's safe replies (see [`AfterPlacement`]).
    #[cfg(test)]
    fn safe_replies_after(&self, square: usize, hand: u8) -> [u32; 16] {
        let after = AfterPlacement::new(self, square, hand);
        let mut counts = [0u32; 16];
        for piece in bits(self.available) {
            counts[piece] = after.safe_replies(self.available, piece as u8);
        }
        counts
    }

    /// The turns the search would search (one of each symmetric group
    /// while few pieces are down), ordered for a proof: first the ones that
    /// leave the opponent the fewest safe replies (a placement and a piece
    /// to give after which the mover cannot win at once). A turn that
    /// leaves none wins, and one that leaves few is the likeliest to; ties
    /// keep their order. The patterns after each placement are looked at
    /// once for both the pieces it makes unsafe and the replies.
    ///
    /// Returns whether no turn listed gives a piece that wins at once for
    /// the opponent (as [`Quarto::search_moves_safe`]).
    pub fn ordered_search_moves(&self, moves: &mut MoveList<QuartoMove>) -> bool {
        let empty = self.empty_squares();
        let open = OpenPatterns::of(self);
        let Some(hand) = self.hand.filter(|&h| self.available != 0 && !open.wins_with(h)) else {
            // A first turn, a win at once or nothing left to give: the
            // turns are not ordered.
            return self.unordered_search_moves(moves);
        };
        moves.clear();
        let mut counts = [0u32; crate::game::MAX_MOVES];
        for square in bits(empty) {
            let after = AfterPlacement::from_open(&open, square, hand);
            for piece in bits(self.available & !after.winning) {
                counts[moves.len()] = after.safe_replies(self.available, piece as u8);
                moves.push(QuartoMove::new(Some(square), Some(piece as u8)));
            }
        }
        if moves.is_empty() {
            // Every placement hands over a win: one stands for all.
            return self.unordered_search_moves(moves);
        }
        if self.placed() <= super::SIBLING_CHECK_MAX_PLACED && moves.len() > 1 {
            // Symmetric siblings have the same count: drop them first,
            // keeping each group's first, as `search_moves` then the sort do.
            let kept = self.drop_symmetric_siblings_keyed(moves, &mut counts);
            moves.truncate(kept);
        }
        let n = moves.len();
        let mut order: Vec<(u32, QuartoMove)> =
            counts[..n].iter().copied().zip(moves.iter().copied()).collect();
        order.sort_by_key(|&(count, _)| count);
        for (slot, (_, mv)) in moves.as_mut_slice().iter_mut().zip(order) {
            *slot = mv;
        }
        true
    }

    /// The turns [`crate::game::Strategy::generate_search_moves`] lists (one
    /// of each symmetric group while few pieces are down), and whether none
    /// gives a piece that wins at once for the opponent.
    pub fn unordered_search_moves(&self, moves: &mut MoveList<QuartoMove>) -> bool {
        let safe = self.search_moves_safe(moves);
        if self.placed() <= super::SIBLING_CHECK_MAX_PLACED && moves.len() > 1 {
            self.drop_symmetric_siblings(moves);
        }
        safe
    }
}

/// The patterns after a placement, as the opponent's replies see them. A
/// pattern missing one piece after the placement and a reply forbids the
/// pieces sharing its filled squares' common attribute values (they would
/// let this side win at once); such patterns either miss one piece already
/// (the same for every reply but the one that fills them) or miss two, the
/// reply's square among them (then the given piece's attributes count).
struct AfterPlacement {
    empty: u16,
    /// For each reply square: the pieces that win at once after it
    /// whatever the piece given, from the patterns missing one piece (all
    /// but the one it fills).
    base: [u16; 16],
    /// For each reply square: the attribute values shared by the filled
    /// squares of some pattern through it that misses two, as bits (all
    /// set, then all clear, four bits each). A piece given that has one of
    /// them completes such a pattern to one that wins at once with the
    /// pieces sharing it.
    shared: [u8; 16],
    /// The pieces that win at once after the placement (the `base` of
    /// every reply that fills no pattern missing one piece).
    winning: u16,
    /// The replies whose `base` or `shared` differ from the plain ones'
    /// (`winning` and none): the others all count alike.
    special: u16,
}

impl AfterPlacement {
    #[cfg(test)]
    fn new(position: &Quarto, square: usize, hand: u8) -> AfterPlacement {
        AfterPlacement::from_open(&OpenPatterns::of(position), square, hand)
    }

    /// After `hand` is placed on `square` of the position whose patterns
    /// are `open`.
    fn from_open(open: &OpenPatterns, square: usize, hand: u8) -> AfterPlacement {
        let empty = open.empty & !(1 << square);
        let bit = 1u16 << square;
        let values = piece_values(hand);
        let mut scan = AfterPlacement { empty, base: [0; 16], shared: [0; 16], winning: 0, special: 0 };
        // The pieces of the patterns missing one piece, by their hole.
        let mut by_hole = [0u16; 16];
        let mut holes_of_ones = 0u16;
        for &(pattern, shared) in open.patterns() {
            let holes = pattern & empty;
            let shared = if pattern & bit != 0 { shared & values } else { shared };
            let rest = holes & holes.wrapping_sub(1);
            if holes != 0 && rest == 0 {
                let pieces = AGREEING[usize::from(shared)];
                by_hole[holes.trailing_zeros() as usize] |= pieces;
                holes_of_ones |= holes;
                scan.winning |= pieces;
            } else if rest != 0 && rest & (rest - 1) == 0 && shared != 0 {
                for reply in bits(holes) {
                    scan.shared[reply] |= shared;
                }
                scan.special |= holes;
            }
        }
        scan.special |= holes_of_ones;
        for reply in bits(scan.special) {
            scan.base[reply] = bits(holes_of_ones & !(1 << reply)).fold(0, |w, hole| w | by_hole[hole]);
        }
        scan
    }

    /// The opponent's safe replies when given `piece`: the empty squares
    /// it could put it on, each with the pieces (of `available`, less the
    /// one given) it could give then that do not let this side win at once.
    fn safe_replies(&self, available: u16, piece: u8) -> u32 {
        let left = available & !(1 << piece);
        // The piece's attribute values as `shared` writes them.
        let values = piece_values(piece);
        let plain = ones16(self.empty & !self.special) * ones16(left & !self.winning);
        bits(self.special)
            .map(|reply| {
                let winning = self.base[reply] | AGREEING[usize::from(self.shared[reply] & values)];
                ones16(left & !winning)
            })
            .sum::<u32>()
            + plain
    }
}

/// Set bits in a 16-bit word, by table (the baseline instruction set has
/// no popcount).
fn ones16(word: u16) -> u32 {
    const ONES: [u8; 256] = {
        let mut table = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            table[i] = (i as u8).count_ones() as u8;
            i += 1;
        }
        table
    };
    u32::from(ONES[usize::from(word & 0xFF)]) + u32::from(ONES[usize::from(word >> 8)])
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
                let mut reference = MoveList::default();
                pos.clone().generate_search_moves(&mut reference, u32::MAX);
                pos.order_by_safe_replies(&mut reference);
                let mut ordered = MoveList::default();
                pos.ordered_search_moves(&mut ordered);
                assert_eq!(ordered.as_slice(), reference.as_slice(), "level {level} seed {seed}");
                let hand = pos.hand.expect("a piece in hand");
                for (&m, &slow) in moves.iter().zip(&counts) {
                    let (square, piece) = (m.square().expect("a square"), m.piece().expect("a piece"));
                    assert_eq!(
                        pos.safe_replies_after(square, hand)[piece as usize],
                        slow,
                        "level {level} seed {seed}"
                    );
                }
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
