//! The one-line Quarto position text:
//! `quarto 4x4 level=1 board=..../..../.7../.... hand=3 turn=1`.
//!
//! The board lists rows from the north (row 4) down, `/` between rows, one
//! hex digit per piece and `.` per empty square; `hand` is the piece the side
//! to move must place (`-` before the first give and after the game ends).

use super::board::{pattern_table, Quarto, RulesError};
use super::moves::{parse_piece, piece_name};
use super::patterns::Rules;
use crate::games::fields::{read_fields, FieldError};
use std::fmt;

/// Why a Quarto position text was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum QuartoTextError {
    NotQuarto,
    BadSize(String),
    UnknownField(String),
    DuplicateField(&'static str),
    MissingField(&'static str),
    BadLevel(String),
    BadBoard(String),
    BadPiece(String),
    PieceTwice(u8),
    BadTurn(String),
    WrongTurn { expected: usize },
    NoPieceInHand,
    AlreadyWon,
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
    pub fn text(&self) -> String {
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

    pub fn from_text(text: &str) -> Result<Quarto, QuartoTextError> {
        let mut tokens = text.split_whitespace();
        if tokens.next() != Some("quarto") {
            return Err(QuartoTextError::NotQuarto);
        }
        let size = tokens.next().ok_or(QuartoTextError::MissingField("size"))?;
        let side = match size {
            "3x3" => 3,
            "4x4" => 4,
            _ => return Err(QuartoTextError::BadSize(size.into())),
        };
        const NAMES: [&str; 4] = ["level", "board", "hand", "turn"];
        let fields = read_fields(tokens, NAMES)?;
        let field = |i: usize| fields[i].ok_or(QuartoTextError::MissingField(NAMES[i]));
        let level_text = field(0)?;
        let level = match level_text {
            "1" | "2" | "3" | "4" => (level_text.as_bytes()[0] - b'0') as usize,
            _ => return Err(QuartoTextError::BadLevel(level_text.into())),
        };
        let rules = Rules { side, level };
        let mut position = Quarto::new(rules).map_err(QuartoTextError::Rules)?;
        let board_text = field(1)?;
        let rows: Vec<&str> = board_text.split('/').collect();
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

    /// The board picture for `d`: rows from the north, pieces as hex digits.
    pub fn board_picture(&self) -> String {
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

    pub fn details(&self) -> Vec<String> {
        let left: Vec<String> =
            super::movegen::bits(self.available).map(|p| piece_name(p as u8).to_string()).collect();
        vec![
            format!("Level: {}", self.rules.level),
            format!("Piece in hand: {}", self.hand.map_or("-".to_string(), |p| piece_name(p).to_string())),
            format!("Pieces to give: {}", if left.is_empty() { "-".to_string() } else { left.join(" ") }),
        ]
    }
}
