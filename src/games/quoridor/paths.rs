//! Shortest paths on the Quoridor board, pawns ignored: a seat's distance to
//! its goal, one shortest path, and every edge that lies on some shortest
//! path (what a wall must cut to lengthen the path at once).

use super::bitboard::BitBoard;
use super::board::Quoridor;
use super::tracked::SeatPaths;

/// Paths longer than this are not traced edge by edge; callers treat every
/// edge as on the path, which is safe and, on boards this large, rare.
const TRACED: usize = 64;

/// What a flood fill from a pawn towards its goal found.
enum Layers {
    /// The goal is this many steps away; layers `0..=depth` are filled.
    Reached(usize),
    WalledOff,
    /// Farther than [`TRACED`] steps: the layers are not all kept.
    TooLong,
}

impl Quoridor {
    /// Fills `layers[k]` with the squares exactly `k` steps from a seat's
    /// pawn (pawns ignored), up to the first layer touching its goal.
    fn distance_layers(&self, seat: usize, layers: &mut [BitBoard; TRACED]) -> Layers {
        let board = self.geometry().board;
        let goal = *self.goal(seat);
        layers[0] = BitBoard::single(self.pawns[seat] as usize);
        let mut reached = layers[0];
        let mut depth = 0;
        while !layers[depth].intersects(&goal) {
            let grown = grow(reached, board, self.block_north, self.block_east);
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

    /// Length of the shortest path (pawns ignored) from a seat's pawn to its
    /// goal, or `None` when walled off.
    pub fn distance_to_goal(&self, seat: usize) -> Option<u32> {
        let board = self.geometry().board;
        let goal = *self.goal(seat);
        let mut reached = BitBoard::single(self.pawns[seat] as usize);
        let mut steps = 0;
        loop {
            if reached.intersects(&goal) {
                return Some(steps);
            }
            let grown = grow(reached, board, self.block_north, self.block_east);
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
        let board = self.geometry().board;
        let goal = *self.goal(seat);
        let mut layers = [BitBoard::EMPTY; TRACED];
        let depth = match self.distance_layers(seat, &mut layers) {
            Layers::WalledOff => return SeatPaths::WALLED_OFF,
            Layers::TooLong => {
                let profile = self.distance_to_goal(seat).map(|d| (d, 0));
                return SeatPaths::from_edges(profile, board, board);
            }
            Layers::Reached(depth) => depth,
        };
        // Walk back from the goal: a square one step nearer the pawn is on a
        // shortest path when it has an open edge to a square that is. Every
        // open edge between two such squares of consecutive layers lies on a
        // shortest path.
        let (block_north, block_east) = (self.block_north, self.block_east);
        let (mut all_north, mut all_east) = (BitBoard::EMPTY, BitBoard::EMPTY);
        let mut narrow = 0;
        let mut next = layers[depth] & goal;
        for k in (0..depth).rev() {
            let here = layers[k] & grow(next, board, block_north, block_east);
            let north = ((here & next.south()) | (next & here.south())) & !block_north;
            let east = ((here & next.west()) | (next & here.west())) & !block_east;
            let (n, e) = (north.count(), east.count());
            let one_wall = match (n, e) {
                (1, 0) | (0, 1) => true,
                (2, 0) => (north & north.west()).count() == 1,
                (0, 2) => (east & east.south()).count() == 1,
                _ => false,
            };
            narrow += u32::from(one_wall);
            all_north |= north;
            all_east |= east;
            next = here;
        }
        SeatPaths::from_edges(Some((depth as u32, narrow)), all_north, all_east)
    }

    /// A seat's distance to its goal and the number of places where one wall
    /// cuts every shortest path; `None` when the seat is walled off.
    pub fn path_profile(&self, seat: usize) -> Option<(u32, u32)> {
        self.paths[seat].profile
    }
}

/// The squares reachable in one step from `set`, plus `set`.
#[inline]
pub(super) fn grow(set: BitBoard, board: BitBoard, block_north: BitBoard, block_east: BitBoard) -> BitBoard {
    let north = (set & !block_north).north();
    let south = set.south() & !block_north;
    let east = (set & !block_east).east();
    let west = set.west() & !block_east;
    (set | north | south | east | west) & board
}

/// Flood fill from `start` until it touches `goal` or stops growing.
#[inline]
pub(super) fn reaches(
    start: usize,
    goal: &BitBoard,
    board: BitBoard,
    block_north: BitBoard,
    block_east: BitBoard,
) -> bool {
    let mut reached = BitBoard::single(start);
    loop {
        if reached.intersects(goal) {
            return true;
        }
        let grown = grow(reached, board, block_north, block_east);
        if grown == reached {
            return false;
        }
        reached = grown;
    }
}
