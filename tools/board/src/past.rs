//! The game's past as the page shows it: what the last move changed (a
//! pawn's from and to squares, the wall placed, the Quarto square filled),
//! and the board after any earlier ply, for stepping through the move list
//! without touching the live game (`GET /position?ply=N`).

use crate::json::Json;
use crate::table::Table;
use crate::view::board_view;
use arena::record::replay;
use arena::referee::SKIPPED;
use arena::setup::Opening;
use tabula::games::AnyPosition;

/// What move `text`, played in `before`, changed: `{move, squares, wall}`
/// (`squares`: a pawn's from and to, or the Quarto square filled).
pub fn last_view(before: &AnyPosition, text: &str) -> Json {
    let mut squares = Vec::new();
    let mut wall = None;
    match before {
        _ if text == SKIPPED => {}
        AnyPosition::Quoridor(q) => {
            if text.ends_with(['h', 'v']) {
                wall = Some(text.to_string());
            } else {
                let mover = before.side_to_move();
                squares.push(tabula::games::quoridor::notation::square_name(q.pawn(mover)));
                squares.push(text.to_string());
            }
        }
        AnyPosition::Quarto(_) => {
            // A placement starts with its square (`b3`, `b3a`); a gift alone is one hex digit.
            if text.len() >= 2 && text.starts_with(|c: char| c.is_ascii_alphabetic()) {
                squares.push(text[..2].to_string());
            }
        }
    }
    Json::Object(vec![
        ("move", Json::text(text)),
        ("squares", Json::texts(squares)),
        ("wall", Json::option(wall, Json::text)),
    ])
}

impl Table {
    /// The last move of the live game, or null.
    pub fn last_move_view(&self) -> Json {
        match (&self.before, self.moves.last()) {
            (Some(before), Some(text)) => last_view(before, text),
            _ => Json::Null,
        }
    }

    /// The board after the first `ply` moves of the game's line (the moves
    /// played, then those taken back or loaded and not yet stepped to),
    /// with the move that led there and the seat to move there: `{ply,
    /// board, last, toMove}`.
    pub fn view_at(&self, ply: usize) -> Result<Json, String> {
        let line = self.line();
        if ply > line.len() {
            return Err(format!("there are {} moves, not {ply}", line.len()));
        }
        let at = |n: usize| {
            let game = Opening { fen: self.start.clone(), moves: line[..n].to_vec() };
            replay(&game, &self.variant).map(|(position, _)| position)
        };
        let position = at(ply)?;
        let last = match ply {
            0 => Json::Null,
            n => last_view(&at(n - 1)?, &line[n - 1]),
        };
        let to_move = position.outcome().is_none().then(|| position.side_to_move());
        Ok(Json::Object(vec![
            ("ply", Json::Number(ply as i64)),
            ("board", board_view(&position)),
            ("last", last),
            ("toMove", Json::option(to_move, |s| Json::Number(s as i64))),
        ]))
    }
}

#[cfg(test)]
mod tests {
    use crate::table::{Seat, Table};
    use arena::setup::GameVariant;
    use tabula::games::quoridor::Variant;

    #[test]
    fn the_last_move_and_earlier_boards_are_shown() {
        let variant = GameVariant::Quoridor(Variant { width: 5, height: 5, walls: 2, ..Variant::default() });
        let mut table = Table::new(variant, vec![Seat::Human; 2]).expect("5x5");
        assert_eq!(table.last_move_view().to_string(), "null");
        for m in ["c2", "c4", "b2h"] {
            table.play(m).expect("moves");
        }
        assert_eq!(table.last_move_view().to_string(), r#"{"move":"b2h","squares":[],"wall":"b2h"}"#);
        table.undo().expect("undo");
        assert_eq!(table.last_move_view().to_string(), r#"{"move":"c4","squares":["c5","c4"],"wall":null}"#);
        let first = table.view_at(1).expect("ply 1").to_string();
        assert!(first.starts_with(r#"{"ply":1,"board":{"game":"quoridor""#), "{first}");
        assert!(first.contains(r#""pawns":["c2","c5"]"#), "{first}");
        assert!(
            first.ends_with(r#""last":{"move":"c2","squares":["c1","c2"],"wall":null},"toMove":1}"#),
            "{first}"
        );
        assert!(table.view_at(0).expect("the start").to_string().ends_with(r#""last":null,"toMove":0}"#));
        // A move taken back is still the game's, to be looked at.
        let ahead = table.view_at(3).expect("b2h, taken back, ahead").to_string();
        assert!(ahead.contains(r#""wall":"b2h"},"toMove":1"#), "{ahead}");
        assert!(table.view_at(4).is_err(), "past the game's end");
    }

    #[test]
    fn quarto_placements_name_their_square() {
        let variant = GameVariant::Quarto(tabula::games::quarto::Rules { side: 4, level: 1 });
        let mut table = Table::new(variant, vec![Seat::Human; 2]).expect("Quarto");
        table.play("3").expect("a gift");
        assert!(table.last_move_view().to_string().contains(r#""squares":[]"#));
        table.play("b3a").expect("a placement and a gift");
        assert!(table.last_move_view().to_string().contains(r#""squares":["b3"]"#));
    }
}
