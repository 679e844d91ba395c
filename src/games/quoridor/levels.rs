//! The playing levels below full strength: the three scripted Quoridor
//! players of the seed report (levels 1-3: random, easy and hard), each
//! deterministic for a given random source, and the handicaps of the searching
//! levels 4-9.

use super::bitboard::STRIDE;
use super::board::Quoridor;
use super::moves::QuoridorMove;
use crate::game::Position;
use crate::game::{Handicap, MoveList};
use crate::rng::Rng;

/// Levels 4..=9. Below four plies one more ply is worth 70-80 % against the
/// level below; above it much less (depth 6 against depth 4 scores 64-67 %),
/// so the levels are spread by depth, leaf noise and a root bonus: two
/// levels at depth 2 apart by noise alone, and levels 7 and 8 held back by
/// a root bonus (which, unlike leaf noise, deeper searches do not average
/// away) so that the span from depth 3 to full strength holds three steps.
/// The node caps keep every level reproducible and below full strength at
/// any clock. The measured scores are in docs/strength.md.
const HANDICAPS: [Handicap; 6] = [
    Handicap { depth: 1, nodes: 5_000, noise: 135, root_noise: 0 },
    Handicap { depth: 2, nodes: 20_000, noise: 190, root_noise: 0 },
    Handicap { depth: 2, nodes: 80_000, noise: 95, root_noise: 0 },
    Handicap { depth: 3, nodes: 300_000, noise: 60, root_noise: 125 },
    Handicap { depth: 4, nodes: 1_000_000, noise: 0, root_noise: 70 },
    Handicap { depth: 6, nodes: 3_000_000, noise: 0, root_noise: 0 },
];

/// The handicap of a searching level, `None` for levels 1-3 and 10.
pub fn handicap(level: u32) -> Option<Handicap> {
    HANDICAPS.get(level.checked_sub(4)? as usize).copied()
}

/// Percent of the easy player's turns spent on a wall, when one fits.
const EASY_WALL_PERCENT: u64 = 20;

impl Quoridor {
    /// Level 1: a random legal move, a wall half of the time when walls remain.
    pub fn random_move(&self, rng: &mut Rng) -> QuoridorMove {
        let (pawn, walls) = self.split_moves();
        if !walls.is_empty() && (pawn.is_empty() || rng.chance(50)) {
            return *rng.pick(&walls);
        }
        pawn.first().map_or(QuoridorMove::pass(), |_| *rng.pick(&pawn))
    }

    /// Level 2: a step along a shortest path; sometimes a random wall between
    /// its own start edge and its pawn.
    pub fn easy_move(&self, rng: &mut Rng) -> QuoridorMove {
        let (_, walls) = self.split_moves();
        let behind_me: Vec<QuoridorMove> = walls.into_iter().filter(|&w| self.wall_behind_pawn(w)).collect();
        if !behind_me.is_empty() && rng.chance(EASY_WALL_PERCENT) {
            return *rng.pick(&behind_me);
        }
        self.shortest_path_step(rng)
    }

    /// Level 3: a step along a shortest path while behind and nobody has
    /// reached the middle; otherwise the wall that most lengthens the leading
    /// opponent's path (nearest that opponent on ties), and its own steps
    /// once walls run out or no wall lengthens that path.
    pub fn hard_move(&self, rng: &mut Rng) -> QuoridorMove {
        let me = self.side_to_move();
        let distance = |p: &Quoridor, seat: usize| p.distance_to_goal(seat).unwrap_or(u32::MAX / 4);
        let Some(leader) = (0..self.player_count()).filter(|&s| s != me).min_by_key(|&s| distance(self, s))
        else {
            return self.shortest_path_step(rng);
        };
        let behind = distance(self, me) > distance(self, leader);
        let middle_reached = (0..self.player_count()).any(|s| self.reached_middle(s));
        if behind && !middle_reached {
            return self.shortest_path_step(rng);
        }
        let (_, walls) = self.split_moves();
        let before = distance(self, leader);
        let leader_square = self.pawn(leader);
        let best = walls
            .iter()
            .map(|&w| {
                let mut after = self.clone();
                after.make_move(w);
                let gain = distance(&after, leader).saturating_sub(before);
                (gain, std::cmp::Reverse(wall_distance(w, leader_square)), w)
            })
            .max_by_key(|&(gain, near, w)| (gain, near, std::cmp::Reverse(w.code())));
        match best {
            Some((gain, _, wall)) if gain > 0 => wall,
            _ => self.shortest_path_step(rng),
        }
    }

    /// A pawn move that shortens the mover's path the most (random on ties).
    pub fn shortest_path_step(&self, rng: &mut Rng) -> QuoridorMove {
        let (pawn, _) = self.split_moves();
        let me = self.side_to_move();
        let after = |&mv: &QuoridorMove| {
            let mut next = self.clone();
            next.make_move(mv);
            next.distance_to_goal(me).unwrap_or(u32::MAX)
        };
        let Some(best) = pawn.iter().map(after).min() else {
            return QuoridorMove::pass();
        };
        let shortest: Vec<QuoridorMove> = pawn.iter().copied().filter(|m| after(m) == best).collect();
        *rng.pick(&shortest)
    }

    /// Legal pawn moves and legal walls, apart.
    fn split_moves(&self) -> (Vec<QuoridorMove>, Vec<QuoridorMove>) {
        let mut moves = MoveList::default();
        self.generate_moves(&mut moves);
        moves.iter().copied().filter(|m| !m.is_pass()).partition(|m| !m.is_wall())
    }

    /// Whether a wall lies between the mover's start edge and its pawn.
    fn wall_behind_pawn(&self, wall: QuoridorMove) -> bool {
        let super::MoveKind::Wall { centre, .. } = wall.kind() else { return false };
        let (x, y) = (centre % STRIDE, centre / STRIDE);
        let pawn = self.pawn(self.side_to_move());
        let (col, row) = (pawn % STRIDE, pawn / STRIDE);
        // Lattice point (x, y) is the south-west corner of square (x, y).
        match (self.player_count(), self.side_to_move()) {
            (_, 0) => y <= row,
            (2, _) | (_, 2) => y > row,
            (_, 1) => x <= col,
            _ => x > col,
        }
    }

    /// Whether a seat's pawn is at least halfway from its start edge to its goal.
    fn reached_middle(&self, seat: usize) -> bool {
        let square = self.pawn(seat);
        let (col, row) = (square % STRIDE, square / STRIDE);
        let (w, h) = (self.width(), self.height());
        // Halfway or further along the axis from the start edge to the goal.
        match (self.player_count(), seat) {
            (_, 0) => 2 * row + 1 >= h,
            (2, _) | (_, 2) => 2 * row < h,
            (_, 1) => 2 * col + 1 >= w,
            _ => 2 * col < w,
        }
    }
}

/// How far a wall's centre is from a square's centre, in half squares.
fn wall_distance(wall: QuoridorMove, square: usize) -> usize {
    let super::MoveKind::Wall { centre, .. } = wall.kind() else { return usize::MAX };
    let (cx, cy) = (2 * (centre % STRIDE), 2 * (centre / STRIDE));
    let (sx, sy) = (2 * (square % STRIDE) + 1, 2 * (square / STRIDE) + 1);
    cx.abs_diff(sx) + cy.abs_diff(sy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::prelude::*;

    fn position(text: &str) -> Quoridor {
        Quoridor::from_text(text).unwrap()
    }

    #[test]
    fn easy_and_hard_step_along_a_shortest_path_at_the_start() {
        let p = position("quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1");
        let mut rng = Rng::new(1);
        assert_eq!(p.format_move(p.shortest_path_step(&mut rng)), "e2");
        // Hard: not behind at the start, so it walls the opponent at once.
        let hard = p.hard_move(&mut rng);
        assert!(hard.is_wall());
        let mut after = p.clone();
        after.make_move(hard);
        assert!(after.distance_to_goal(1) > p.distance_to_goal(1));
    }

    #[test]
    fn hard_steps_while_behind_before_the_middle() {
        let p = position("quoridor 9x9 pawns=e1,e7 hand=10,10 walls=- turn=1");
        let mut rng = Rng::new(1);
        assert_eq!(p.format_move(p.hard_move(&mut rng)), "e2");
        // Once someone is past the middle it walls the leader instead.
        let p = position("quoridor 9x9 pawns=e1,e4 hand=10,10 walls=- turn=1");
        assert!(p.hard_move(&mut rng).is_wall());
    }

    #[test]
    fn random_walls_about_half_the_time_and_is_reproducible() {
        let p = position("quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1");
        let mut rng = Rng::new(7);
        let walls = (0..1000).filter(|_| p.random_move(&mut rng).is_wall()).count();
        assert!((400..600).contains(&walls), "{walls} walls in 1000");
        let first: Vec<_> = (0..10).map(|_| p.random_move(&mut Rng::new(3))).collect();
        assert!(first.windows(2).all(|w| w[0] == w[1]));
    }

    #[test]
    fn easy_walls_only_behind_its_pawn() {
        let p = position("quoridor 9x9 pawns=e5,e9 hand=10,10 walls=- turn=1");
        let mut rng = Rng::new(5);
        for _ in 0..200 {
            let mv = p.easy_move(&mut rng);
            if let super::super::MoveKind::Wall { centre, .. } = mv.kind() {
                assert!(centre / STRIDE <= 4, "{}", p.format_move(mv));
            }
        }
    }
}
