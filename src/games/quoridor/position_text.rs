//! The one-line Quoridor position text:
//! `quoridor 9x9 pawns=e1,e9 hand=10,10 walls=e3h,d5v turn=1 jumps=single`.
//!
//! Fields after the size are `key=value` in any order; `jumps` may be left out
//! (single). Lists are comma separated in seat order; `walls=-` is no wall.

use super::bitboard::STRIDE;
use super::board::{Quoridor, Variant, VariantError};
use super::geometry::MAX_WALLS_IN_HAND;
use super::notation::{parse_move_text, parse_square, square_name, MoveText};
use crate::games::fields::{comma_list, number, read_fields, size, whole, words, FieldError};
use std::fmt;

/// Why a position text was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// The text does not start with `quoridor`.
    NotQuoridor,
    /// A size that is no `WxH` of a playable board.
    BadSize(String),
    /// A field this text has no use for.
    UnknownField(String),
    /// A field given twice.
    DuplicateField(&'static str),
    /// A required field is missing.
    MissingField(&'static str),
    /// A square outside the board or not in notation.
    BadSquare(String),
    /// A wall outside the board or not in notation.
    BadWall(String),
    /// A count that is no number.
    BadNumber(String),
    /// A number of pawns other than 2 or 4.
    PawnCount(usize),
    /// Not one hand per pawn.
    HandCount {
        /// Pawns given.
        pawns: usize,
        /// Hands given.
        hands: usize,
    },
    /// Two pawns on one square.
    SharedSquare(String),
    /// Two walls that overlap or cross.
    WallClash(String),
    /// The walls cut this seat (0-based) off its goal.
    NoPath(usize),
    /// More than one pawn on its goal.
    SeveralWinners,
    /// A turn that is no seat of the game.
    BadTurn(String),
    /// The size and counts make no variant.
    Variant(VariantError),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::NotQuoridor => {
                write!(f, "a Quoridor position text starts with 'quoridor'")
            }
            PositionError::BadSize(s) => write!(f, "board size '{s}' is not WIDTHxHEIGHT"),
            PositionError::UnknownField(s) => write!(f, "unknown field '{s}'"),
            PositionError::DuplicateField(s) => write!(f, "field '{s}' given twice"),
            PositionError::MissingField(s) => write!(f, "field '{s}' is missing"),
            PositionError::BadSquare(s) => write!(f, "'{s}' is not a square of this board"),
            PositionError::BadWall(s) => write!(f, "'{s}' is not a wall of this board"),
            PositionError::BadNumber(s) => {
                write!(f, "'{s}' is not a number of walls in 0..={MAX_WALLS_IN_HAND}")
            }
            PositionError::PawnCount(n) => write!(f, "{n} pawns; there must be 2 or 4"),
            PositionError::HandCount { pawns, hands } => {
                write!(f, "{hands} walls-in-hand counts for {pawns} pawns")
            }
            PositionError::SharedSquare(s) => write!(f, "two pawns on {s}"),
            PositionError::WallClash(s) => write!(f, "wall {s} overlaps or crosses another"),
            PositionError::NoPath(seat) => write!(f, "player {} has no path to its goal", seat + 1),
            PositionError::SeveralWinners => write!(f, "more than one pawn stands on its goal"),
            PositionError::BadTurn(s) => write!(f, "turn '{s}' is not a player number"),
            PositionError::Variant(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PositionError {}

impl From<FieldError> for PositionError {
    fn from(e: FieldError) -> Self {
        match e {
            FieldError::Unknown(token) => PositionError::UnknownField(token),
            FieldError::Duplicate(name) => PositionError::DuplicateField(name),
        }
    }
}

impl From<VariantError> for PositionError {
    fn from(e: VariantError) -> Self {
        PositionError::Variant(e)
    }
}

impl Quoridor {
    /// Reads a position text.
    pub fn from_text(text: &str) -> Result<Quoridor, PositionError> {
        let tokens = words(text);
        if tokens.first() != Some(&"quoridor") {
            return Err(PositionError::NotQuoridor);
        }
        let size_text = *tokens.get(1).ok_or(PositionError::MissingField("size"))?;
        let (width, height) =
            whole(size_text, size).ok_or_else(|| PositionError::BadSize(size_text.into()))?;
        // Sides first: squares can only be read once the board is known to fit.
        Variant { width, height, ..Variant::default() }.validate()?;
        const NAMES: [&str; 5] = ["pawns", "hand", "walls", "turn", "jumps"];
        let fields = read_fields(&tokens[2..], NAMES)?;
        let field = |i: usize| fields[i].ok_or(PositionError::MissingField(NAMES[i]));
        let pawns = comma_list(field(0)?)
            .into_iter()
            .map(|s| parse_square(s, width, height).ok_or_else(|| PositionError::BadSquare(s.into())))
            .collect::<Result<Vec<_>, _>>()?;
        let hand = comma_list(field(1)?)
            .into_iter()
            .map(|s| match whole(s, number) {
                Some(n) if n <= MAX_WALLS_IN_HAND => Ok(n),
                _ => Err(PositionError::BadNumber(s.into())),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let walls = match field(2)? {
            "-" => Vec::new(),
            list => comma_list(list)
                .into_iter()
                .map(|s| match parse_move_text(s, width, height) {
                    Some(MoveText::Wall { centre, vertical }) => Ok((centre, vertical)),
                    _ => Err(PositionError::BadWall(s.into())),
                })
                .collect::<Result<Vec<_>, _>>()?,
        };
        let turn_text = field(3)?;
        let multi_jump = match fields[4] {
            None | Some("single") => false,
            Some("multi") => true,
            Some(other) => return Err(PositionError::UnknownField(format!("jumps={other}"))),
        };
        if pawns.len() != 2 && pawns.len() != 4 {
            return Err(PositionError::PawnCount(pawns.len()));
        }
        let players = pawns.len();
        if hand.len() != players {
            return Err(PositionError::HandCount { pawns: players, hands: hand.len() });
        }
        let turn = match whole(turn_text, number) {
            Some(t) if (1..=players).contains(&t) => t - 1,
            _ => return Err(PositionError::BadTurn(turn_text.into())),
        };
        for (i, &p) in pawns.iter().enumerate() {
            if pawns[..i].contains(&p) {
                return Err(PositionError::SharedSquare(square_name(p)));
            }
        }
        let variant = Variant { width, height, players, walls: 0, multi_jump };
        variant.validate()?;
        let position = Quoridor::from_parts(&variant, &pawns, &hand, &[], turn)?;
        let mut placed = position.clone();
        for &(centre, vertical) in &walls {
            if !placed.wall_fits(centre, vertical) {
                let name = square_name(centre - STRIDE - 1);
                return Err(PositionError::WallClash(format!("{name}{}", if vertical { 'v' } else { 'h' })));
            }
            placed.put_wall(centre, vertical);
        }
        let position = Quoridor::from_parts(&variant, &pawns, &hand, &walls, turn)?;
        if let Some(seat) = (0..players).find(|&s| position.distance_to_goal(s).is_none()) {
            return Err(PositionError::NoPath(seat));
        }
        if (0..players).filter(|&s| position.goal(s).contains(pawns[s])).count() > 1 {
            return Err(PositionError::SeveralWinners);
        }
        Ok(position)
    }

    /// The same position with `seat` to move, for a controller that lets a
    /// side move twice (QTP's `playmove` names the colour) or passes the
    /// turn of a seat that is out; `None` for a seat that does not play or
    /// a game that is over.
    pub fn with_turn(&self, seat: usize) -> Option<Quoridor> {
        if seat >= self.players as usize || self.winner.is_some() {
            return None;
        }
        let mut turned = self.clone();
        turned.side = seat as u8;
        turned.hash = turned.hash_from_scratch();
        turned.refresh_accumulator();
        Some(turned)
    }

    /// Whether a wall would neither overlap nor cross one already placed.
    pub fn wall_fits(&self, centre: usize, vertical: bool) -> bool {
        let (h, v) = (self.horizontal, self.vertical);
        if h.contains(centre) || v.contains(centre) {
            return false;
        }
        if vertical {
            !v.contains(centre - STRIDE) && !v.contains(centre + STRIDE)
        } else {
            !h.contains(centre - 1) && !h.contains(centre + 1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::prelude::*;

    #[test]
    fn a_turn_given_is_the_text_with_that_turn() {
        let text = "quoridor 9x9 pawns=f4,c6 hand=4,5 walls=b2h,g3v,b4v,c4h,e4h,b5h,d5h,f5h,g5v,h6h,e7h \
                    turn=1 jumps=single";
        let position = Quoridor::from_text(text).expect("a legal position");
        let turned = position.with_turn(1).expect("seat 2 plays");
        let expected = Quoridor::from_text(&text.replace("turn=1", "turn=2")).expect("a legal position");
        assert_eq!(turned.to_text(), expected.to_text());
        assert_eq!(turned.hash(), expected.hash());
        let names = |p: &Quoridor| {
            let mut moves = MoveList::default();
            p.generate_moves(&mut moves);
            moves.iter().map(|&m| p.format_move(m)).collect::<Vec<_>>()
        };
        assert_eq!(names(&turned), names(&expected));
        assert!(position.with_turn(2).is_none(), "two players: no seat 3");
        assert_eq!(position.with_turn(0).map(|p| p.hash()), Some(position.hash()));
    }
}
