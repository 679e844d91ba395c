//! The layered solver's own copy of the Quoridor rules, on small bitsets
//! (a bit per square or wall centre, boards of up to 64 squares): wall
//! edges, steps, jumps and side-steps, which squares still reach a goal,
//! where a wall fits, and the left-right mirror a layer is stored as.
//! Written from the rulebook, not taken from the engine's move generator,
//! so that the layered solver and [`crate::solve::graph`] stay independent
//! methods. Also the layer key ([`LayerKey`]: walls placed and in hand) and
//! a level's layers ([`Level`]), which every part of the solver shares.

use crate::bits::bits;
use std::collections::HashMap;

/// Walls on the board and walls in hand: what a layer shares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct LayerKey {
    /// Wall centres as bits `(y - 1) * (width - 1) + (x - 1)`.
    pub(super) horizontal: u64,
    pub(super) vertical: u64,
    pub(super) hand: [u8; 2],
}

/// The layers of one level (a number of walls added since the start), with
/// their values once known.
#[derive(Default)]
pub(super) struct Level {
    pub(super) index: HashMap<LayerKey, usize>,
    pub(super) keys: Vec<LayerKey>,
    pub(super) values: Vec<Box<[u8]>>,
}

impl Level {
    /// A level of these layers, not yet valued.
    pub(super) fn of_keys(keys: Vec<LayerKey>) -> Level {
        let index = keys.iter().enumerate().map(|(i, k)| (*k, i)).collect();
        Level { index, keys, values: Vec::new() }
    }
}

/// The four directions as (column, row) steps: north, east, south, west.
const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// The board's shape and goal rows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Board {
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) area: usize,
    /// Player 1 goes north (top row), player 2 south (bottom row).
    pub(super) north_row: u64,
    pub(super) south_row: u64,
}

/// The blocked edges of a wall set: a bit per square whose north / east
/// side is walled.
#[derive(Clone, Copy)]
pub(super) struct Edges {
    north: u64,
    east: u64,
}

impl Board {
    pub(super) fn new(width: usize, height: usize) -> Board {
        let row = (1u64 << width) - 1;
        Board {
            width,
            height,
            area: width * height,
            north_row: row << (width * (height - 1)),
            south_row: row,
        }
    }

    fn centres(&self) -> usize {
        (self.width - 1) * (self.height - 1)
    }

    pub(super) fn edges(&self, horizontal: u64, vertical: u64) -> Edges {
        let mut edges = Edges { north: 0, east: 0 };
        let span = self.width - 1;
        for slot in bits(horizontal) {
            // Centre (x, y) closes the north side of squares (x-1, y-1), (x, y-1).
            let (x, y) = (slot % span + 1, slot / span + 1);
            let square = (y - 1) * self.width + x - 1;
            edges.north |= 0b11 << square;
        }
        for slot in bits(vertical) {
            // Centre (x, y) closes the east side of squares (x-1, y-1), (x-1, y).
            let (x, y) = (slot % span + 1, slot / span + 1);
            let square = (y - 1) * self.width + x - 1;
            edges.east |= 1 << square | 1 << (square + self.width);
        }
        edges
    }

    /// The square one step away, if it is on the board and no wall is between.
    fn step(&self, edges: Edges, square: usize, (dx, dy): (isize, isize)) -> Option<usize> {
        let (x, y) = (square % self.width, square / self.width);
        let open = match (dx, dy) {
            (0, 1) => y + 1 < self.height && edges.north >> square & 1 == 0,
            (0, -1) => y > 0 && edges.north >> (square - self.width) & 1 == 0,
            (1, 0) => x + 1 < self.width && edges.east >> square & 1 == 0,
            _ => x > 0 && edges.east >> (square - 1) & 1 == 0,
        };
        open.then(|| (square as isize + dx + dy * self.width as isize) as usize)
    }

    /// Squares from which `goal` can be reached, walls permitting.
    pub(super) fn reach(&self, edges: Edges, goal: u64) -> u64 {
        let mut found = goal;
        let mut frontier = goal;
        while frontier != 0 {
            let mut next = 0;
            for square in bits(frontier) {
                for dir in DIRECTIONS {
                    if let Some(s) = self.step(edges, square, dir) {
                        next |= 1 << s;
                    }
                }
            }
            frontier = next & !found;
            found |= frontier;
        }
        found
    }

    /// Whether a wall at `slot` would overlap or cross one already there.
    fn overlaps(&self, key: &LayerKey, slot: usize, vertical: bool) -> bool {
        let span = self.width - 1;
        let (x, y) = (slot % span + 1, slot / span + 1);
        let has = |set: u64, s: usize| set >> s & 1 == 1;
        if has(key.horizontal, slot) || has(key.vertical, slot) {
            return true;
        }
        if vertical {
            (y > 1 && has(key.vertical, slot - span))
                || (y < self.height - 1 && has(key.vertical, slot + span))
        } else {
            (x > 1 && has(key.horizontal, slot - 1)) || (x < span && has(key.horizontal, slot + 1))
        }
    }

    /// The layer's wall set with each wall that fits added (walls in hand
    /// unchanged).
    pub(super) fn wall_sets_after<'a>(&'a self, key: &'a LayerKey) -> impl Iterator<Item = LayerKey> + 'a {
        (0..self.centres())
            .flat_map(|slot| [(slot, false), (slot, true)])
            .filter(|&(slot, vertical)| !self.overlaps(key, slot, vertical))
            .map(|(slot, vertical)| {
                let mut wider = *key;
                if vertical {
                    wider.vertical |= 1 << slot;
                } else {
                    wider.horizontal |= 1 << slot;
                }
                wider
            })
    }

    /// The pawn squares the mover can go to (steps, jumps, side steps).
    pub(super) fn pawn_targets(&self, edges: Edges, mover: usize, other: usize) -> u64 {
        let mut targets = 0;
        for dir in DIRECTIONS {
            let Some(next) = self.step(edges, mover, dir) else { continue };
            if next != other {
                targets |= 1 << next;
            } else if let Some(behind) = self.step(edges, other, dir) {
                targets |= 1 << behind;
            } else {
                // A wall or the edge behind the other pawn: step beside it.
                for side in [(dir.1, dir.0), (-dir.1, -dir.0)] {
                    if let Some(beside) = self.step(edges, other, side) {
                        targets |= 1 << beside;
                    }
                }
            }
        }
        targets
    }

    /// The index of a pawn placement with a side to move.
    pub(super) fn config(&self, pawns: [usize; 2], side: usize) -> usize {
        (pawns[0] * self.area + pawns[1]) * 2 + side
    }

    /// The index of a placement in a layer stored as its mirror image.
    pub(super) fn config_seen(&self, pawns: [usize; 2], side: usize, mirrored: bool) -> usize {
        if mirrored {
            self.config(pawns.map(|p| p - p % self.width + (self.width - 1 - p % self.width)), side)
        } else {
            self.config(pawns, side)
        }
    }

    /// The layer as stored: of a wall set and its mirror image (left and
    /// right swapped, which changes no value), the smaller; and whether it
    /// was mirrored.
    pub(super) fn canonical(&self, key: LayerKey) -> (LayerKey, bool) {
        let span = self.width - 1;
        let mirror = |set: u64| {
            bits(set).fold(0u64, |m, slot| m | 1 << (slot - slot % span + (span - 1 - slot % span)))
        };
        let image =
            LayerKey { horizontal: mirror(key.horizontal), vertical: mirror(key.vertical), hand: key.hand };
        if (image.horizontal, image.vertical) < (key.horizontal, key.vertical) {
            (image, true)
        } else {
            (key, false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(horizontal: u64, vertical: u64) -> LayerKey {
        LayerKey { horizontal, vertical, hand: [1, 1] }
    }

    #[test]
    fn two_walls_seal_a_row_from_the_goal() {
        let board = Board::new(4, 3);
        let open = board.edges(0, 0);
        assert_eq!(board.reach(open, board.north_row), (1 << 12) - 1);
        // Centres (1, 1) and (3, 1) close the north sides of all of row 1.
        let sealed = board.edges(0b101, 0);
        assert_eq!(board.reach(sealed, board.north_row), 0xff0);
        assert_eq!(board.reach(sealed, board.south_row), 0x00f);
    }

    #[test]
    fn a_pawn_jumps_or_steps_beside_the_other() {
        let board = Board::new(3, 3);
        // b1 against b2: west, east, and the jump to b3.
        assert_eq!(board.pawn_targets(board.edges(0, 0), 1, 4), 1 << 0 | 1 << 2 | 1 << 7);
        // A wall behind b2 (centre (1, 2), slot 2): side-steps to a2 and c2.
        let walled = board.edges(1 << 2, 0);
        assert_eq!(board.pawn_targets(walled, 1, 4), 1 << 0 | 1 << 2 | 1 << 3 | 1 << 5);
        // A vertical wall east of b1 (centre (2, 1), slot 1) closes c1.
        assert_eq!(board.pawn_targets(board.edges(0, 1 << 1), 1, 4), 1 << 0 | 1 << 7);
    }

    #[test]
    fn walls_fit_where_they_neither_overlap_nor_cross() {
        let board = Board::new(3, 3);
        assert_eq!(board.wall_sets_after(&key(0, 0)).count(), 8);
        // After a horizontal wall at (1, 1): not there again, not crossed
        // there, not beside it at (2, 1); five places remain.
        let after: Vec<LayerKey> = board.wall_sets_after(&key(1, 0)).collect();
        assert_eq!(after.len(), 5);
        assert!(after.iter().all(|k| k.horizontal & 1 == 1 && (k.horizontal | k.vertical).count_ones() == 2));
    }

    #[test]
    fn a_layer_and_its_mirror_are_stored_once() {
        let board = Board::new(3, 3);
        // Horizontal walls at (1, 1) and (2, 1) are each other's mirror.
        let (left, left_mirrored) = board.canonical(key(0b01, 0));
        let (right, right_mirrored) = board.canonical(key(0b10, 0));
        assert_eq!(left, right);
        assert_ne!(left_mirrored, right_mirrored);
        // Pawns on a1 and c3 seen in the mirror stand on c1 and a3.
        assert_eq!(board.config_seen([0, 8], 1, true), board.config([2, 6], 1));
        assert_eq!(board.config_seen([0, 8], 1, false), board.config([0, 8], 1));
    }
}
