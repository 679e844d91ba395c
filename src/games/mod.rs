//! The games Tabula plays, each an implementation of [`crate::game::Game`],
//! and [`AnyPosition`], which holds a position of whichever game is selected.

pub mod fields;
pub mod quarto;
pub mod quoridor;

use crate::game::{Game, MoveError, MoveList, Outcome};
use quarto::Quarto;
use quoridor::Quoridor;

/// A position of any game, for code that is not generic (the protocol).
// A Quoridor position carries its traced paths (about 500 bytes); there are
// only a few of these per session, so boxing would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum AnyPosition {
    Quoridor(Quoridor),
    Quarto(Quarto),
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
    /// The game's name as the `Game` option spells it.
    pub fn game_name(&self) -> &'static str {
        match self {
            AnyPosition::Quoridor(_) => "quoridor",
            AnyPosition::Quarto(_) => "quarto",
        }
    }

    pub fn hash(&self) -> u64 {
        with_game!(self, g => g.hash())
    }

    pub fn outcome(&self) -> Option<Outcome> {
        with_game!(self, g => g.outcome())
    }

    pub fn side_to_move(&self) -> usize {
        with_game!(self, g => g.side_to_move())
    }

    pub fn player_count(&self) -> usize {
        with_game!(self, g => g.player_count())
    }

    pub fn to_text(&self) -> String {
        with_game!(self, g => g.to_text())
    }

    pub fn diagram(&self) -> String {
        with_game!(self, g => g.diagram())
    }

    pub fn details(&self) -> Vec<String> {
        with_game!(self, g => g.details())
    }

    pub fn legal_move_names(&self) -> Vec<String> {
        with_game!(self, g => {
            let mut moves = MoveList::default();
            g.generate_moves(&mut moves);
            moves.iter().map(|&m| g.format_move(m)).collect()
        })
    }

    /// A legal move given in notation, spelt the way the engine prints it.
    pub fn parse_move_text(&self, text: &str) -> Result<String, MoveError> {
        with_game!(self, g => g.parse_move(text).map(|mv| g.format_move(mv)))
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
