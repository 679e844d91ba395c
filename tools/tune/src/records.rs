//! The games of `arena -pgnout` records that fitting can use (two-player
//! Quoridor, decided at the board or drawn), read with arena's reader.

use arena::record::ReadRecord;
use arena::setup::GameVariant;
use tabula::game::prelude::*;
use tabula::games::quoridor::Quoridor;

/// One two-player Quoridor game.
pub struct Record {
    pub start: Quoridor,
    pub moves: Vec<String>,
    /// 1.0 when seat 1 won, 0.0 when seat 2 did, 0.5 for a draw.
    pub first_score: f64,
    /// Moves of the opening (not chosen by the engines).
    pub opening_plies: usize,
    /// The engines' names by seat (`P1`, `P2` tags).
    pub players: [String; 2],
    /// The score each engine reported for its move, in centi-steps from
    /// its side, for every move after the opening (`None`: a mate, or no
    /// score).
    pub scores: Vec<Option<i32>>,
}

/// Why a game was left out.
#[derive(Debug)]
#[allow(dead_code)] // The fields are read through `Debug` in reports.
pub enum Skip {
    NotTwoPlayerQuoridor,
    NoResult,
    /// Lost to a fault (time, illegal move, crash), not at the board.
    Forfeit,
    BadPosition(String),
}

/// Every game of a file, each read or the reason it was skipped. The text
/// is read by arena's record reader, which also replays every move.
pub fn read_records(text: &str) -> Vec<Result<Record, Skip>> {
    arena::record::read_records(text)
        .into_iter()
        .map(|read| read.map_err(Skip::BadPosition).and_then(fitting_record))
        .collect()
}

fn fitting_record(read: ReadRecord) -> Result<Record, Skip> {
    let GameVariant::Quoridor(variant) = &read.variant else { return Err(Skip::NotTwoPlayerQuoridor) };
    if variant.players != 2 {
        return Err(Skip::NotTwoPlayerQuoridor);
    }
    let first_score = match read.result.as_str() {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        _ => return Err(Skip::NoResult),
    };
    // A decisive game not won at the board was lost to a fault.
    let decided_by_play = read.tag("Termination").is_none_or(|t| t.contains("reaches the goal"));
    if first_score != 0.5 && !decided_by_play {
        return Err(Skip::Forfeit);
    }
    let start = match &read.game.fen {
        Some(text) => Quoridor::from_text(text).map_err(|e| Skip::BadPosition(e.to_string()))?,
        None => Quoridor::new(variant).map_err(|e| Skip::BadPosition(e.to_string()))?,
    };
    let opening_plies = read
        .comments
        .iter()
        .find_map(|c| c.strip_prefix("opening plies ")?.split(';').next()?.trim().parse().ok())
        .unwrap_or(0);
    let scores = read
        .comments
        .iter()
        .find_map(|c| c.strip_prefix("scores:"))
        .map(|list| {
            list.split_whitespace().map(|s| s.strip_prefix("cp").and_then(|v| v.parse().ok())).collect()
        })
        .unwrap_or_default();
    let name = |tag: &str| read.tag(tag).unwrap_or_default().to_string();
    let players = [name("P1"), name("P2")];
    Ok(Record { start, moves: read.game.moves, first_score, opening_plies, players, scores })
}

impl Record {
    /// Every position of the game after the opening, before the game ended,
    /// with the result for the side to move (1 a win, 0.5 a draw, 0 a loss).
    pub fn positions(&self) -> Result<Vec<(Quoridor, f64)>, Skip> {
        let mut position = self.start.clone();
        let mut out = Vec::new();
        for (ply, text) in self.moves.iter().enumerate() {
            if position.outcome().is_some() {
                break;
            }
            if ply >= self.opening_plies {
                let mover_score =
                    if position.side_to_move() == 0 { self.first_score } else { 1.0 - self.first_score };
                out.push((position.clone(), mover_score));
            }
            let mv = position.parse_move(text).map_err(|e| Skip::BadPosition(e.to_string()))?;
            position.make_move(mv);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_GAMES: &str = "[Game \"1\"]\n[Variant \"quoridor 9x9 walls=10 players=2\"]\n[P1 \"a\"]\n\
        [P2 \"b\"]\n[Result \"0-1\"]\n[Plies \"4\"]\n\ne4h e8 e2 e7\n0-1\n; opening plies 1; move times (ms): 1 2 3\n\n\
        [Game \"2\"]\n[Variant \"quoridor 5x5 walls=3 players=2\"]\n[P1 \"b\"]\n[P2 \"a\"]\n\
        [Result \"1/2-1/2\"]\n\nc2 c4\n1/2-1/2\n; scores: cp12 mate3\n";

    #[test]
    fn records_are_read_and_replayed() {
        let records: Vec<Record> = read_records(TWO_GAMES).into_iter().map(|r| r.unwrap()).collect();
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].first_score, 0.0);
        let positions = records[0].positions().unwrap();
        // Three positions after the one-ply opening; the first has seat 2 to move, who won.
        assert_eq!(positions.len(), 3);
        assert_eq!(positions[0].1, 1.0);
        assert_eq!(positions[1].1, 0.0);
        assert_eq!(records[1].start.width(), 5);
        assert_eq!(records[1].positions().unwrap()[0].1, 0.5);
        assert_eq!(records[0].players, ["a".to_string(), "b".to_string()]);
        assert_eq!(records[1].scores, [Some(12), None]);
    }

    #[test]
    fn other_games_are_left_out() {
        let quarto = "[Game \"1\"]\n[Variant \"quarto 4x4 level=1\"]\n[Result \"1-0\"]\n\n0\n1-0\n";
        assert!(matches!(read_records(quarto)[0], Err(Skip::NotTwoPlayerQuoridor)));
        let unfinished =
            TWO_GAMES.replace("[Result \"0-1\"]", "[Result \"*\"]").replacen("\n0-1\n", "\n*\n", 1);
        assert!(matches!(read_records(&unfinished)[0], Err(Skip::NoResult)));
    }

    #[test]
    fn forfeits_are_left_out() {
        let text = TWO_GAMES.replace("[Plies \"4\"]", "[Termination \"P1 loses on time\"]");
        assert!(matches!(read_records(&text)[0], Err(Skip::Forfeit)));
    }

    #[test]
    fn an_illegal_move_skips_the_game() {
        let text = TWO_GAMES.replace("e4h e8 e2 e7", "e4h e8 e5 e7");
        assert!(matches!(read_records(&text)[0], Err(Skip::BadPosition(_))));
    }
}
