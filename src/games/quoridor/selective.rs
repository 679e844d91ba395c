//! The moves the search looks at below the root. Every pawn move is kept; of
//! the walls only those that cut some shortest path of an opponent, since a
//! wall that lengthens nobody's path at once rarely pays within the horizon.
//! The root still searches every legal move.

use super::bitboard::BitBoard;
use super::board::Quoridor;
use super::moves::QuoridorMove;
use crate::game::MoveList;

impl Quoridor {
    /// Pawn moves, then the legal walls that cut an opponent's shortest path.
    pub fn selective_moves(&self, moves: &mut MoveList<QuoridorMove>) {
        // Without walls in hand there is no need to trace the opponents' paths.
        let (cut_h, cut_v) = if self.hand[self.side as usize] > 0 {
            self.walls_cutting_opponents()
        } else {
            (BitBoard::EMPTY, BitBoard::EMPTY)
        };
        self.moves_with_walls_among(moves, cut_h, cut_v);
    }

    /// Wall centres (horizontal, vertical) that cut an edge lying on some
    /// shortest path of a player other than the side to move.
    fn walls_cutting_opponents(&self) -> (BitBoard, BitBoard) {
        let (mut h, mut v) = Default::default();
        for seat in (0..self.players as usize).filter(|&s| s != self.side as usize) {
            h |= self.paths[seat].cut_h;
            v |= self.paths[seat].cut_v;
        }
        (h, v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn selective(text: &str) -> Vec<String> {
        let p = Quoridor::from_text(text).unwrap();
        let mut moves = MoveList::default();
        p.selective_moves(&mut moves);
        moves.iter().map(|&m| p.format_move(m)).collect()
    }

    #[test]
    fn walls_cut_the_opponents_straight_path_only() {
        // Player 2 on e9 runs straight down column e: only horizontal walls
        // over column e (centres d or e) cut it.
        let moves = selective("quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1");
        let walls: Vec<&String> = moves.iter().filter(|m| m.len() == 3).collect();
        assert_eq!(walls.len(), 16);
        assert!(walls.iter().all(|w| w.ends_with('h') && (w.starts_with('d') || w.starts_with('e'))));
        assert!(moves.contains(&"e2".to_string()));
    }

    #[test]
    fn every_selected_move_is_legal_and_every_pawn_move_is_kept() {
        let text = "quoridor 9x9 pawns=e4,e6 hand=5,5 walls=c3h,e5v,f6h turn=2";
        let p = Quoridor::from_text(text).unwrap();
        let mut all = MoveList::default();
        p.generate_moves(&mut all);
        let mut some = MoveList::default();
        p.selective_moves(&mut some);
        assert!(some.iter().all(|m| all.as_slice().contains(m)));
        let pawn_moves = |l: &MoveList<QuoridorMove>| l.iter().filter(|m| !m.is_wall()).count();
        assert_eq!(pawn_moves(&some), pawn_moves(&all));
        assert!(some.len() < all.len());
    }

    #[test]
    fn a_dropped_wall_never_lengthens_the_opponents_path() {
        let text = "quoridor 9x9 pawns=e4,e6 hand=5,5 walls=c3h,e5v,f6h turn=2";
        let p = Quoridor::from_text(text).unwrap();
        let before = p.distance_to_goal(0);
        let mut all = MoveList::default();
        p.generate_moves(&mut all);
        let mut some = MoveList::default();
        p.selective_moves(&mut some);
        for &mv in all.iter().filter(|m| m.is_wall() && !some.as_slice().contains(m)) {
            let mut after = p.clone();
            after.make_move(mv);
            assert_eq!(after.distance_to_goal(0), before, "{} lengthens the path", p.format_move(mv));
        }
    }
}
