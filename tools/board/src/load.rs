//! Games brought in from text: an arena record (its moves then stepped
//! through with Redo), a position text, or a `position fen ...` command.

use crate::review_record::review_from_comments;
use crate::table::{Seat, Table};
use arena::record::{play_recorded, read_records};
use arena::setup::{GameVariant, Opening};
use tabula::game::Position;

impl Table {
    /// Loads an arena record (the first one in `text`) with all its moves
    /// ready to step through from the start, or a position text, optionally
    /// followed by `moves ...`, or a `position ...` command. Every seat
    /// becomes human, so that nobody moves on by itself.
    pub fn load(&mut self, text: &str) -> Result<(), String> {
        let mut comments = Vec::new();
        let (variant, game, redo) = if text.trim_start().starts_with('[') {
            let record = read_records(text).into_iter().next().ok_or("no record in the file")??;
            let mut moves = record.game.moves.clone();
            moves.reverse();
            comments = record.move_comments;
            (record.variant, Opening { fen: record.game.fen, moves: Vec::new() }, moves)
        } else {
            let game = parse_position_line(text)?;
            (variant_of_text(game.fen.as_deref().unwrap_or(""))?, game, Vec::new())
        };
        let mut table = Table::new(variant.clone(), vec![Seat::Human; variant.players()])?;
        table.start = game.fen;
        table.moves = game.moves;
        table.replay()?;
        table.redo = redo;
        let line = table.line();
        table.review =
            review_from_comments(&comments, table.start.clone(), line.clone(), &movers(&table, &line)?);
        table.version = self.version;
        table.generation = self.generation;
        table.game = self.game + 1;
        *self = table;
        self.touch(true);
        Ok(())
    }
}

/// The seat to move in each position of `line` (the start and after every
/// move).
fn movers(table: &Table, line: &[String]) -> Result<Vec<usize>, String> {
    let opening = Opening { fen: table.start.clone(), moves: Vec::new() };
    let (mut position, _) = arena::setup::opening_position(&opening, &table.variant)?;
    let mut movers = vec![position.side_to_move()];
    for text in line {
        play_recorded(&mut position, text)?;
        movers.push(position.side_to_move());
    }
    Ok(movers)
}

/// The variant a position text belongs to.
fn variant_of_text(text: &str) -> Result<GameVariant, String> {
    use tabula::games::quarto::Quarto;
    use tabula::games::quoridor::{Quoridor, Variant};
    match text.split_whitespace().next() {
        Some("quoridor") => {
            let q = Quoridor::from_text(text).map_err(|e| e.to_string())?;
            let variant = Variant {
                width: q.width(),
                height: q.height(),
                players: q.player_count(),
                multi_jump: q.multi_jump(),
                walls: (0..q.player_count()).map(|s| q.walls_in_hand(s)).max().unwrap_or(0),
            };
            Ok(GameVariant::Quoridor(variant))
        }
        Some("quarto") => {
            Ok(GameVariant::Quarto(Quarto::from_text(text).map_err(|e| e.to_string())?.rules()))
        }
        _ => Err("not a record, a position text or a 'position' command".into()),
    }
}

/// `[position] fen TEXT [moves ...]`, `TEXT [moves ...]` (a position text) or
/// `position startpos ...` is refused: a start position needs a variant.
fn parse_position_line(text: &str) -> Result<Opening, String> {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty()).ok_or("nothing to load")?;
    let line = line.strip_prefix("position").map_or(line, str::trim_start);
    let line = line.strip_prefix("fen").map_or(line, str::trim_start);
    if line.starts_with("startpos") {
        return Err("'startpos' names no variant: give a position text or a record".into());
    }
    let (fen, moves) = match line.split_once(" moves") {
        Some((fen, moves)) => (fen.trim(), moves.split_whitespace().map(String::from).collect()),
        None => (line, Vec::new()),
    };
    Ok(Opening { fen: Some(fen.to_string()), moves })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::games::quoridor::Variant;

    fn small() -> Table {
        let variant = GameVariant::Quoridor(Variant { width: 5, height: 5, walls: 2, ..Variant::default() });
        Table::new(variant, vec![Seat::Human, Seat::Human]).expect("5x5 is a variant")
    }

    #[test]
    fn records_and_position_texts_load() {
        let mut table = small();
        let record = "[Game \"1\"]\n[Variant \"quoridor 5x5 walls=2 players=2\"]\n\nc2 c4 c3\n1-0\n";
        table.load(record).expect("a record loads");
        assert_eq!((table.moves.len(), table.redo.len()), (0, 3));
        for _ in 0..3 {
            table.redo().expect("step forward");
        }
        assert_eq!(table.moves, ["c2", "c4", "c3"]);
        table
            .load("position fen quarto 3x3 level=1 board=.../.../... hand=- turn=1 moves 0")
            .expect("a command");
        assert_eq!((table.variant.describe().as_str(), table.moves.len()), ("quarto 3x3 level=1", 1));
        assert!(table.load("position startpos").is_err());
        let mut game = small();
        for m in ["c2", "c4", "b3h"] {
            game.play(m).expect("moves");
        }
        let record = game.record();
        assert!(record.contains("[Result \"*\"]\n") && record.contains("\n1. c2 c4 2. b3h *\n"), "{record}");
        table.load(&record).expect("a saved game loads");
        assert_eq!(table.redo.len(), 3);
        game.resign().expect("resigns");
        assert!(game.record().contains("[Result \"1-0\"]"));
        assert!(table.load("[Game \"1\"]\n[Variant \"chess\"]\n\ne4\n").is_err());
    }

    /// arena's four-player records show the turns of an engine that is out
    /// as `-`: they load, step through, and engines hear the position after.
    #[test]
    fn a_four_player_record_with_skipped_turns_loads() {
        let mut table = small();
        let record = "[Game \"1\"]\n[Variant \"quoridor 5x5 walls=3 players=4\"]\n\n\
                      c2 - c4 d3 c3 - b4 d2\nP3\n";
        table.load(record).expect("a record with skipped turns loads");
        for _ in 0..8 {
            table.redo().expect("step forward");
        }
        assert_eq!(table.moves, ["c2", "-", "c4", "d3", "c3", "-", "b4", "d2"]);
        assert_eq!(
            table.position_command(),
            "position fen quoridor 5x5 pawns=c3,a3,c4,d3 hand=3,3,3,3 walls=- turn=3 jumps=single moves b4 d2"
        );
        assert!(table.record().contains("\n1. c2 - c4 d3 2. c3 - b4 d2 *\n"), "{}", table.record());
        table.undo().expect("back");
        table.undo().expect("back");
        table.undo().expect("back over the skipped turn");
        assert_eq!(table.position.side_to_move(), 1, "P2's skipped turn again");
        table.redo().expect("skip it again");
        assert_eq!(table.position.side_to_move(), 2);
    }
}
