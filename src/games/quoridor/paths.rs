//! Shortest paths on the Quoridor board, pawns ignored: a seat's distance to
//! its goal, the narrow places of its shortest paths, and every edge that lies
//! on some shortest path (what a wall must cut to lengthen the path at once).
//!
//! The flood fills run on [`Maze`], the board cut down to as many bitboard
//! words as it has rows for (three for 9x9 instead of four): they are most of
//! the search's time.

use super::bitboard::{BitBoard, Bits};
use super::board::Quoridor;
use super::seat_paths::SeatPaths;

/// Paths longer than this are not traced edge by edge; callers treat every
/// edge as on the path, which is safe and, on boards this large, rare.
const TRACED: usize = 64;

/// Runs `$body` with the const `$w` set to the number of words a board needs.
macro_rules! with_words {
    ($words:expr, $w:ident => $body:expr) => {
        match $words {
            1 => {
                const $w: usize = 1;
                $body
            }
            2 => {
                const $w: usize = 2;
                $body
            }
            3 => {
                const $w: usize = 3;
                $body
            }
            _ => {
                const $w: usize = 4;
                $body
            }
        }
    };
}
pub(super) use with_words;

/// The board and its walls in the first `W` words of the layout.
#[derive(Clone, Copy)]
pub(super) struct Maze<const W: usize> {
    board: Bits<W>,
    /// Squares whose north / east edge is walled off.
    block_north: Bits<W>,
    block_east: Bits<W>,
}

/// Narrow places are counted up to this many: the evaluation tells no more
/// apart.
pub(super) const NARROW_COUNTED: u32 = 2;

/// What a flood fill from a pawn towards its goal found.
enum Layers {
    /// The goal is this many steps away; layers `0..=depth` are filled.
    Reached(usize),
    WalledOff,
    /// Farther than [`TRACED`] steps: the layers are not all kept.
    TooLong,
}

impl<const W: usize> Maze<W> {
    #[inline]
    pub(super) fn new(board: BitBoard, block_north: BitBoard, block_east: BitBoard) -> Self {
        Maze { board: board.narrow(), block_north: block_north.narrow(), block_east: block_east.narrow() }
    }

    /// The squares one open step from `set` (a step is the same both ways:
    /// also the squares with a step into `set`).
    #[inline]
    pub(super) fn neighbours(&self, set: Bits<W>) -> Bits<W> {
        let north = (set & !self.block_north).north();
        let south = set.south() & !self.block_north;
        let east = (set & !self.block_east).east();
        let west = set.west() & !self.block_east;
        (north | south | east | west) & self.board
    }

    /// The squares reachable in one step from `set`, plus `set`.
    #[inline]
    fn grow(&self, set: Bits<W>) -> Bits<W> {
        (set & self.board) | self.neighbours(set)
    }

    /// Flood fill from `start` until it touches `goal` or stops growing.
    #[inline]
    pub(super) fn reaches(&self, start: usize, goal: &BitBoard) -> bool {
        let goal: Bits<W> = goal.narrow();
        let mut reached = Bits::single(start);
        loop {
            if reached.intersects(&goal) {
                return true;
            }
            let grown = self.grow(reached);
            if grown == reached {
                return false;
            }
            reached = grown;
        }
    }

    /// Fills `layers[k]` with the squares exactly `k` steps from `start`, up
    /// to the first layer touching `goal`.
    fn distance_layers(&self, start: usize, goal: Bits<W>, layers: &mut [Bits<W>; TRACED]) -> Layers {
        layers[0] = Bits::single(start);
        let mut reached = layers[0];
        let mut depth = 0;
        while !layers[depth].intersects(&goal) {
            let grown = self.grow(reached);
            if grown == reached {
                return Layers::WalledOff;
            }
            depth += 1;
            if depth == TRACED {
                return Layers::TooLong;
            }
            layers[depth] = grown & !reached;
            reached = grown;
        }
        Layers::Reached(depth)
    }

    /// See [`Quoridor::trace_paths`]; `None` when the path is too long to
    /// trace.
    fn trace(&self, start: usize, goal: BitBoard) -> Option<SeatPaths> {
        let goal = goal.narrow();
        let mut layers = [Bits::EMPTY; TRACED];
        let depth = match self.distance_layers(start, goal, &mut layers) {
            Layers::WalledOff => return Some(SeatPaths::WALLED_OFF),
            Layers::TooLong => return None,
            Layers::Reached(depth) => depth,
        };
        // Walk back from the goal: a square one step nearer the pawn is on a
        // shortest path when it has an open edge to a square that is. Every
        // open edge between two such squares of consecutive layers lies on a
        // shortest path.
        let (open_north, open_east) = (!self.block_north, !self.block_east);
        let (mut all_north, mut all_east) = (Bits::EMPTY, Bits::EMPTY);
        let mut narrow = 0;
        let mut next = layers[depth] & goal;
        for k in (0..depth).rev() {
            // The squares one open step from `next`, by direction of the step.
            let north_of_next = (next & open_north).north();
            let south_of_next = next.south() & open_north;
            let east_of_next = (next & open_east).east();
            let west_of_next = next.west() & open_east;
            let here = layers[k] & (north_of_next | south_of_next | east_of_next | west_of_next);
            // The edges between `here` and `next`, by the square south (west)
            // of each.
            let north = (here & south_of_next) | (here & north_of_next).south();
            let east = (here & west_of_next) | (here & east_of_next).west();
            // One wall blocks these edges when they are one edge, or two
            // side by side: all within the lowest and its neighbour. (No
            // popcount: it is not in the baseline instruction set.) Counting
            // stops at the most the evaluation tells apart.
            if narrow < NARROW_COUNTED {
                let one_wall = match (north.is_empty(), east.is_empty()) {
                    (false, true) => (north & !(north.lowest() | north.lowest().east())).is_empty(),
                    (true, false) => (east & !(east.lowest() | east.lowest().north())).is_empty(),
                    _ => false,
                };
                narrow += u32::from(one_wall);
            }
            all_north |= north;
            all_east |= east;
            next = here;
        }
        Some(SeatPaths::from_edges(Some((depth as u32, narrow)), all_north.widen(), all_east.widen()))
    }
}

impl Quoridor {
    /// Length of the shortest path (pawns ignored) from a seat's pawn to its
    /// goal, or `None` when walled off.
    pub fn distance_to_goal(&self, seat: usize) -> Option<u32> {
        let maze: Maze<4> = Maze::new(self.geometry().board, self.block_north, self.block_east);
        let goal = *self.goal(seat);
        let mut reached = BitBoard::single(self.pawns[seat] as usize);
        let mut steps = 0;
        loop {
            if reached.intersects(&goal) {
                return Some(steps);
            }
            let grown = maze.grow(reached);
            if grown == reached {
                return None;
            }
            reached = grown;
            steps += 1;
        }
    }

    /// Traces a seat's shortest paths from scratch (see [`SeatPaths`]): its
    /// distance to its goal, the number of places where a single wall cuts
    /// every shortest path at once (the steps between two layers of the
    /// shortest-path graph that use one edge, or two edges side by side under
    /// one wall), and the wall centres that cut an edge of that graph.
    pub(super) fn trace_paths(&self, seat: usize) -> SeatPaths {
        let geometry = self.geometry();
        let (start, goal) = (self.pawns[seat] as usize, *self.goal(seat));
        let traced = with_words!(geometry.words, W => {
            Maze::<W>::new(geometry.board, self.block_north, self.block_east).trace(start, goal)
        });
        traced.unwrap_or_else(|| {
            let profile = self.distance_to_goal(seat).map(|d| (d, 0));
            SeatPaths::from_edges(profile, geometry.board, geometry.board)
        })
    }

    /// A seat's distance to its goal and the number of places where one wall
    /// cuts every shortest path, counted up to `NARROW_COUNTED`; `None`
    /// when the seat is walled off.
    pub fn path_profile(&self, seat: usize) -> Option<(u32, u32)> {
        self.paths[seat].profile
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::prelude::*;
    use crate::games::quoridor::random_game;
    use crate::rng::Rng;

    /// The profile as first written: full-width layers and popcounts.
    fn reference_profile(p: &Quoridor, seat: usize) -> Option<(u32, u32)> {
        let maze: Maze<4> = Maze::new(p.geometry().board, p.block_north, p.block_east);
        let goal = *p.goal(seat);
        let mut layers = [BitBoard::EMPTY; TRACED];
        let Layers::Reached(depth) = maze.distance_layers(p.pawn(seat), goal, &mut layers) else {
            return None;
        };
        let mut narrow = 0;
        let mut next = layers[depth] & goal;
        for k in (0..depth).rev() {
            let here = layers[k] & maze.grow(next);
            let north = ((here & next.south()) | (next & here.south())) & !p.block_north;
            let east = ((here & next.west()) | (next & here.west())) & !p.block_east;
            narrow += u32::from(
                narrow < NARROW_COUNTED
                    && match (north.count(), east.count()) {
                        (1, 0) | (0, 1) => true,
                        (2, 0) => (north & north.west()).count() == 1,
                        (0, 2) => (east & east.south()).count() == 1,
                        _ => false,
                    },
            );
            next = here;
        }
        Some((depth as u32, narrow))
    }

    #[test]
    fn traced_profiles_agree_with_the_reference_on_random_games() {
        let mut rng = Rng::new(7);
        for text in [
            "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1",
            "quoridor 5x7 pawns=c1,c7 hand=5,5 walls=- turn=1",
        ] {
            for _ in 0..30 {
                random_game(
                    text,
                    &mut rng,
                    |p| p.walls_in_hand(p.side_to_move()) + p.walls_in_hand(1 - p.side_to_move()) > 0,
                    |p| {
                        for seat in 0..2 {
                            assert_eq!(
                                p.trace_paths(seat).profile,
                                reference_profile(p, seat),
                                "{}",
                                p.to_text()
                            );
                        }
                    },
                );
            }
        }
    }
}
