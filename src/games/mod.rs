//! The games Tabula plays, each an implementation of [`crate::game::Game`],
//! and [`AnyPosition`], which holds a position of whichever game is selected.

pub mod fields;
pub mod quarto;
pub mod quoridor;
pub mod variant;

use crate::game::{MoveError, MoveList, Notation, Outcome, Position};
use quarto::{Quarto, QuartoMove};
use quoridor::{Quoridor, QuoridorMove};

/// A position of any game, for code that is not generic (the protocol).
// A Quoridor position carries its traced paths (about 500 bytes); there are
// only a few of these per session, so boxing would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum AnyPosition {
    /// A Quoridor position, of any variant.
    Quoridor(Quoridor),
    /// A Quarto position, of any board and level.
    Quarto(Quarto),
}

/// A move of any game: what the engine reports, for the protocol to write
/// in the notation of the position it was found in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyMove {
    /// A pawn step, a wall or a pass.
    Quoridor(QuoridorMove),
    /// A placement and a piece given, or either alone.
    Quarto(QuartoMove),
}

impl From<QuoridorMove> for AnyMove {
    fn from(mv: QuoridorMove) -> AnyMove {
        AnyMove::Quoridor(mv)
    }
}

impl From<QuartoMove> for AnyMove {
    fn from(mv: QuartoMove) -> AnyMove {
        AnyMove::Quarto(mv)
    }
}

impl AnyMove {
    /// The move's 16-bit code (see [`Position::move_code`]).
    pub fn code(self) -> u16 {
        match self {
            AnyMove::Quoridor(mv) => Quoridor::move_code(mv),
            AnyMove::Quarto(mv) => Quarto::move_code(mv),
        }
    }
}

/// Runs `$body` with `$g` bound to the concrete position inside.
#[macro_export]
macro_rules! with_game {
    ($position:expr, $g:ident => $body:expr) => {
        match $position {
            $crate::games::AnyPosition::Quoridor($g) => $body,
            $crate::games::AnyPosition::Quarto($g) => $body,
        }
    };
}

impl AnyPosition {
    /// A position from its text, of the game its first word names; or why
    /// it names none.
    pub fn from_text(text: &str) -> Result<AnyPosition, String> {
        match fields::words(text).first().copied() {
            Some("quoridor") => {
                Quoridor::from_text(text).map(AnyPosition::Quoridor).map_err(|e| e.to_string())
            }
            Some("quarto") => Quarto::from_text(text).map(AnyPosition::Quarto).map_err(|e| e.to_string()),
            Some(game) => Err(format!("unknown game '{}'", crate::quote::quoted(game))),
            None => Err("empty position text".into()),
        }
    }

    /// The game's name as the `Game` option spells it.
    pub fn game_name(&self) -> &'static str {
        match self {
            AnyPosition::Quoridor(_) => "quoridor",
            AnyPosition::Quarto(_) => "quarto",
        }
    }

    /// See [`Position::hash`].
    pub fn hash(&self) -> u64 {
        with_game!(self, g => g.hash())
    }

    /// See [`Position::outcome`].
    pub fn outcome(&self) -> Option<Outcome> {
        with_game!(self, g => g.outcome())
    }

    /// See [`Position::side_to_move`].
    pub fn side_to_move(&self) -> usize {
        with_game!(self, g => g.side_to_move())
    }

    /// See [`Position::player_count`].
    pub fn player_count(&self) -> usize {
        with_game!(self, g => g.player_count())
    }

    /// See [`Notation::to_text`].
    pub fn to_text(&self) -> String {
        with_game!(self, g => g.to_text())
    }

    /// See [`Notation::diagram`].
    pub fn diagram(&self) -> String {
        with_game!(self, g => g.diagram())
    }

    /// See [`Notation::details`].
    pub fn details(&self) -> Vec<String> {
        with_game!(self, g => g.details())
    }

    /// Every legal move, in notation.
    pub fn legal_move_names(&self) -> Vec<String> {
        with_game!(self, g => {
            let mut moves = MoveList::default();
            g.generate_moves(&mut moves);
            moves.iter().map(|&m| g.format_move(m)).collect()
        })
    }

    /// A legal move from its notation.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, MoveError> {
        with_game!(self, g => g.parse_move(text).map(AnyMove::from))
    }

    /// A line of moves from this position, in notation: each move is
    /// written in the position it is played in. A move of another game
    /// (never made by the engine) ends the line.
    pub fn format_line(&self, line: &[AnyMove]) -> Vec<String> {
        let mut position = self.clone();
        let mut names = Vec::with_capacity(line.len());
        for &mv in line {
            let name = match (&mut position, mv) {
                (AnyPosition::Quoridor(p), AnyMove::Quoridor(mv)) => {
                    let name = p.format_move(mv);
                    p.make_move(mv);
                    name
                }
                (AnyPosition::Quarto(p), AnyMove::Quarto(mv)) => {
                    let name = p.format_move(mv);
                    p.make_move(mv);
                    name
                }
                _ => break,
            };
            names.push(name);
        }
        names
    }

    /// One move in notation (see [`AnyPosition::format_line`]).
    pub fn format_move(&self, mv: AnyMove) -> Option<String> {
        self.format_line(&[mv]).pop()
    }

    /// Plays a move given in notation; returns whether it was irreversible.
    pub fn play_text(&mut self, text: &str) -> Result<bool, MoveError> {
        with_game!(self, g => {
            let mv = g.parse_move(text)?;
            let irreversible = g.is_irreversible(mv);
            g.make_move(mv);
            Ok(irreversible)
        })
    }
}
