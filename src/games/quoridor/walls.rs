//! Which walls are legal: those that neither overlap nor cross a wall, nor
//! cut any player off its goal.
//!
//! Legality avoids path searches where it can. A new wall can only cut the
//! board in two if it closes a loop of walls and border: two of its three
//! lattice points must be joined already, which needs them touched, and not
//! one joined to the border and the other to a floating group of walls. A wall
//! that cuts no shortest path of a seat leaves that seat's path intact. Only
//! the remaining pairs of wall and seat get a flood fill, and walls that this
//! position or an ancestor already proved shut are not filled again (`shut`).

use super::bitboard::{BitBoard, STRIDE};
use super::board::Quoridor;
use super::paths::{with_words, Maze};
use super::shut::Found;

impl Quoridor {
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

    /// Lattice points joined to the border by walls, traced from scratch.
    pub(super) fn anchored_points(&self) -> BitBoard {
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
        let anchored = self.anchored;
        let floating = self.touched & !anchored;
        let two_of_three = |a: BitBoard, b: BitBoard, c: BitBoard| (a & b) | (a & c) | (b & c);
        let h = |t: BitBoard| two_of_three(t.east(), t, t.west());
        let v = |t: BitBoard| two_of_three(t.north(), t, t.south());
        (check_h & (h(anchored) | h(floating)), check_v & (v(anchored) | v(floating)))
    }

    /// The first of the given seats that no longer reaches its goal with
    /// one more wall, if any.
    fn seat_shut_in(&self, centre: usize, vertical: bool, seats: u8) -> Option<usize> {
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
                .find(|&seat| !maze.reaches(self.pawns[seat] as usize, self.goal(seat)))
        })
    }

    /// Whether every player still reaches its goal with one more wall.
    pub fn paths_survive_wall(&self, centre: usize, vertical: bool) -> bool {
        self.seat_shut_in(centre, vertical, 0b1111).is_none()
    }

    /// Legal wall centres, horizontal and vertical.
    pub fn legal_walls(&self) -> (BitBoard, BitBoard) {
        let all = self.geometry().wall_centres;
        self.legal_walls_among(all, all, &mut Found::default())
    }

    /// The legal wall centres among the given horizontal and vertical ones;
    /// only those are checked for cutting a player off. The walls proven to
    /// shut a pawn in go to `found`, for the caller to remember.
    pub(super) fn legal_walls_among(
        &self,
        wanted_h: BitBoard,
        wanted_v: BitBoard,
        found: &mut Found,
    ) -> (BitBoard, BitBoard) {
        if self.hand[self.side as usize] == 0 {
            return (BitBoard::EMPTY, BitBoard::EMPTY);
        }
        let (mut free_h, mut free_v) = self.unobstructed_walls();
        free_h &= wanted_h;
        free_v &= wanted_v;
        if !self.shut.is_empty() {
            let (shut_h, shut_v) = self.shut.get();
            free_h &= !shut_h;
            free_v &= !shut_v;
        }
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
            if let Some(seat) = self.seat_shut_in(centre, false, seats_cut(&risky_h, centre)) {
                free_h.remove(centre);
                found.push(centre, false, seat);
            }
        }
        for centre in loop_v.iter() {
            if let Some(seat) = self.seat_shut_in(centre, true, seats_cut(&risky_v, centre)) {
                free_v.remove(centre);
                found.push(centre, true, seat);
            }
        }
        (free_h, free_v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::prelude::*;
    use crate::games::quoridor::random_game;

    /// Every free wall checked with a flood fill for every seat.
    fn brute_force_walls(p: &Quoridor) -> (BitBoard, BitBoard) {
        let (mut h, mut v) = p.unobstructed_walls();
        for (set, vertical) in [(&mut h, false), (&mut v, true)] {
            for centre in set.iter() {
                let mut after = p.clone();
                after.put_wall(centre, vertical);
                if (0..p.player_count()).any(|seat| after.distance_to_goal(seat).is_none()) {
                    set.remove(centre);
                }
            }
        }
        (h, v)
    }

    #[test]
    fn the_shortcuts_agree_with_brute_force_on_random_games() {
        let mut rng = crate::rng::Rng::new(11);
        let texts = [
            "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1",
            "quoridor 5x5 pawns=c1,c5 hand=8,8 walls=- turn=1",
            "quoridor 9x9 pawns=e1,a5,e9,i5 hand=8,8,8,8 walls=- turn=1",
            // Walls remembered as shut are forgotten differently after
            // multi-jumps, and the largest board has the highest centres.
            "quoridor 5x5 pawns=c1,c2,c4,c5 hand=4,4,4,4 walls=- turn=1 jumps=multi",
            "quoridor 15x15 pawns=h1,h15 hand=20,20 walls=- turn=1",
        ];
        let mut checked = 0;
        for text in texts {
            for _ in 0..20 {
                // Mostly walls are played, so that loops and pockets form.
                let agrees_while_walls_remain = |p: &Quoridor| {
                    if p.walls_in_hand(p.side_to_move()) == 0 {
                        return false;
                    }
                    assert_eq!(p.legal_walls(), brute_force_walls(p), "{}", p.to_text());
                    checked += 1;
                    true
                };
                random_game(text, &mut rng, agrees_while_walls_remain, |_| {});
            }
        }
        assert!(checked > 500, "{checked}");
    }
}
