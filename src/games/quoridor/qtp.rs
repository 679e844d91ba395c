//! The coordinates of the Quoridor Text Protocol (QTP, the University of
//! Athens' GTP-style protocol), and their translation to Tabula's notation.
//!
//! QTP plays two players on a square board of side N. Black moves first
//! and starts on the top row (`E9` on 9x9), racing to row 1; white starts on
//! row 1. Columns are letters from the left, rows numbers from the bottom.
//! A wall is named by the square at the top left of the four it separates
//! (`A3 horizontal` lies below A3 and B3, `A3 vertical` right of A3 and A2).
//!
//! Tabula's first player starts at the bottom, and on an even board just
//! left of the centre, where QTP's pawns start just right of it. A half
//! turn of the board maps the one onto the other on every size: the QTP
//! square in column `c` (from 0) and row `r` (from 1) is Tabula's column
//! `N-1-c`, row `N+1-r`; a QTP wall `(c, r)` is Tabula's wall named by
//! column `N-2-c`, row `N+1-r`, in the same orientation. Black is Tabula's
//! first player, white its second.

use crate::games::fields::{square, whole};
use std::fmt;

/// A QTP colour: black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    /// Moves first, from the top row: Tabula's player 1.
    Black,
    /// Moves second, from row 1: Tabula's player 2.
    White,
}

impl Color {
    /// `black`, `b`, `white` or `w`, in any case.
    pub fn parse(text: &str) -> Option<Color> {
        match text.to_ascii_lowercase().as_str() {
            "black" | "b" => Some(Color::Black),
            "white" | "w" => Some(Color::White),
            _ => None,
        }
    }

    /// The colour of a Tabula seat (0 or 1).
    pub fn of_seat(seat: usize) -> Color {
        if seat == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Tabula's seat: 0 for black, 1 for white.
    pub fn seat(self) -> usize {
        self as usize
    }

    /// `black` or `white`.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The other colour.
    pub fn other(self) -> Color {
        Color::of_seat(1 - self.seat())
    }
}

/// A QTP move: a pawn's destination square, or a wall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QtpMove {
    /// Column from the left, from 0 (`A` is 0).
    pub col: usize,
    /// Row from the bottom, from 1.
    pub row: usize,
    /// `None` for a pawn move, else whether the wall is vertical.
    pub wall: Option<bool>,
}

/// Why a QTP move text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QtpMoveError {
    /// Not a vertex such as `E8`.
    BadVertex(String),
    /// Not `horizontal`, `vertical`, `h` or `v`.
    BadOrientation(String),
    /// A vertex off the board, or a wall that would leave it.
    OffBoard(String),
    /// Missing or extra words.
    Words,
}

impl fmt::Display for QtpMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::quote::quoted;
        match self {
            QtpMoveError::BadVertex(v) => write!(f, "'{}' is not a vertex", quoted(v)),
            QtpMoveError::BadOrientation(o) => {
                write!(f, "'{}' is not an orientation (horizontal, vertical, h, v)", quoted(o))
            }
            QtpMoveError::OffBoard(v) => write!(f, "'{}' is off the board", quoted(v)),
            QtpMoveError::Words => write!(f, "expected a vertex, and for a wall its orientation"),
        }
    }
}

impl std::error::Error for QtpMoveError {}

/// Reads `horizontal`, `vertical`, `h` or `v` (any case): whether vertical.
pub fn parse_orientation(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "h" | "horizontal" => Some(false),
        "v" | "vertical" => Some(true),
        _ => None,
    }
}

impl QtpMove {
    /// A move from its words on a board of side `size`: `E8`, `A3
    /// horizontal`, `A3 h`, or the compact `a3h`.
    pub fn parse(words: &[&str], size: usize) -> Result<QtpMove, QtpMoveError> {
        let (vertex, orientation) = match words {
            [one] => split_compact(one),
            [vertex, orientation] => (*vertex, Some(*orientation)),
            _ => return Err(QtpMoveError::Words),
        };
        let (col, row) = whole(vertex, square).ok_or_else(|| QtpMoveError::BadVertex(vertex.to_string()))?;
        let row = row + 1;
        let wall = match orientation {
            None => None,
            Some(o) => Some(parse_orientation(o).ok_or_else(|| QtpMoveError::BadOrientation(o.to_string()))?),
        };
        // A wall's named square is the top left of the four it separates:
        // never in the last column nor in row 1.
        let fits = match wall {
            None => col < size && (1..=size).contains(&row),
            Some(_) => col + 1 < size && (2..=size).contains(&row),
        };
        if !fits {
            return Err(QtpMoveError::OffBoard(words.join(" ")));
        }
        Ok(QtpMove { col, row, wall })
    }

    /// The move in Tabula's notation on a board of side `size`.
    pub fn to_tabula(self, size: usize) -> String {
        let row = size + 1 - self.row;
        match self.wall {
            None => format!("{}{row}", column_letter(size - 1 - self.col)),
            Some(vertical) => {
                format!("{}{row}{}", column_letter(size - 2 - self.col), if vertical { 'v' } else { 'h' })
            }
        }
    }

    /// A Tabula move text (a square or a wall) as a QTP move on a board of
    /// side `size`; `None` for anything else (`pass`, off the board).
    pub fn from_tabula(text: &str, size: usize) -> Option<QtpMove> {
        let (square_text, wall) = match text.as_bytes().last()? {
            b'h' | b'H' => (&text[..text.len() - 1], Some(false)),
            b'v' | b'V' => (&text[..text.len() - 1], Some(true)),
            _ => (text, None),
        };
        let (col, row) = whole(square_text, square)?;
        let row = size.checked_sub(row)?;
        match wall {
            None if col < size && row >= 1 => Some(QtpMove { col: size - 1 - col, row, wall }),
            Some(_) if col + 2 <= size && row >= 2 => Some(QtpMove { col: size - 2 - col, row, wall }),
            _ => None,
        }
    }
}

impl fmt::Display for QtpMove {
    /// `E8`, or `A3 horizontal` / `A3 vertical`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = column_letter(self.col).to_ascii_uppercase();
        match self.wall {
            None => write!(f, "{letter}{}", self.row),
            Some(vertical) => {
                write!(f, "{letter}{} {}", self.row, if vertical { "vertical" } else { "horizontal" })
            }
        }
    }
}

/// `a3h` as (`a3`, `h`); a text without a trailing orientation letter whole.
fn split_compact(text: &str) -> (&str, Option<&str>) {
    match text.char_indices().last() {
        Some((at, c)) if c.is_ascii_alphabetic() && at > 0 => (&text[..at], Some(&text[at..])),
        _ => (text, None),
    }
}

fn column_letter(col: usize) -> char {
    (b'a' + col as u8) as char
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, size: usize) -> Result<QtpMove, QtpMoveError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        QtpMove::parse(&words, size)
    }

    #[test]
    fn start_squares_are_the_first_players() {
        // Black starts on E9 (QTP), Tabula's player 1 on e1; white on E1 and e9.
        assert_eq!(parse("E9", 9).unwrap().to_tabula(9), "e1");
        assert_eq!(parse("e1", 9).unwrap().to_tabula(9), "e9");
        // Even boards: QTP's pawns start right of the centre (C4 on 4x4),
        // Tabula's left of it (b1).
        assert_eq!(parse("C4", 4).unwrap().to_tabula(4), "b1");
        assert_eq!(parse("C1", 4).unwrap().to_tabula(4), "b4");
    }

    #[test]
    fn walls_turn_with_the_board() {
        // A3 horizontal on 9x9 lies between rows 3 and 2 under A and B; a
        // half turn puts it between Tabula's rows 7 and 8 under h and i.
        assert_eq!(parse("A3 horizontal", 9).unwrap().to_tabula(9), "h7h");
        assert_eq!(parse("a3 v", 9).unwrap().to_tabula(9), "h7v");
        assert_eq!(parse("h2h", 9).unwrap().to_tabula(9), "a8h");
        assert_eq!(parse("A9 h", 9).unwrap().to_tabula(9), "h1h");
    }

    #[test]
    fn every_move_goes_there_and_back() {
        for size in 3..=15 {
            for col in 0..size {
                for row in 1..=size {
                    for wall in [None, Some(false), Some(true)] {
                        let mv = QtpMove { col, row, wall };
                        let text = mv.to_string();
                        let words: Vec<&str> = text.split_whitespace().collect();
                        match QtpMove::parse(&words, size) {
                            Ok(read) => {
                                assert_eq!(read, mv);
                                let tabula = mv.to_tabula(size);
                                assert_eq!(QtpMove::from_tabula(&tabula, size), Some(mv), "{tabula}");
                            }
                            Err(QtpMoveError::OffBoard(_)) => {
                                assert!(wall.is_some() && (col + 1 == size || row == 1), "{text}")
                            }
                            Err(e) => panic!("{text}: {e}"),
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn bad_texts_are_named() {
        assert_eq!(parse("J1", 9), Err(QtpMoveError::OffBoard("J1".into())));
        assert_eq!(parse("I5 h", 9), Err(QtpMoveError::OffBoard("I5 h".into())));
        assert_eq!(parse("A1 v", 9), Err(QtpMoveError::OffBoard("A1 v".into())));
        assert_eq!(parse("A3 diagonal", 9), Err(QtpMoveError::BadOrientation("diagonal".into())));
        assert_eq!(parse("33", 9), Err(QtpMoveError::BadVertex("33".into())));
        assert_eq!(parse("", 9), Err(QtpMoveError::Words));
        assert_eq!(parse("A3 h x", 9), Err(QtpMoveError::Words));
        assert_eq!(QtpMove::from_tabula("pass", 9), None);
        assert_eq!(Color::parse("B"), Some(Color::Black));
        assert_eq!(Color::parse("White"), Some(Color::White));
        assert_eq!(Color::parse("red"), None);
    }
}
