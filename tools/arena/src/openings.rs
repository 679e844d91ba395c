//! Openings files in the formats `-openings file=PATH format=...` reads
//! besides arena's own lines ([`crate::setup::read_openings`], the
//! default): game records (`format=pgn plies=N`: the start and first N
//! plies of every game, read by arena's record reader) and position texts
//! (`format=epd`: one position a line, bare or as the protocol's `position
//! fen TEXT [moves ...]` command). Every opening is checked against the
//! match's variant.

use crate::config::OpeningFormat;
use crate::record::read_records;
use crate::setup::{opening_position, read_openings, shortened, GameVariant, Opening, OPENING_ENDS_GAME};

/// Every opening of an openings file's `text`, in file order.
pub fn read_opening_file(
    text: &str,
    format: OpeningFormat,
    variant: &GameVariant,
) -> Result<Vec<Opening>, String> {
    let openings = match format {
        OpeningFormat::Lines => return read_openings(text, variant),
        OpeningFormat::Pgn { plies } => from_records(text, plies, variant)?,
        OpeningFormat::Epd => from_positions(text, variant)?,
    };
    if openings.is_empty() {
        return Err("the openings file holds no opening".into());
    }
    Ok(openings)
}

/// The first `plies` plies of every record, each distinct opening once (a
/// `-repeat` run records every opening twice). A game shorter than that
/// is taken whole, but for the move that ended it by the rules, which
/// would leave nothing to play.
fn from_records(text: &str, plies: usize, variant: &GameVariant) -> Result<Vec<Opening>, String> {
    let mut openings: Vec<Opening> = Vec::new();
    for (index, read) in read_records(text).into_iter().enumerate() {
        let at = |e: &str| format!("openings record {}: {}", index + 1, shortened(e));
        let record = read.map_err(|e| at(&e))?;
        if record.variant != *variant {
            return Err(at(&format!(
                "a game of {}, not of {}",
                record.variant.describe(),
                variant.describe()
            )));
        }
        let whole = plies >= record.game.moves.len();
        let mut opening =
            Opening { fen: record.game.fen, moves: record.game.moves.iter().take(plies).cloned().collect() };
        let ends =
            |opening: &Opening| opening_position(opening, variant).is_err_and(|e| e == OPENING_ENDS_GAME);
        if whole && ends(&opening) {
            opening.moves.pop();
        }
        opening_position(&opening, variant).map_err(|e| at(&e))?;
        if !openings.contains(&opening) {
            openings.push(opening);
        }
    }
    Ok(openings)
}

/// One opening a line: `quoridor ...`/`quarto ...` position texts, or
/// `position fen TEXT [moves ...]` / `position startpos [moves ...]`;
/// blank lines and `#` comments are skipped.
fn from_positions(text: &str, variant: &GameVariant) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |e: &str| format!("openings line {}: {}", number + 1, shortened(e));
        let (start, moves) = match line.split_once(" moves ") {
            Some((start, moves)) => (start.trim(), moves.split_whitespace().map(String::from).collect()),
            None => (line.strip_suffix(" moves").unwrap_or(line).trim(), Vec::new()),
        };
        let fen = match start.strip_prefix("position ").map(str::trim_start) {
            Some("startpos") => None,
            Some(command) => Some(
                command
                    .strip_prefix("fen ")
                    .ok_or_else(|| at(&format!("'{line}' is not a position command")))?,
            ),
            None => Some(start),
        };
        if let Some(fen) = fen.filter(|f| !f.starts_with("quoridor ") && !f.starts_with("quarto ")) {
            return Err(at(&format!("'{fen}' is not a position text")));
        }
        let opening = Opening { fen: fen.map(|f| f.trim().to_string()), moves };
        opening_position(&opening, variant).map_err(|e| at(&e))?;
        openings.push(opening);
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEN: &str = "quoridor 9x9 pawns=e3,e7 hand=10,10 walls=- turn=1";

    #[test]
    fn positions_are_read_bare_or_as_commands() {
        let v = GameVariant::default();
        let text =
            format!("# positions\n{FEN}\nposition fen {FEN} moves e4 e6\n\nposition startpos moves e2\n");
        let read = read_opening_file(&text, OpeningFormat::Epd, &v).expect("three openings");
        assert_eq!(read.len(), 3);
        assert_eq!(read[0], Opening { fen: Some(FEN.into()), moves: vec![] });
        assert_eq!(read[1].moves, ["e4", "e6"]);
        assert_eq!(read[2], Opening { fen: None, moves: vec!["e2".into()] });
        // A move list is no position; a bad position says where.
        let refused = read_opening_file("e2 e8", OpeningFormat::Epd, &v).expect_err("not a position");
        assert!(refused.starts_with("openings line 1: 'e2 e8' is not a position text"), "{refused}");
        assert!(read_opening_file("position go", OpeningFormat::Epd, &v).is_err());
        assert!(read_opening_file(&format!("\n{FEN} moves e9"), OpeningFormat::Epd, &v)
            .expect_err("illegal")
            .starts_with("openings line 2:"));
        assert!(read_opening_file("# none\n", OpeningFormat::Epd, &v).is_err());
    }

    #[test]
    fn records_give_their_first_plies_once() {
        let v = GameVariant::default();
        let record = |moves: &str| {
            format!(
                "[Event \"x\"]\n[Variant \"quoridor 9x9 walls=10 players=2\"]\n[Result \"1/2-1/2\"]\n\n{moves} 1/2-1/2\n\n"
            )
        };
        let text = [record("1. e2 e8 2. e3 e7"), record("1. e2 e8 2. e3 d8"), record("1. d1 e8")].concat();
        let read = read_opening_file(&text, OpeningFormat::Pgn { plies: 2 }, &v).expect("records");
        let moves: Vec<Vec<String>> = read.iter().map(|o| o.moves.clone()).collect();
        assert_eq!(moves, [vec!["e2", "e8"], vec!["d1", "e8"]]);
        let read = read_opening_file(&text, OpeningFormat::Pgn { plies: 3 }, &v).expect("records");
        assert_eq!(read.len(), 2, "e2 e8 e3 twice");
        let small = GameVariant::from_description("quoridor 7x7 walls=6 players=2").expect("7x7");
        let refused =
            read_opening_file(&text, OpeningFormat::Pgn { plies: 2 }, &small).expect_err("9x9 games");
        assert!(refused.starts_with("openings record 1: a game of quoridor 9x9"), "{refused}");
    }
}
