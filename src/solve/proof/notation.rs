//! Positions of the proof search as keys and as the engine's text: the
//! exact key a table entry is found by (shared by a position and its
//! mirror image), moves and positions in the engine's notation, and the
//! engine's position in the search's terms.

use super::rules::{Layout, Move, Pos, Shape};
use crate::game::prelude::*;
use crate::games::quoridor::bitboard::STRIDE;
use crate::games::quoridor::Quoridor;

impl Shape {
    fn mirror_square(&self, square: u8) -> u8 {
        let (x, y) = (square as usize % self.width, square as usize / self.width);
        (y * self.width + self.width - 1 - x) as u8
    }

    /// How many bits a key takes: side, pawns, hands, then two bits per
    /// wall centre.
    pub fn key_bits(&self) -> usize {
        1 + 6 + 6 + 5 + 5 + 2 * self.centres
    }

    /// The key of a position whose layout's mirrored walls are given:
    /// equal for two positions exactly when they are the same or mirror
    /// images (left and right swapped, which changes no value). Never 0,
    /// as the pawns stand on different squares.
    pub fn key(&self, pos: &Pos, mirrored: [u64; 2]) -> u128 {
        let pack = |pawns: [u8; 2], walls: [u64; 2]| {
            let mut key = pos.side as u128;
            key = key << 6 | pawns[0] as u128;
            key = key << 6 | pawns[1] as u128;
            key = key << 5 | pos.hand[0] as u128;
            key = key << 5 | pos.hand[1] as u128;
            (key << self.centres | walls[0] as u128) << self.centres | walls[1] as u128
        };
        let seen = pack(pos.pawns.map(|p| self.mirror_square(p)), mirrored);
        pack(pos.pawns, pos.walls).min(seen)
    }

    fn square_name(&self, square: usize) -> String {
        format!("{}{}", (b'a' + (square % self.width) as u8) as char, square / self.width + 1)
    }

    /// A move in the engine's notation.
    pub fn move_text(&self, layout: &Layout, mv: Move) -> String {
        match mv {
            Move::Step(square) => self.square_name(square as usize),
            Move::Wall(i) => {
                let choice = &layout.choices[i as usize];
                let span = self.width - 1;
                let (x, y) = (choice.slot as usize % span, choice.slot as usize / span);
                let kind = if choice.vertical { 'v' } else { 'h' };
                format!("{}{kind}", self.square_name(y * self.width + x))
            }
            Move::Pass => "pass".into(),
        }
    }

    /// The position in the engine's position text (for the tests).
    #[cfg(test)]
    pub fn text(&self, pos: &Pos) -> String {
        let span = self.width - 1;
        let mut walls: Vec<String> = Vec::new();
        for (set, kind) in [(pos.walls[0], 'h'), (pos.walls[1], 'v')] {
            for slot in crate::bits::bits(set) {
                walls.push(format!("{}{kind}", self.square_name(slot / span * self.width + slot % span)));
            }
        }
        let walls = if walls.is_empty() { "-".to_string() } else { walls.join(",") };
        format!(
            "quoridor {}x{} pawns={},{} hand={},{} walls={walls} turn={}",
            self.width,
            self.height,
            self.square_name(pos.pawns[0] as usize),
            self.square_name(pos.pawns[1] as usize),
            pos.hand[0],
            pos.hand[1],
            pos.side + 1
        )
    }

    /// The engine's position as the search plays it.
    pub fn pos_of(&self, position: &Quoridor) -> Pos {
        let square = |index: usize| (index / STRIDE * self.width + index % STRIDE) as u8;
        let span = self.width - 1;
        let slot = |centre: usize| (centre / STRIDE - 1) * span + centre % STRIDE - 1;
        let set = |walls: crate::games::quoridor::bitboard::BitBoard| {
            walls.iter().fold(0u64, |s, c| s | 1 << slot(c))
        };
        Pos {
            walls: [set(position.horizontal_walls()), set(position.vertical_walls())],
            hand: [position.walls_in_hand(0) as u8, position.walls_in_hand(1) as u8],
            pawns: [square(position.pawn(0)), square(position.pawn(1))],
            side: position.side_to_move() as u8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(text: &str) -> Quoridor {
        Quoridor::from_text(text).expect("a position")
    }

    #[test]
    fn mirror_images_share_a_key_and_nothing_else_does() {
        let start = position("quoridor 5x5 pawns=c1,c5 hand=3,3 walls=- turn=1");
        let shape = Shape::of(&start).expect("fits");
        let key = |text: &str| {
            let pos = shape.pos_of(&position(text));
            shape.key(&pos, shape.layout(pos.walls).mirrored)
        };
        let a = key("quoridor 5x5 pawns=b1,c5 hand=3,2 walls=a2h,c3v turn=2");
        assert_eq!(a, key("quoridor 5x5 pawns=d1,c5 hand=3,2 walls=d2h,b3v turn=2"));
        for other in [
            "quoridor 5x5 pawns=b1,c5 hand=3,2 walls=a2h,c3v turn=1",
            "quoridor 5x5 pawns=b1,c5 hand=2,3 walls=a2h,c3v turn=2",
            "quoridor 5x5 pawns=b1,c5 hand=3,2 walls=a2v,c3v turn=2",
            "quoridor 5x5 pawns=b2,c5 hand=3,2 walls=a2h,c3v turn=2",
        ] {
            assert_ne!(a, key(other), "{other}");
        }
        assert!(Shape::of(&position("quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1")).is_none());
    }
}
