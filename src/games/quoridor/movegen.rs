//! Legal move generation for Quoridor: pawn steps, jumps and side steps; walls
//! that neither overlap, cross, nor cut any player off its goal; pass.
//!
//! Wall legality avoids path searches where it can: a new wall can only cut
//! the board in two if it closes a loop of walls and border, which needs at
//! least two of its three lattice points to be touched already. Only those
//! candidates get a flood fill.

use super::bitboard::{BitBoard, STRIDE};
use super::board::Quoridor;
use super::moves::QuoridorMove;
use super::paths::{with_words, Maze};
use crate::game::MoveList;

/// The four directions a pawn can go, as index offsets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Direction {
    North,
    East,
    South,
    West,
}

pub const DIRECTIONS: [Direction; 4] = [Direction::North, Direction::East, Direction::South, Direction::West];

impl Direction {
    #[inline]
    fn offset(self) -> isize {
        match self {
            Direction::North => STRIDE as isize,
            Direction::South => -(STRIDE as isize),
            Direction::East => 1,
            Direction::West => -1,
        }
    }

    /// The two directions at right angles.
    #[inline]
    pub(super) fn sides(self) -> [Direction; 2] {
        match self {
            Direction::North | Direction::South => [Direction::East, Direction::West],
            Direction::East | Direction::West => [Direction::North, Direction::South],
        }
    }
}

impl Quoridor {
    /// The square one step from `square` in `dir`, if that step stays on the
    /// board and crosses no wall.
    #[inline]
    pub fn open_step(&self, square: usize, dir: Direction) -> Option<usize> {
        let (col, row) = (square % STRIDE, square / STRIDE);
        let open = match dir {
            Direction::North => row + 1 < self.height as usize && !self.block_north.contains(square),
            Direction::South => row > 0 && !self.block_north.contains(square - STRIDE),
            Direction::East => col + 1 < self.width as usize && !self.block_east.contains(square),
            Direction::West => col > 0 && !self.block_east.contains(square - 1),
        };
        open.then(|| (square as isize + dir.offset()) as usize)
    }

    /// Squares the side to move can reach with its pawn.
    pub fn pawn_targets(&self) -> BitBoard {
        let occupied = self.occupied();
        let from = self.pawns[self.side as usize] as usize;
        let mut targets = BitBoard::EMPTY;
        for dir in DIRECTIONS {
            let Some(mut next) = self.open_step(from, dir) else {
                continue;
            };
            if !occupied.contains(next) {
                targets.insert(next);
                continue;
            }
            // `next` holds a pawn: jump it, or step beside it.
            loop {
                match self.open_step(next, dir) {
                    Some(behind) if !occupied.contains(behind) => {
                        targets.insert(behind);
                        break;
                    }
                    Some(behind) if self.multi_jump => next = behind,
                    _ => {
                        for side in dir.sides() {
                            if let Some(beside) = self.open_step(next, side) {
                                if !occupied.contains(beside) {
                                    targets.insert(beside);
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        targets
    }

    /// Horizontal and vertical wall centres free of overlap and crossing.
    #[inline]
    fn unobstructed_walls(&self) -> (BitBoard, BitBoard) {
        let centres = self.geometry().wall_centres;
        let (h, v) = (self.horizontal, self.vertical);
        let free_h = centres & !(h | h.east() | h.west() | v);
        let free_v = centres & !(v | v.north() | v.south() | h);
        (free_h, free_v)
    }

    /// Of the free walls, those that might close a loop (two of their three
    /// lattice points already touched) and so need a path check.
    #[inline]
    fn walls_needing_path_check(&self, free_h: BitBoard, free_v: BitBoard) -> (BitBoard, BitBoard) {
        let t = self.touched;
        let two_of_three = |a: BitBoard, b: BitBoard, c: BitBoard| (a & b) | (a & c) | (b & c);
        (free_h & two_of_three(t.east(), t, t.west()), free_v & two_of_three(t.north(), t, t.south()))
    }

    /// Lattice points joined to the border by walls (the border included).
    fn anchored_points(&self) -> BitBoard {
        let (h, v) = (self.horizontal, self.vertical);
        // Lattice edges under a wall, by their west (south) point.
        let (east_edges, north_edges) = (h | h.west(), v | v.south());
        let mut set = self.geometry().border;
        loop {
            let grown = set
                | (set & east_edges).east()
                | (set.west() & east_edges)
                | (set & north_edges).north()
                | (set.south() & north_edges);
            if grown == set {
                return set;
            }
            set = grown;
        }
    }

    /// Of the walls that might close a loop, those that do or may: a wall
    /// closes one when two of its points are already joined by walls and
    /// border. Two points joined to the border are; one joined to the border
    /// and one of a floating group of walls are not; two of floating groups
    /// may be.
    fn walls_closing_loops(&self, check_h: BitBoard, check_v: BitBoard) -> (BitBoard, BitBoard) {
        let anchored = self.anchored_points();
        let floating = self.touched & !anchored;
        let two_of_three = |a: BitBoard, b: BitBoard, c: BitBoard| (a & b) | (a & c) | (b & c);
        let h = |t: BitBoard| two_of_three(t.east(), t, t.west());
        let v = |t: BitBoard| two_of_three(t.north(), t, t.south());
        (check_h & (h(anchored) | h(floating)), check_v & (v(anchored) | v(floating)))
    }

    /// Whether the given seats still reach their goals with one more wall.
    fn seats_survive_wall(&self, centre: usize, vertical: bool, seats: u8) -> bool {
        let (mut block_north, mut block_east) = (self.block_north, self.block_east);
        if vertical {
            block_east.insert(centre - STRIDE - 1);
            block_east.insert(centre - 1);
        } else {
            block_north.insert(centre - STRIDE - 1);
            block_north.insert(centre - STRIDE);
        }
        let geometry = self.geometry();
        with_words!(geometry.words, W => {
            let maze = Maze::<W>::new(geometry.board, block_north, block_east);
            (0..self.players as usize)
                .filter(|seat| seats & (1 << seat) != 0)
                .all(|seat| maze.reaches(self.pawns[seat] as usize, self.goal(seat)))
        })
    }

    /// Whether every player still reaches its goal with one more wall.
    pub fn paths_survive_wall(&self, centre: usize, vertical: bool) -> bool {
        self.seats_survive_wall(centre, vertical, 0b1111)
    }

    /// Legal wall centres, horizontal and vertical.
    pub fn legal_walls(&self) -> (BitBoard, BitBoard) {
        let all = self.geometry().wall_centres;
        self.legal_walls_among(all, all)
    }

    /// The legal wall centres among the given horizontal and vertical ones;
    /// only those are checked for cutting a player off.
    pub fn legal_walls_among(&self, wanted_h: BitBoard, wanted_v: BitBoard) -> (BitBoard, BitBoard) {
        if self.hand[self.side as usize] == 0 {
            return (BitBoard::EMPTY, BitBoard::EMPTY);
        }
        let (mut free_h, mut free_v) = self.unobstructed_walls();
        free_h &= wanted_h;
        free_v &= wanted_v;
        let (check_h, check_v) = self.walls_needing_path_check(free_h, free_v);
        if check_h.is_empty() && check_v.is_empty() {
            return (free_h, free_v);
        }
        // A wall that cuts no edge of a seat's shortest paths leaves them
        // intact; only the seats whose paths it cuts need a flood fill. The
        // kept shortest-path graph costs nothing to ask, where tracing one
        // path per seat would cost a flood fill each.
        let mut risky_h = [BitBoard::EMPTY; 4];
        let mut risky_v = [BitBoard::EMPTY; 4];
        for seat in 0..self.players as usize {
            risky_h[seat] = check_h & self.paths[seat].cut_h;
            risky_v[seat] = check_v & self.paths[seat].cut_v;
        }
        let seats_cut = |risky: &[BitBoard; 4], centre: usize| {
            (0..4).filter(|&s| risky[s].contains(centre)).fold(0u8, |m, s| m | 1 << s)
        };
        let any = |risky: &[BitBoard; 4]| risky[0] | risky[1] | risky[2] | risky[3];
        let (any_h, any_v) = (any(&risky_h), any(&risky_v));
        if any_h.is_empty() && any_v.is_empty() {
            return (free_h, free_v);
        }
        let (loop_h, loop_v) = self.walls_closing_loops(any_h, any_v);
        for centre in loop_h.iter() {
            if !self.seats_survive_wall(centre, false, seats_cut(&risky_h, centre)) {
                free_h.remove(centre);
            }
        }
        for centre in loop_v.iter() {
            if !self.seats_survive_wall(centre, true, seats_cut(&risky_v, centre)) {
                free_v.remove(centre);
            }
        }
        (free_h, free_v)
    }

    /// Every legal move: pawn moves first, then walls; `pass` when nothing else.
    pub fn legal_moves(&self, moves: &mut MoveList<QuoridorMove>) {
        let all = self.geometry().wall_centres;
        self.moves_with_walls_among(moves, all, all);
    }

    /// Every pawn move and the legal walls among the given centres; `pass`
    /// when that leaves nothing.
    pub(super) fn moves_with_walls_among(
        &self,
        moves: &mut MoveList<QuoridorMove>,
        wanted_h: BitBoard,
        wanted_v: BitBoard,
    ) {
        moves.clear();
        if self.winner.is_some() {
            return;
        }
        for square in self.pawn_targets().iter() {
            moves.push(QuoridorMove::step(square));
        }
        let (h, v) = self.legal_walls_among(wanted_h, wanted_v);
        for centre in h.iter() {
            moves.push(QuoridorMove::wall(centre, false));
        }
        for centre in v.iter() {
            moves.push(QuoridorMove::wall(centre, true));
        }
        if moves.is_empty() {
            moves.push(QuoridorMove::pass());
        }
    }

    /// The number of legal moves, without listing them.
    pub fn legal_move_count(&self) -> u64 {
        if self.winner.is_some() {
            return 0;
        }
        let (h, v) = self.legal_walls();
        let count = (self.pawn_targets().count() + h.count() + v.count()) as u64;
        count.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn pawn_moves(text: &str) -> Vec<String> {
        let p = Quoridor::from_text(text).unwrap();
        let mut names: Vec<String> =
            p.pawn_targets().iter().map(|s| p.format_move(QuoridorMove::step(s))).collect();
        names.sort();
        names
    }

    fn legal(text: &str) -> Vec<String> {
        let p = Quoridor::from_text(text).unwrap();
        let mut moves = MoveList::default();
        p.generate_moves(&mut moves);
        moves.iter().map(|&m| p.format_move(m)).collect()
    }

    #[test]
    fn jumps_straight_over_a_pawn() {
        assert_eq!(pawn_moves("quoridor 9x9 pawns=e4,e5 hand=0,0 walls=- turn=1"), ["d4", "e3", "e6", "f4"]);
    }

    #[test]
    fn steps_aside_when_a_wall_is_behind() {
        // e5h lies between rows 5 and 6 under columns e and f.
        let moves = pawn_moves("quoridor 9x9 pawns=e4,e5 hand=0,0 walls=e5h turn=1");
        assert_eq!(moves, ["d4", "d5", "e3", "f4", "f5"]);
    }

    #[test]
    fn the_board_edge_blocks_like_a_wall() {
        let moves = pawn_moves("quoridor 9x9 pawns=e8,e9 hand=0,0 walls=- turn=1");
        assert_eq!(moves, ["d8", "d9", "e7", "f8", "f9"]);
    }

    #[test]
    fn a_pawn_behind_blocks_the_jump_unless_multi_jump() {
        let text = "quoridor 9x9 pawns=e3,e4,e5,a1 hand=0,0,0,0 walls=- turn=1";
        assert_eq!(pawn_moves(text), ["d3", "d4", "e2", "f3", "f4"]);
        let multi = format!("{text} jumps=multi");
        assert_eq!(pawn_moves(&multi), ["d3", "e2", "e6", "f3"]);
    }

    #[test]
    fn side_steps_need_no_wall_between_and_an_empty_square() {
        // A wall on the west side of e5 (d5v spans rows 5 and 6 between d and e).
        let moves = pawn_moves("quoridor 9x9 pawns=e4,e5 hand=0,0 walls=e5h,d5v turn=1");
        assert_eq!(moves, ["d4", "e3", "f4", "f5"]);
    }

    #[test]
    fn a_wall_that_seals_a_player_in_is_illegal() {
        // a2h roofs a1-b2; b1v would close the box with player 1 inside.
        let inside = legal("quoridor 5x5 pawns=a1,c5 hand=2,2 walls=a2h turn=1");
        assert!(!inside.contains(&"b1v".to_string()));
        assert!(inside.contains(&"c1v".to_string()));
        // With nobody inside, the same wall is fine.
        let outside = legal("quoridor 5x5 pawns=d1,c5 hand=2,2 walls=a2h turn=1");
        assert!(outside.contains(&"b1v".to_string()));
    }

    /// Every free wall checked with a flood fill for every seat.
    fn brute_force_walls(p: &Quoridor) -> (BitBoard, BitBoard) {
        let (mut h, mut v) = p.unobstructed_walls();
        for (set, vertical) in [(&mut h, false), (&mut v, true)] {
            for centre in set.iter() {
                let mut after = p.clone();
                after.put_wall(centre, vertical);
                if (0..p.players()).any(|seat| after.distance_to_goal(seat).is_none()) {
                    set.remove(centre);
                }
            }
        }
        (h, v)
    }

    #[test]
    fn the_shortcuts_agree_with_brute_force_on_random_games() {
        let mut rng = crate::rng::Rng::new(11);
        let mut moves = MoveList::default();
        let texts = [
            "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1",
            "quoridor 5x5 pawns=c1,c5 hand=8,8 walls=- turn=1",
            "quoridor 9x9 pawns=e1,a5,e9,i5 hand=8,8,8,8 walls=- turn=1",
        ];
        let mut checked = 0;
        for text in texts {
            for _ in 0..20 {
                let mut p = Quoridor::from_text(text).unwrap();
                while p.winner().is_none() && p.walls_in_hand(p.side()) > 0 {
                    assert_eq!(p.legal_walls(), brute_force_walls(&p), "{}", p.to_text());
                    checked += 1;
                    p.generate_moves(&mut moves);
                    // Mostly walls, so that loops and pockets form.
                    p.make_move(moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]);
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }

    #[test]
    fn pass_only_when_nothing_else_is_legal() {
        // Player 1 on a1: a wall to the east, player 2 above with player 3
        // behind it, and no walls in hand.
        let boxed = "quoridor 5x5 pawns=a1,a2,a3,e3 hand=0,0,0,0 walls=a1v turn=1";
        assert_eq!(legal(boxed), ["pass"]);
        let free = "quoridor 5x5 pawns=a1,c5 hand=0,0 walls=- turn=1";
        assert!(!legal(free).contains(&"pass".to_string()));
        let p = Quoridor::from_text(free).unwrap();
        assert!(p.parse_move("pass").is_err());
    }
}
