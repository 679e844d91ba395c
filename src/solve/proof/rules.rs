//! Two-player Quoridor as the proof search plays it: a position in a few
//! words, and for each wall set (a *layout*) what every position on it
//! shares, computed once: the blocked edges, each pawn's distance to its
//! goal from every square (pawns ignored), and every wall that still fits
//! with the squares from which each goal stays reachable once it stands.
//! A wall is then legal for a pawn placement when both pawns stand on such
//! squares: a table lookup, no path search. Moves come ordered by the
//! shortest-path race, from the same tables, and a lower bound on the
//! plies to win comes from them too (the child module `bound`).
//!
//! The rules are the rulebook's (steps, jumps, side steps when a wall or
//! the edge is behind the other pawn, walls that leave both goals
//! reachable, a pass when nothing else is legal); the tests check the moves
//! against the engine's generator, and every solved line is replayed
//! through the engine's rules. Keys and texts are in [`super::notation`],
//! the kept layouts in [`super::layouts`].

use crate::bits::bits;
use crate::game::Position;
use crate::games::quoridor::Quoridor;

mod bound;

/// A position: walls (a bit per centre slot `y * (width - 1) + x`, for
/// horizontal and vertical walls), walls in hand, pawn squares (`row *
/// width + column`) and the side to move. Player 1 (seat 0) goes north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pos {
    pub walls: [u64; 2],
    pub hand: [u8; 2],
    pub pawns: [u8; 2],
    pub side: u8,
}

/// A move in a position, with its layout: a pawn to a square, the layout's
/// wall choice with this index, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Step(u8),
    Wall(u8),
    Pass,
}

/// The most moves a position has: a pawn's five targets (three steps and
/// two side-steps, or four steps) and two walls at each of at most 50
/// centres, with room to spare.
const MAX_MOVES: usize = 128;

/// The board's shape and the masks its rules need.
#[derive(Clone, Debug)]
pub struct Shape {
    pub width: usize,
    pub height: usize,
    pub area: usize,
    /// Wall centres: `(width - 1) * (height - 1)`.
    pub centres: usize,
    board: u64,
    /// Each seat's goal row: seat 0 the top, seat 1 the bottom.
    goal: [u64; 2],
    top_row: u64,
    bottom_row: u64,
    east_column: u64,
    west_column: u64,
    /// The rows and columns between two squares, by `a * area + b`.
    apart: Vec<u8>,
}

/// Squares whose north (east) side a wall blocks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Edges {
    north: u64,
    east: u64,
}

/// A wall that fits on a layout.
#[derive(Clone, Debug)]
pub struct WallChoice {
    pub vertical: bool,
    pub slot: u8,
    /// Its slot in the mirror image.
    mirror_slot: u8,
    /// Squares from which each seat can still reach its goal with it.
    reach: [u64; 2],
}

/// What every position with one wall set shares (see the module
/// documentation).
pub struct Layout {
    /// The walls mirrored left to right.
    pub mirrored: [u64; 2],
    edges: Edges,
    /// Distance to the goal by seat and square (`u8::MAX`: cut off).
    distance: Vec<u8>,
    pub choices: Vec<WallChoice>,
    /// The same after each choice: `[choice][seat][square]`.
    distance_after: Vec<u8>,
}

impl Layout {
    /// The memory it takes.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Layout>()
            + self.choices.len() * std::mem::size_of::<WallChoice>()
            + self.distance.len()
            + self.distance_after.len()
    }
}

impl Shape {
    /// The shape of a position's board, if the proof search takes it: two
    /// players, at most 64 squares and 50 wall centres (keys fit in 128
    /// bits), fewer than 32 walls in hand.
    pub fn of(position: &Quoridor) -> Option<Shape> {
        let (width, height) = (position.width(), position.height());
        let (area, centres) = (width * height, (width - 1) * (height - 1));
        let fits = area <= 64 && centres <= 50 && (0..2).all(|s| position.walls_in_hand(s) < 32);
        if position.player_count() != 2 || !fits {
            return None;
        }
        let row = (1u64 << width) - 1;
        let column = (0..height).fold(0u64, |c, y| c | 1 << (y * width));
        let board = if area == 64 { u64::MAX } else { (1u64 << area) - 1 };
        let top_row = row << (width * (height - 1));
        Some(Shape {
            width,
            height,
            area,
            centres,
            board,
            goal: [top_row, row],
            top_row,
            bottom_row: row,
            east_column: column << (width - 1),
            west_column: column,
            apart: (0..area * area)
                .map(|i| {
                    let (a, b) = (i / area, i % area);
                    ((a % width).abs_diff(b % width) + (a / width).abs_diff(b / width)) as u8
                })
                .collect(),
        })
    }

    /// Pawn placements with a side to move: the positions of a layer.
    pub fn placements(&self) -> usize {
        2 * self.area * self.area
    }

    /// A position's index among its layer's placements.
    pub fn placement(&self, pos: &Pos) -> usize {
        (pos.pawns[0] as usize * self.area + pos.pawns[1] as usize) * 2 + pos.side as usize
    }

    /// Whether `square` is on `seat`'s goal row.
    pub fn on_goal(&self, seat: usize, square: u8) -> bool {
        self.goal[seat] >> square & 1 == 1
    }

    pub(super) fn mirror_slot(&self, slot: usize) -> usize {
        let span = self.width - 1;
        slot - slot % span + (span - 1 - slot % span)
    }

    fn edges(&self, walls: [u64; 2]) -> Edges {
        let span = self.width - 1;
        let mut edges = Edges::default();
        for slot in bits(walls[0]) {
            // The north sides of the two squares south-west and south-east of the centre.
            edges.north |= 0b11 << (slot / span * self.width + slot % span);
        }
        for slot in bits(walls[1]) {
            let square = slot / span * self.width + slot % span;
            edges.east |= 1 << square | 1 << (square + self.width);
        }
        edges
    }

    /// `set` and the squares one step from it.
    fn grow(&self, edges: Edges, set: u64) -> u64 {
        let north = (set & !edges.north & !self.top_row) << self.width;
        let south = ((set & !self.bottom_row) >> self.width) & !edges.north;
        let east = (set & !edges.east & !self.east_column) << 1;
        let west = ((set & !self.west_column) >> 1) & !edges.east;
        (set | north | south | east | west) & self.board
    }

    /// Each square's distance to `seat`'s goal into `out`; returns the
    /// squares that reach it.
    fn distances(&self, edges: Edges, seat: usize, out: &mut [u8]) -> u64 {
        out.fill(u8::MAX);
        let mut reached = self.goal[seat];
        let mut frontier = reached;
        let mut d = 0;
        while frontier != 0 {
            for square in bits(frontier) {
                out[square] = d;
            }
            let grown = self.grow(edges, reached);
            frontier = grown & !reached;
            reached = grown;
            d += 1;
        }
        reached
    }

    /// The square one step from `square` in direction `dir` (north, east,
    /// south, west), if no wall or edge is in the way.
    fn step(&self, edges: Edges, square: usize, dir: usize) -> Option<usize> {
        let (x, y) = (square % self.width, square / self.width);
        match dir {
            0 => (y + 1 < self.height && edges.north >> square & 1 == 0).then(|| square + self.width),
            1 => (x + 1 < self.width && edges.east >> square & 1 == 0).then(|| square + 1),
            2 => (y > 0 && edges.north >> (square - self.width) & 1 == 0).then(|| square - self.width),
            _ => (x > 0 && edges.east >> (square - 1) & 1 == 0).then(|| square - 1),
        }
    }

    /// The squares a pawn on `mover` can go to, the other pawn on `other`.
    fn pawn_targets(&self, edges: Edges, mover: usize, other: usize) -> u64 {
        let mut targets = 0;
        for dir in 0..4 {
            let Some(next) = self.step(edges, mover, dir) else { continue };
            if next != other {
                targets |= 1 << next;
            } else if let Some(behind) = self.step(edges, other, dir) {
                targets |= 1 << behind;
            } else {
                for side in [(dir + 1) % 4, (dir + 3) % 4] {
                    if let Some(beside) = self.step(edges, other, side) {
                        targets |= 1 << beside;
                    }
                }
            }
        }
        targets
    }

    /// Whether a wall at `slot` would overlap or cross one already there.
    fn overlaps(&self, walls: [u64; 2], slot: usize, vertical: bool) -> bool {
        let span = self.width - 1;
        let has = |set: u64, s: usize| set >> s & 1 == 1;
        if has(walls[0] | walls[1], slot) {
            return true;
        }
        if vertical {
            (slot >= span && has(walls[1], slot - span))
                || (slot + span < self.centres && has(walls[1], slot + span))
        } else {
            (!slot.is_multiple_of(span) && has(walls[0], slot - 1))
                || (slot % span + 1 < span && has(walls[0], slot + 1))
        }
    }

    /// The layout of a wall set (see [`Layout`]).
    pub fn layout(&self, walls: [u64; 2]) -> Layout {
        let mirror = |set: u64| bits(set).fold(0u64, |m, s| m | 1 << self.mirror_slot(s));
        let edges = self.edges(walls);
        let mut distance = vec![0; 2 * self.area];
        let (north, south) = distance.split_at_mut(self.area);
        self.distances(edges, 0, north);
        self.distances(edges, 1, south);
        let mut choices = Vec::new();
        let mut distance_after = Vec::new();
        let mut after = vec![0; 2 * self.area];
        for slot in 0..self.centres {
            for vertical in [false, true] {
                if self.overlaps(walls, slot, vertical) {
                    continue;
                }
                let mut wider = walls;
                wider[vertical as usize] |= 1 << slot;
                let e = self.edges(wider);
                let (north, south) = after.split_at_mut(self.area);
                let reach = [self.distances(e, 0, north), self.distances(e, 1, south)];
                if reach[0] == 0 || reach[1] == 0 {
                    continue;
                }
                let mirror_slot = self.mirror_slot(slot) as u8;
                choices.push(WallChoice { vertical, slot: slot as u8, mirror_slot, reach });
                distance_after.extend_from_slice(&after);
            }
        }
        Layout { mirrored: [mirror(walls[0]), mirror(walls[1])], edges, distance, choices, distance_after }
    }

    /// Whether the side to move can step onto its goal at once.
    pub fn wins_at_once(&self, pos: &Pos, layout: &Layout) -> bool {
        let side = pos.side as usize;
        let (mover, other) = (pos.pawns[side] as usize, pos.pawns[1 - side] as usize);
        self.pawn_targets(layout.edges, mover, other) & self.goal[side] != 0
    }

    /// Every legal move, the most promising first: a step onto the goal,
    /// then by how the race stands after the move (the opponent's distance
    /// to its goal less the mover's), steps before walls when equal.
    pub fn ordered_moves(&self, pos: &Pos, layout: &Layout, out: &mut Vec<Move>) {
        let side = pos.side as usize;
        let (mover, other) = (pos.pawns[side] as usize, pos.pawns[1 - side] as usize);
        // Scored on the stack (this runs at every node): (score, the order
        // generated, which breaks ties, the move).
        let mut scored = [(0i32, 0u8, Move::Pass); MAX_MOVES];
        let mut count = 0;
        let mut push = |score: i32, mv: Move| {
            scored[count] = (score, count as u8, mv);
            count += 1;
        };
        let their = i32::from(layout.distance[(1 - side) * self.area + other]);
        for target in bits(self.pawn_targets(layout.edges, mover, other)) {
            let score = if self.goal[side] >> target & 1 == 1 {
                i32::MAX
            } else {
                4 * (their - i32::from(layout.distance[side * self.area + target]))
            };
            push(score, Move::Step(target as u8));
        }
        if pos.hand[side] > 0 {
            let [a, b] = pos.pawns.map(|p| p as usize);
            for (i, choice) in layout.choices.iter().enumerate() {
                if choice.reach[0] >> a & 1 == 0 || choice.reach[1] >> b & 1 == 0 {
                    continue;
                }
                let after = &layout.distance_after[i * 2 * self.area..];
                let d = |seat: usize, square: usize| i32::from(after[seat * self.area + square]);
                push(4 * (d(1 - side, other) - d(side, mover)) - 1, Move::Wall(i as u8));
            }
        }
        out.clear();
        if count == 0 {
            out.push(Move::Pass);
            return;
        }
        let scored = &mut scored[..count];
        scored.sort_unstable_by_key(|&(score, order, _)| (std::cmp::Reverse(score), order));
        out.extend(scored.iter().map(|&(_, _, mv)| mv));
    }

    /// The position after a legal move, and its layout's mirrored walls.
    pub fn play(&self, pos: &Pos, layout: &Layout, mv: Move) -> (Pos, [u64; 2]) {
        let mut after = *pos;
        let mut mirrored = layout.mirrored;
        let side = pos.side as usize;
        match mv {
            Move::Step(square) => after.pawns[side] = square,
            Move::Wall(i) => {
                let choice = &layout.choices[i as usize];
                after.walls[choice.vertical as usize] |= 1 << choice.slot;
                mirrored[choice.vertical as usize] |= 1 << choice.mirror_slot;
                after.hand[side] -= 1;
            }
            Move::Pass => {}
        }
        after.side ^= 1;
        (after, mirrored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::prelude::*;
    use crate::rng::Rng;

    fn position(text: &str) -> Quoridor {
        Quoridor::from_text(text).expect("a position")
    }

    /// On random games, the moves are the engine's, and so are the
    /// positions they lead to, the texts and the distances.
    #[test]
    fn moves_positions_and_texts_agree_with_the_engine() {
        let mut rng = Rng::new(29);
        for start in [
            "quoridor 5x5 pawns=c1,c5 hand=6,6 walls=- turn=1",
            "quoridor 4x3 pawns=b1,b3 hand=4,4 walls=- turn=1",
            "quoridor 3x7 pawns=b1,b7 hand=5,5 walls=- turn=1",
            "quoridor 8x8 pawns=d1,d8 hand=10,10 walls=- turn=1",
            "quoridor 2x5 pawns=a1,a5 hand=3,3 walls=- turn=1",
        ] {
            let first = position(start);
            let shape = Shape::of(&first).expect("fits");
            for _ in 0..20 {
                let mut game = first.clone();
                while game.outcome().is_none() {
                    let pos = shape.pos_of(&game);
                    let text = position(&shape.text(&pos)).to_text();
                    assert_eq!(text, game.to_text());
                    let layout = shape.layout(pos.walls);
                    let mut ours = Vec::new();
                    shape.ordered_moves(&pos, &layout, &mut ours);
                    let mut texts: Vec<String> = ours.iter().map(|&m| shape.move_text(&layout, m)).collect();
                    let mut engine = MoveList::default();
                    game.generate_moves(&mut engine);
                    let mut expected: Vec<String> = engine.iter().map(|&m| game.format_move(m)).collect();
                    texts.sort();
                    expected.sort();
                    assert_eq!(texts, expected, "{}", game.to_text());
                    let at_once = engine.iter().any(|&m| {
                        let mut next = game.clone();
                        next.make_move(m);
                        next.outcome().is_some()
                    });
                    assert_eq!(shape.wins_at_once(&pos, &layout), at_once);
                    for seat in 0..2 {
                        let path = game.path_profile(seat).map(|(d, _)| d as u8);
                        assert_eq!(Some(layout.distance[seat * shape.area + pos.pawns[seat] as usize]), path);
                    }
                    // Every move's bound for the next position, read from
                    // this layout, is the one its own layout gives.
                    for &mv in &ours {
                        let (after, _) = shape.play(&pos, &layout, mv);
                        let own = shape.layout(after.walls);
                        for seat in 0..2 {
                            if !shape.on_goal(seat, after.pawns[seat]) {
                                assert_eq!(
                                    shape.least_plies_after(&pos, &layout, mv, seat),
                                    shape.least_plies_to_win(&after, &own, seat)
                                );
                            }
                        }
                    }
                    let mv = ours[rng.below(ours.len() as u64) as usize];
                    let (after, mirrored) = shape.play(&pos, &layout, mv);
                    game.make_move(game.parse_move(&shape.move_text(&layout, mv)).expect("legal"));
                    assert_eq!(shape.pos_of(&game), after);
                    assert_eq!(shape.layout(after.walls).mirrored, mirrored);
                }
            }
        }
    }
}
