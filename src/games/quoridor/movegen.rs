//! Legal move generation for Quoridor: pawn steps, jumps and side steps; walls
//! (see the `walls` module for which are legal); pass.

use super::bitboard::{BitBoard, STRIDE};
use super::board::Quoridor;
use super::moves::QuoridorMove;
use super::shut::Found;
use crate::game::MoveList;

/// The four directions a pawn can go, as index offsets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Direction {
    /// Towards higher rows.
    North,
    /// Towards higher columns.
    East,
    /// Towards lower rows.
    South,
    /// Towards lower columns.
    West,
}

/// The four directions, clockwise from north.
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

    /// Every legal move: pawn moves first, then walls; `pass` when nothing
    /// else. Walls proven to shut a pawn in go to `found`.
    pub(super) fn all_moves(&self, moves: &mut MoveList<QuoridorMove>, found: &mut Found) {
        let all = self.geometry().wall_centres;
        self.moves_with_walls_among(moves, all, all, found);
    }

    /// Every pawn move and the legal walls among the given centres; `pass`
    /// when that leaves nothing.
    pub(super) fn moves_with_walls_among(
        &self,
        moves: &mut MoveList<QuoridorMove>,
        wanted_h: BitBoard,
        wanted_v: BitBoard,
        found: &mut Found,
    ) {
        moves.clear();
        if self.winner.is_some() {
            return;
        }
        for square in self.pawn_targets().iter() {
            moves.push(QuoridorMove::step(square));
        }
        let (h, v) = self.legal_walls_among(wanted_h, wanted_v, found);
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
    pub(super) fn legal_move_count(&self) -> u64 {
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
    use crate::game::prelude::*;

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
