//! A lower bound on the plies a player needs to win, read from a layout:
//! the pawn's shortest path to its goal, less the jumps it can make (a
//! jump covers two squares and needs the pawns side by side), with the
//! other player moving in between. The proof search's distance questions
//! skip what cannot arrive in time by it; the tests check it against a
//! breadth-first search of the race in which the other player helps.

use super::{Layout, Move, Pos, Shape};

impl Shape {
    /// A lower bound on the plies `seat` needs to win from `pos`: its pawn
    /// covers a square a move, two with a jump, jumps need the pawns side
    /// by side, and the other player moves in between.
    pub fn least_plies_to_win(&self, pos: &Pos, layout: &Layout, seat: usize) -> u32 {
        let path = layout.distance[seat * self.area + pos.pawns[seat] as usize];
        self.least_plies(path, pos.pawns, pos.side as usize == seat)
    }

    /// [`Self::least_plies_to_win`] of the position `mv` leads to from
    /// `pos`, read from `pos`'s layout (which holds the distances after
    /// each wall choice) without the new position's layout.
    pub fn least_plies_after(&self, pos: &Pos, layout: &Layout, mv: Move, seat: usize) -> u32 {
        let mover = pos.side as usize;
        let mut pawns = pos.pawns;
        if let Move::Step(to) = mv {
            pawns[mover] = to;
        }
        let square = pawns[seat] as usize;
        let path = match mv {
            Move::Wall(i) => layout.distance_after[(i as usize * 2 + seat) * self.area + square],
            _ => layout.distance[seat * self.area + square],
        };
        self.least_plies(path, pawns, mover != seat)
    }

    /// The fewest plies in which a pawn `path` squares from its goal can
    /// arrive, the other pawn where `pawns` says, when its player moves
    /// first (`to_move`) or second. A move brings it at most a square
    /// nearer, two with a jump, and a jump needs the pawns side by side:
    /// `apart` squares apart (the rows and columns between them), they
    /// need `apart - 1` plies to meet (a ply moves one pawn a square while
    /// they are not side by side), so its first moves before that are
    /// single steps.
    fn least_plies(&self, path: u8, pawns: [u8; 2], to_move: bool) -> u32 {
        let apart = u32::from(self.apart[pawns[0] as usize * self.area + pawns[1] as usize]);
        let path = u32::from(path);
        // Its j-th move comes after 2(j - 1) plies (or 2j - 1 moving
        // second); the moves before `apart - 1` plies cannot jump.
        let steps = if to_move { apart / 2 } else { apart.saturating_sub(1) / 2 };
        let moves = if path <= steps { path } else { steps + (path - steps).div_ceil(2) };
        if to_move {
            (2 * moves).saturating_sub(1)
        } else {
            2 * moves
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::bits;
    use crate::games::quoridor::Quoridor;
    use crate::rng::Rng;

    /// The fewest plies in which `seat`'s pawn can reach its goal with
    /// the walls as they stand, the other player helping: a breadth-first
    /// search over both pawns' squares and the side to move, where either
    /// side may also pass (a wall placed only blocks more).
    fn helped_plies(shape: &Shape, pos: &Pos, layout: &Layout, seat: usize) -> u32 {
        let index = |p: [usize; 2], side: usize| (p[0] * shape.area + p[1]) * 2 + side;
        let mut seen = vec![false; shape.area * shape.area * 2];
        let start = pos.pawns.map(|p| p as usize);
        let mut level = vec![(start, pos.side as usize)];
        seen[index(start, pos.side as usize)] = true;
        for plies in 0.. {
            let mut next = Vec::new();
            for &(pawns, side) in &level {
                if shape.goal[seat] >> pawns[seat] & 1 == 1 {
                    return plies;
                }
                let targets = shape.pawn_targets(layout.edges, pawns[side], pawns[1 - side]);
                let passed = std::iter::once(pawns[side]);
                for square in passed.chain(bits(targets)) {
                    let mut after = pawns;
                    after[side] = square;
                    if !std::mem::replace(&mut seen[index(after, 1 - side)], true) {
                        next.push((after, 1 - side));
                    }
                }
            }
            assert!(!next.is_empty(), "a legal position's goal is reachable");
            level = next;
        }
        unreachable!()
    }

    /// The bound on the plies to win never passes the fewest plies the
    /// pawns can take with the other player's help, and it reaches them
    /// often (it is not the plain half-path bound).
    #[test]
    fn the_least_plies_to_win_never_pass_the_helped_race() {
        let mut rng = Rng::new(7);
        let (mut tight, mut looser_before) = (0, 0);
        for start in [
            "quoridor 5x5 pawns=c1,c5 hand=4,4 walls=- turn=1",
            "quoridor 4x7 pawns=b1,b7 hand=3,3 walls=- turn=1",
            "quoridor 3x9 pawns=b1,b9 hand=3,3 walls=- turn=1",
            "quoridor 2x5 pawns=a1,a5 hand=2,2 walls=- turn=1",
        ] {
            let first = Quoridor::from_text(start).expect("a position");
            let shape = Shape::of(&first).expect("fits");
            for _ in 0..20 {
                let mut pos = shape.pos_of(&first);
                loop {
                    let layout = shape.layout(pos.walls);
                    if (0..2).any(|seat| shape.on_goal(seat, pos.pawns[seat])) {
                        break;
                    }
                    for seat in 0..2 {
                        let (bound, helped) = (
                            shape.least_plies_to_win(&pos, &layout, seat),
                            helped_plies(&shape, &pos, &layout, seat),
                        );
                        assert!(bound <= helped, "{} seat {seat}: {bound} > {helped}", shape.text(&pos));
                        tight += usize::from(bound == helped);
                        let path = u32::from(layout.distance[seat * shape.area + pos.pawns[seat] as usize]);
                        let half = 2 * path.div_ceil(2) - u32::from(pos.side as usize == seat);
                        looser_before += usize::from(half < bound);
                    }
                    let mut moves = Vec::new();
                    shape.ordered_moves(&pos, &layout, &mut moves);
                    pos = shape.play(&pos, &layout, moves[rng.below(moves.len() as u64) as usize]).0;
                }
            }
        }
        assert!(
            tight > 100 && looser_before > 100,
            "tight {tight}, tighter than half the path {looser_before}"
        );
    }
}
