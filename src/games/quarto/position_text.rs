//! The one-line Quarto position text:
//! `quarto 4x4 level=1 board=..../..../.7../.... hand=3 turn=1`.
//!
//! The board lists rows from the north (row 4) down, `/` between rows, one
//! hex digit per piece and `.` per empty square; `hand` is the piece the side
//! to move must place (`-` before the first give and after the game ends).

use super::board::{pattern_table, Quarto, RulesError};
use super::moves::{move_text, parse_piece, piece_name};
use super::moves::{square_name, QuartoMove};
use super::patterns::Rules;
use crate::game::{MoveError, MoveList, Notation};
use crate::games::fields::{read_fields, size, whole, words, FieldError};
use nom::bytes::complete::take_till;
use nom::character::complete::char;
use nom::multi::separated_list1;
use std::fmt;

/// Why a Quarto position text was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum QuartoTextError {
    /// The text does not start with `quarto`.
    NotQuarto,
    /// A board size other than `4x4` or `3x3`.
    BadSize(String),
    /// A field this text has no use for.
    UnknownField(String),
    /// A field given twice.
    DuplicateField(&'static str),
    /// A required field is missing.
    MissingField(&'static str),
    /// A level that is no number in 1..=4 (1 on 3x3).
    BadLevel(String),
    /// The board field does not describe the board's rows and squares.
    BadBoard(String),
    /// A piece that is no hex digit of this board's pieces.
    BadPiece(String),
    /// A piece placed or held twice.
    PieceTwice(u8),
    /// A turn that is not 1 or 2.
    BadTurn(String),
    /// The turn does not fit the number of pieces placed.
    WrongTurn {
        /// The player (1 or 2) whose turn it must be.
        expected: usize,
    },
    /// A piece must be in hand once one has been given.
    NoPieceInHand,
    /// A finished game with a piece still to place.
    AlreadyWon,
    /// The size and level make no game.
    Rules(RulesError),
}

impl fmt::Display for QuartoTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotQuarto => write!(f, "a Quarto position text starts with 'quarto'"),
            Self::BadSize(s) => write!(f, "board size '{s}' is not 3x3 or 4x4"),
            Self::UnknownField(s) => write!(f, "unknown field '{s}'"),
            Self::DuplicateField(s) => write!(f, "field '{s}' given twice"),
            Self::MissingField(s) => write!(f, "field '{s}' is missing"),
            Self::BadLevel(s) => write!(f, "level '{s}' is not 1..=4"),
            Self::BadBoard(s) => write!(f, "board '{s}' is not rows of hex digits and dots"),
            Self::BadPiece(s) => write!(f, "'{s}' is not a piece of this game"),
            Self::PieceTwice(p) => write!(f, "piece {} appears twice", piece_name(*p)),
            Self::BadTurn(s) => write!(f, "turn '{s}' is not 1 or 2"),
            Self::WrongTurn { expected } => {
                write!(f, "with these pieces placed it is player {expected}'s turn")
            }
            Self::NoPieceInHand => write!(f, "the game goes on, so a piece must be in hand"),
            Self::AlreadyWon => write!(f, "the board already holds a win, so no piece can be in hand"),
            Self::Rules(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for QuartoTextError {}

impl From<FieldError> for QuartoTextError {
    fn from(e: FieldError) -> Self {
        match e {
            FieldError::Unknown(token) => QuartoTextError::UnknownField(token),
            FieldError::Duplicate(name) => QuartoTextError::DuplicateField(name),
        }
    }
}

impl Quarto {
    /// A position from its text (see the module documentation).
    pub fn from_text(text: &str) -> Result<Quarto, QuartoTextError> {
        let tokens = words(text);
        if tokens.first() != Some(&"quarto") {
            return Err(QuartoTextError::NotQuarto);
        }
        let size_text = *tokens.get(1).ok_or(QuartoTextError::MissingField("size"))?;
        let side = match whole(size_text, size) {
            Some((3, 3)) => 3,
            Some((4, 4)) => 4,
            _ => return Err(QuartoTextError::BadSize(size_text.into())),
        };
        const NAMES: [&str; 4] = ["level", "board", "hand", "turn"];
        let fields = read_fields(&tokens[2..], NAMES)?;
        let field = |i: usize| fields[i].ok_or(QuartoTextError::MissingField(NAMES[i]));
        let level_text = field(0)?;
        let level = match level_text {
            "1" | "2" | "3" | "4" => (level_text.as_bytes()[0] - b'0') as usize,
            _ => return Err(QuartoTextError::BadLevel(level_text.into())),
        };
        let rules = Rules { side, level };
        let mut position = Quarto::new(rules).map_err(QuartoTextError::Rules)?;
        let board_text = field(1)?;
        let rows = whole(board_text, separated_list1(char('/'), take_till(|c| c == '/')))
            .ok_or_else(|| QuartoTextError::BadBoard(board_text.into()))?;
        if rows.len() != side || rows.iter().any(|r| r.chars().count() != side) {
            return Err(QuartoTextError::BadBoard(board_text.into()));
        }
        let mut seen = 0u16;
        for (i, row_text) in rows.iter().enumerate() {
            let row = side - 1 - i;
            for (col, c) in row_text.chars().enumerate() {
                if c == '.' {
                    continue;
                }
                let piece = parse_piece(&c.to_string(), rules.pieces())
                    .ok_or_else(|| QuartoTextError::BadBoard(board_text.into()))?;
                if seen >> piece & 1 == 1 {
                    return Err(QuartoTextError::PieceTwice(piece));
                }
                seen |= 1 << piece;
                position.put(row * side + col, piece);
            }
        }
        let hand = match field(2)? {
            "-" => None,
            p => {
                let piece =
                    parse_piece(p, rules.pieces()).ok_or_else(|| QuartoTextError::BadPiece(p.into()))?;
                if seen >> piece & 1 == 1 {
                    return Err(QuartoTextError::PieceTwice(piece));
                }
                seen |= 1 << piece;
                Some(piece)
            }
        };
        let turn = match field(3)? {
            "1" => 0,
            "2" => 1,
            t => return Err(QuartoTextError::BadTurn(t.into())),
        };
        let placed = position.occupied.count_ones() as usize;
        // Player 1 gives first, so player 2 places the odd-numbered pieces.
        let expected = if placed == 0 && hand.is_none() { 0 } else { 1 - placed % 2 };
        if turn != expected {
            return Err(QuartoTextError::WrongTurn { expected: expected + 1 });
        }
        let won = pattern_table(rules).all.iter().any(|&p| position.pattern_wins(p));
        match (hand, won) {
            (Some(_), true) => return Err(QuartoTextError::AlreadyWon),
            (None, false) if placed > 0 && placed < rules.pieces() => {
                return Err(QuartoTextError::NoPieceInHand)
            }
            (None, true) => position.winner = Some(1 - turn as u8),
            _ => {}
        }
        position.available &= !seen;
        position.hand = hand;
        position.side = turn as u8;
        Ok(position)
    }
}

/// Moves and positions as text: the notation of moves is in `moves`.
impl Notation for Quarto {
    fn format_move(&self, mv: QuartoMove) -> String {
        let mut name = mv.square().map_or(String::new(), |s| square_name(s, self.rules.side));
        if let Some(p) = mv.piece() {
            name.push(piece_name(p));
        }
        name
    }

    /// The legal move a text names. A piece written after a winning
    /// placement is accepted and ignored.
    fn parse_move(&self, text: &str) -> Result<QuartoMove, MoveError> {
        let malformed = || MoveError::Malformed(text.to_string());
        let (square, piece) = whole(text, move_text).ok_or_else(malformed)?;
        let square = match square {
            Some((col, row)) if col < self.rules.side && row < self.rules.side => {
                Some(row * self.rules.side + col)
            }
            Some(_) => return Err(malformed()),
            None => None,
        };
        let piece = match piece {
            Some(p) if (p as usize) < self.rules.pieces() => Some(p),
            Some(_) => return Err(malformed()),
            None => None,
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

    fn to_text(&self) -> String {
        let side = self.rules.side;
        let rows: Vec<String> = (0..side)
            .rev()
            .map(|row| (0..side).map(|col| self.piece_at(row * side + col).map_or('.', piece_name)).collect())
            .collect();
        format!(
            "quarto {side}x{side} level={} board={} hand={} turn={}",
            self.rules.level,
            rows.join("/"),
            self.hand.map_or('-', piece_name),
            self.side + 1
        )
    }

    /// The board picture for `d`: rows from the north, pieces as hex digits.
    fn diagram(&self) -> String {
        let side = self.rules.side;
        let mut lines = Vec::new();
        for row in (0..side).rev() {
            let cells: Vec<String> = (0..side)
                .map(|col| self.piece_at(row * side + col).map_or('.', piece_name).to_string())
                .collect();
            lines.push(format!("{} | {} |", row + 1, cells.join(" ")));
        }
        let letters: Vec<String> = (0..side).map(|c| ((b'a' + c as u8) as char).to_string()).collect();
        lines.push(format!("    {}", letters.join(" ")));
        lines.join("\n")
    }

    fn details(&self) -> Vec<String> {
        let left: Vec<String> =
            crate::bits::bits(self.available).map(|p| piece_name(p as u8).to_string()).collect();
        vec![
            format!("Level: {}", self.rules.level),
            format!("Piece in hand: {}", self.hand.map_or("-".to_string(), |p| piece_name(p).to_string())),
            format!("Pieces to give: {}", if left.is_empty() { "-".to_string() } else { left.join(" ") }),
        ]
    }
}
