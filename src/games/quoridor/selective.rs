//! The moves the search looks at below the root. Every pawn move is kept; of
//! the walls, the primary ones are those that cut some shortest path of an
//! opponent, since a wall that lengthens nobody's path at once rarely pays
//! within the horizon. Near the root the search also wants the rest (the
//! secondary walls): most of the opponent's walls that took Tabula by
//! surprise against titanium-quoridor were defensive or preparing walls
//! that lengthen no path at once. Deeper, the search takes a secondary wall
//! only when its table or a killer move vouches for it. The root still
//! searches every legal move.

use super::bitboard::{BitBoard, STRIDE};
use super::board::Quoridor;
use super::moves::{MoveKind, QuoridorMove};
use super::shut::Found;
use crate::game::MoveList;

impl Quoridor {
    /// Pawn moves, then the legal walls that cut an opponent's shortest path:
    /// the primary moves, whose number is returned. The other legal walls
    /// (secondary) follow them: every one with `vouched` `None`, else only
    /// those whose move codes are in `vouched` (the table move and killers:
    /// the search looks at no other secondary move away from the root, and
    /// proving the rest legal is a good part of the cost of a node).
    /// Walls proven to shut a pawn in go to `found`.
    pub(super) fn selective_moves(
        &self,
        moves: &mut MoveList<QuoridorMove>,
        vouched: Option<&[u16]>,
        found: &mut Found,
    ) -> usize {
        // Without walls in hand there is no need to trace the opponents' paths.
        if self.hand[self.side as usize] == 0 {
            self.moves_with_walls_among(moves, BitBoard::EMPTY, BitBoard::EMPTY, found);
            return moves.len();
        }
        let (cut_h, cut_v) = self.walls_cutting_opponents();
        match vouched {
            None => self.all_moves(moves, found),
            Some(codes) => {
                let (mut wanted_h, mut wanted_v) = (cut_h, cut_v);
                for &code in codes {
                    if let MoveKind::Wall { centre, vertical } = QuoridorMove::from_code(code).kind() {
                        if centre < STRIDE * STRIDE {
                            if vertical { &mut wanted_v } else { &mut wanted_h }.insert(centre);
                        }
                    }
                }
                self.moves_with_walls_among(moves, wanted_h, wanted_v, found);
            }
        }
        // A stable partition: the primary moves keep their order, as do the rest.
        let mut rest = MoveList::default();
        let list = moves.as_mut_slice();
        let mut primary = 0;
        for i in 0..list.len() {
            let mv = list[i];
            let cuts = match mv.kind() {
                MoveKind::Wall { centre, vertical } => {
                    if vertical {
                        cut_v.contains(centre)
                    } else {
                        cut_h.contains(centre)
                    }
                }
                _ => true,
            };
            if cuts {
                list[primary] = mv;
                primary += 1;
            } else {
                rest.push(mv);
            }
        }
        list[primary..].copy_from_slice(rest.as_slice());
        primary
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
    use crate::game::prelude::*;

    fn selective(text: &str) -> Vec<String> {
        let p = Quoridor::from_text(text).unwrap();
        let mut moves = MoveList::default();
        let primary = p.selective_moves(&mut moves, None, &mut Default::default());
        moves.truncate(primary);
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
        let primary = p.selective_moves(&mut some, None, &mut Default::default());
        some.truncate(primary);
        assert!(some.iter().all(|m| all.as_slice().contains(m)));
        let pawn_moves = |l: &MoveList<QuoridorMove>| l.iter().filter(|m| !m.is_wall()).count();
        assert_eq!(pawn_moves(&some), pawn_moves(&all));
        assert!(some.len() < all.len());
    }

    #[test]
    fn every_legal_move_follows_the_primary_ones() {
        let text = "quoridor 9x9 pawns=e4,e6 hand=5,5 walls=c3h,e5v,f6h turn=2";
        let p = Quoridor::from_text(text).unwrap();
        let mut moves = MoveList::default();
        let primary = p.selective_moves(&mut moves, None, &mut Default::default());
        let narrow = selective(text);
        let names: Vec<String> = moves.iter().map(|&m| p.format_move(m)).collect();
        assert_eq!(names[..primary], narrow[..]);
        let mut all = MoveList::default();
        p.generate_moves(&mut all);
        let sorted = |mut v: Vec<String>| {
            v.sort();
            v
        };
        assert_eq!(sorted(names), sorted(all.iter().map(|&m| p.format_move(m)).collect()));
        assert!(moves.as_slice()[primary..].iter().all(|m| m.is_wall()));
    }

    #[test]
    fn a_dropped_wall_never_lengthens_the_opponents_path() {
        let text = "quoridor 9x9 pawns=e4,e6 hand=5,5 walls=c3h,e5v,f6h turn=2";
        let p = Quoridor::from_text(text).unwrap();
        let before = p.distance_to_goal(0);
        let mut all = MoveList::default();
        p.generate_moves(&mut all);
        let mut some = MoveList::default();
        let primary = p.selective_moves(&mut some, None, &mut Default::default());
        some.truncate(primary);
        for &mv in all.iter().filter(|m| m.is_wall() && !some.as_slice().contains(m)) {
            let mut after = p.clone();
            after.make_move(mv);
            assert_eq!(after.distance_to_goal(0), before, "{} lengthens the path", p.format_move(mv));
        }
    }
}
