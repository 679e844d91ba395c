//! The Quarto turn (place the piece in hand, then give one) and its notation:
//! `b37` places on b3 and gives piece 7; `7` only gives (the first turn);
//! `b3` only places (a win, or the last piece).

use super::board::Quarto;
use crate::game::{MoveError, MoveList};

/// A turn packed as `(piece + 1) << 5 | (square + 1)`; 0 means "none".
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct QuartoMove(u16);

impl QuartoMove {
    pub fn new(square: Option<usize>, piece: Option<u8>) -> QuartoMove {
        let s = square.map_or(0, |s| s as u16 + 1);
        let p = piece.map_or(0, |p| p as u16 + 1);
        QuartoMove(p << 5 | s)
    }

    pub fn square(self) -> Option<usize> {
        let s = self.0 & 31;
        (s != 0).then(|| s as usize - 1)
    }

    pub fn piece(self) -> Option<u8> {
        let p = self.0 >> 5;
        (p != 0).then(|| p as u8 - 1)
    }

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

/// A square name on a board of `side` columns; the letter in either case.
pub fn parse_square(text: &str, side: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let col = bytes[0].to_ascii_lowercase().checked_sub(b'a')? as usize;
    let row = bytes[1].checked_sub(b'1')? as usize;
    (col < side && row < side).then_some(row * side + col)
}

/// A piece number as one hex digit.
pub fn piece_name(piece: u8) -> char {
    char::from_digit(piece as u32, 16).unwrap_or('?')
}

/// A piece number from its hex digit, in either case.
pub fn parse_piece(text: &str, pieces: usize) -> Option<u8> {
    let mut chars = text.chars();
    let digit = chars.next()?.to_digit(16)?;
    (chars.next().is_none() && (digit as usize) < pieces).then_some(digit as u8)
}

impl Quarto {
    pub fn move_name(&self, mv: QuartoMove) -> String {
        let mut name = mv.square().map_or(String::new(), |s| square_name(s, self.rules.side));
        if let Some(p) = mv.piece() {
            name.push(piece_name(p));
        }
        name
    }

    /// The legal move a text names. A piece written after a winning
    /// placement is accepted and ignored.
    pub fn parse_legal_move(&self, text: &str) -> Result<QuartoMove, MoveError> {
        let malformed = || MoveError::Malformed(text.to_string());
        let (square, piece) = match text.len() {
            1 => (None, Some(parse_piece(text, self.rules.pieces()).ok_or_else(malformed)?)),
            2 => (Some(parse_square(text, self.rules.side).ok_or_else(malformed)?), None),
            3 if text.is_char_boundary(2) => (
                Some(parse_square(&text[..2], self.rules.side).ok_or_else(malformed)?),
                Some(parse_piece(&text[2..], self.rules.pieces()).ok_or_else(malformed)?),
            ),
            _ => return Err(malformed()),
        };
        let mut legal = MoveList::default();
        self.legal_moves(&mut legal);
        let wanted = QuartoMove::new(square, piece);
        if legal.iter().any(|&m| m == wanted) {
            return Ok(wanted);
        }
        let winning_placement = QuartoMove::new(square, None);
        if piece.is_some() && square.is_some() && legal.iter().any(|&m| m == winning_placement) {
            if let (Some(s), Some(hand)) = (square, self.hand) {
                if self.placement_wins(s, hand) {
                    return Ok(winning_placement);
                }
            }
        }
        Err(MoveError::Illegal { text: text.to_string(), reason: self.why_illegal(square, piece) })
    }

    fn why_illegal(&self, square: Option<usize>, piece: Option<u8>) -> &'static str {
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
        assert_eq!(parse_square("d4", 4), Some(15));
        assert_eq!(parse_square("d4", 3), None);
        assert_eq!(parse_piece("f", 16), Some(15));
        assert_eq!(parse_piece("8", 8), None);
    }
}
