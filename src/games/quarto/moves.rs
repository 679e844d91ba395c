//! The Quarto turn (place the piece in hand, then give one) and its notation:
//! `b37` places on b3 and gives piece 7; `7` only gives (the first turn);
//! `b3` only places (a win, or the last piece).

use super::board::Quarto;
use crate::games::fields::{whole, Parsed, Square};
use nom::branch::alt;
use nom::character::complete::satisfy;
use nom::combinator::{map, opt};
use nom::sequence::pair;

/// A turn packed as `(piece + 1) << 5 | (square + 1)`; 0 means "none".
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct QuartoMove(u16);

impl QuartoMove {
    /// A turn: the square to place the piece in hand on (none on the first turn), and the piece to
    /// give (none when the game ends with the placement).
    pub fn new(square: Option<usize>, piece: Option<u8>) -> QuartoMove {
        let s = square.map_or(0, |s| s as u16 + 1);
        let p = piece.map_or(0, |p| p as u16 + 1);
        QuartoMove(p << 5 | s)
    }

    /// The square the piece in hand goes on, if any.
    pub fn square(self) -> Option<usize> {
        let s = self.0 & 31;
        (s != 0).then(|| s as usize - 1)
    }

    /// The piece given to the opponent, if any.
    pub fn piece(self) -> Option<u8> {
        let p = self.0 >> 5;
        (p != 0).then(|| p as u8 - 1)
    }

    /// A 16-bit code, unique among a position's moves.
    pub fn code(self) -> u16 {
        self.0
    }
}

impl std::fmt::Debug for QuartoMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "QuartoMove({:?}, {:?})", self.square(), self.piece())
    }
}

/// `a1`-style name of a square on a board of `side` columns.
pub fn square_name(square: usize, side: usize) -> String {
    format!("{}{}", (b'a' + (square % side) as u8) as char, square / side + 1)
}

/// A square: a column letter (either case) and one row digit from 1, as
/// (column, row from 0).
fn square(input: &str) -> Parsed<'_, Square> {
    let letter =
        map(satisfy(|c| c.is_ascii_alphabetic()), |c| (c.to_ascii_lowercase() as u8 - b'a') as usize);
    let row = map(satisfy(|c| ('1'..='9').contains(&c)), |c| (c as u8 - b'1') as usize);
    pair(letter, row)(input)
}

/// A piece: one hex digit, in either case.
fn piece(input: &str) -> Parsed<'_, u8> {
    map(satisfy(|c| c.is_ascii_hexdigit()), |c| c.to_digit(16).map_or(0, |d| d as u8))(input)
}

/// A move as written: a square to place on, a piece to give, or both.
pub(super) fn move_text(input: &str) -> Parsed<'_, (Option<Square>, Option<u8>)> {
    alt((map(pair(square, opt(piece)), |(s, p)| (Some(s), p)), map(piece, |p| (None, Some(p)))))(input)
}

/// A piece number as one hex digit.
pub fn piece_name(piece: u8) -> char {
    char::from_digit(piece as u32, 16).unwrap_or('?')
}

/// A piece number from its hex digit, in either case.
pub fn parse_piece(text: &str, pieces: usize) -> Option<u8> {
    whole(text, piece).filter(|&p| (p as usize) < pieces)
}

impl Quarto {
    pub(super) fn why_illegal(&self, square: Option<usize>, piece: Option<u8>) -> &'static str {
        if self.is_over() {
            return "the game is over";
        }
        match (self.hand, square) {
            (None, Some(_)) => "the first turn only gives a piece",
            (Some(_), None) => "a turn places the piece in hand first",
            _ if square.is_some_and(|s| self.occupied >> s & 1 == 1) => "that square is taken",
            _ => match piece {
                Some(p) if self.available >> p & 1 == 0 => "that piece is not available to give",
                None => "a piece must be given after a placement that does not win",
                Some(_) => "that move is not possible here",
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        let m = QuartoMove::new(Some(15), Some(0));
        assert_eq!((m.square(), m.piece()), (Some(15), Some(0)));
        let give = QuartoMove::new(None, Some(7));
        assert_eq!((give.square(), give.piece()), (None, Some(7)));
        assert_ne!(QuartoMove::default(), give);
    }

    #[test]
    fn names() {
        assert_eq!(square_name(4 * 2 + 1, 4), "b3");
        assert_eq!(whole("D4", square), Some((3, 3)));
        assert_eq!(whole("d0", square), None);
        assert_eq!(whole("a1b", move_text), Some((Some((0, 0)), Some(11))));
        assert_eq!(whole("b", move_text), Some((None, Some(11))));
        assert_eq!(whole("b3", move_text), Some((Some((1, 2)), None)));
        assert_eq!(whole("b3ff", move_text), None);
        assert_eq!(parse_piece("f", 16), Some(15));
        assert_eq!(parse_piece("8", 8), None);
    }
}
