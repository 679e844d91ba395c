//! Unit tests of game records: writing, reading old and new layouts, and
//! the round trip.

use super::*;
use crate::referee::{GameRecord, PlayedMove, SKIPPED};
use crate::setup::Job;
use crate::setup::Opening;

#[test]
fn dates() {
    assert_eq!(civil_from_days(0), (1970, 1, 1));
    assert_eq!(civil_from_days(20_778), (2026, 11, 21));
    assert_eq!(civil_from_days(11_016), (2000, 2, 29));
}

#[test]
fn a_record_holds_replayable_moves() {
    let job = Job {
        number: 3,
        seats: vec![1, 0],
        opening: Opening { fen: None, moves: vec!["e2".into()] },
        group: 0,
    };
    let record = GameRecord {
        winner: Some(1),
        termination: "P2 reaches the goal".into(),
        moves: vec![PlayedMove {
            seat: 1,
            text: "e8".into(),
            millis: 12,
            score: Some("cp 50".into()),
            depth: None,
            stats: Default::default(),
        }],
        faults: Vec::new(),
        interrupted: false,
        comment: None,
    };
    let names = vec!["A".to_string(), "B".to_string()];
    let text = format_record(&job, &record, &names, "quoridor 9x9", "st=0.1", "2026.11.21");
    assert!(text.contains("[P1 \"B\"]\n[P2 \"A\"]\n"));
    assert!(text.contains("[Result \"0-1\"]"));
    assert!(text.contains("\n1. e2 e8 {+0.50 0.012s} 0-1\n\n"), "{text}");
    assert!(text.contains("; scores: cp50"));
    let read = read_records(&text);
    assert_eq!(read.len(), 1);
    let read = read[0].as_ref().expect("the record reads back");
    assert_eq!(read.game, Opening { fen: None, moves: vec!["e2".into(), "e8".into()] });
    assert_eq!((read.result.as_str(), read.tag("P1")), ("0-1", Some("B")));
    assert_eq!(read.comments, ["opening plies 1; move times (ms): 12", "scores: cp50"]);
}

#[test]
fn a_minimal_record_has_no_comments() {
    let job = Job { number: 1, seats: vec![0, 1], opening: Opening { fen: None, moves: vec![] }, group: 0 };
    let record = GameRecord {
        winner: None,
        termination: "ply limit 2 reached".into(),
        moves: vec![
            PlayedMove {
                seat: 0,
                text: "e2".into(),
                millis: 12,
                score: Some("cp 50".into()),
                depth: Some(3),
                stats: Default::default(),
            },
            PlayedMove {
                seat: 1,
                text: "e8".into(),
                millis: 7,
                score: Some("mate -3".into()),
                depth: None,
                stats: Default::default(),
            },
        ],
        faults: Vec::new(),
        interrupted: false,
        comment: None,
    };
    let names = vec!["A".to_string(), "B".to_string()];
    let info = RecordInfo {
        names: &names,
        variant: "quoridor 9x9 walls=10 players=2",
        time_control: "st=0.1",
        date: "2026.11.26",
        event: "e",
        site: "s",
        minimal: true,
        extras: Default::default(),
    };
    let minimal = write_record(&job, &record, &info);
    assert!(!minimal.contains(';') && !minimal.contains('{'), "{minimal}");
    let full = write_record(&job, &record, &RecordInfo { minimal: false, ..info });
    assert!(full.contains("; scores: cp50 mate-3"), "{full}");
    let (minimal, full) = (read_records(&minimal), read_records(&full));
    let (minimal, full) = (minimal[0].as_ref().expect("minimal"), full[0].as_ref().expect("full"));
    assert_eq!((&minimal.game, &minimal.tags, &minimal.result), (&full.game, &full.tags, &full.result));
    assert!(minimal.comments.is_empty());
}

#[test]
fn records_follow_one_another_and_bad_ones_are_named() {
    let text = "[Game \"1\"]\n[Variant \"quarto 3x3 level=1\"]\n[Termination \"P2 says \\\"hi\\\"\"]\n\n0 a11\n*\n\n\
        [Game \"2\"]\n[Variant \"quoridor 5x5 walls=3 players=2\"]\n\nc2 c9\n1-0\n; times\n\n\
        [Game \"3\"]\n[Variant \"quoridor 5x5 walls=3 players=4\"]\n[FEN \"quoridor 5x5 pawns=c1,c5,a3,e3 hand=3,3,3,3 walls=- turn=2\"]\n\nc4\nP2\n\n\
        [Game \"4\"]\n[Variant \"quoridor 3x3 walls=0 players=2\"]\n\nb2 b1\n0-1\n";
    let read = read_records(text);
    assert_eq!(read.len(), 4);
    assert!(read[3].is_ok(), "a record ends the game: {:?}", read[3]);
    let first = read[0].as_ref().expect("record 1");
    assert_eq!(first.tag("Termination"), Some("P2 says \"hi\""));
    assert_eq!(first.game.moves, vec!["0", "a11"]);
    assert!(read[1].as_ref().is_err_and(|e| e.contains("c9")), "{:?}", read[1]);
    let third = read[2].as_ref().expect("record 3");
    assert_eq!((third.result.as_str(), third.game.moves.len()), ("P2", 1));
    assert!(third.game.fen.is_some());
}

/// A four-player record where P2 is out: its turns show as `-`.
#[test]
fn skipped_turns_read_back() {
    let text = "[Game \"1\"]\n[Variant \"quoridor 5x5 walls=3 players=4\"]\n\n\
                c2 - c4 d3 c3 - b4 d2\nP3\n";
    let read = read_records(text);
    let record = read[0].as_ref().expect("a record with skipped turns reads");
    assert_eq!(record.game.moves[1], SKIPPED);
    let (position, _) = replay(&record.game, &record.variant).expect("it replays");
    assert_eq!(position.to_text(), "quoridor 5x5 pawns=c3,a3,b4,d2 hand=3,3,3,3 walls=- turn=1 jumps=single");
    let two = "[Game \"1\"]\n[Variant \"quoridor 5x5 walls=3 players=2\"]\n\nc2 - c4\n*\n";
    assert!(read_records(two)[0].as_ref().is_err_and(|e| e.contains("four-player")));
}

fn played(seat: usize, text: &str, millis: u64, score: Option<&str>, depth: Option<u32>) -> PlayedMove {
    PlayedMove {
        seat,
        text: text.into(),
        millis,
        score: score.map(String::from),
        depth,
        stats: Default::default(),
    }
}

fn info<'a>(names: &'a [String], variant: &'a str) -> RecordInfo<'a> {
    RecordInfo {
        names,
        variant,
        time_control: "10+0.1",
        date: "2026.11.26",
        event: "Cup \"A\"",
        site: "lab\t1",
        minimal: false,
        extras: Default::default(),
    }
}

/// The seven-tag roster first, White the first mover, PlyCount, move
/// numbers and cutechess-style comments.
#[test]
fn records_are_pgn() {
    let job = Job {
        number: 7,
        seats: vec![1, 0],
        opening: Opening { fen: None, moves: vec!["e2".into()] },
        group: 3,
    };
    let record = GameRecord {
        winner: Some(0),
        termination: "P1 reaches the goal".into(),
        moves: vec![
            played(1, "e8", 310, Some("cp 35"), Some(12)),
            played(0, "e3", 1200, Some("mate 5"), Some(9)),
            played(1, "e7", 7, None, Some(4)),
            played(0, "e4", 0, Some("cp -100"), None),
            played(1, "e6", 20, Some("mate -2"), Some(30)),
        ],
        faults: Vec::new(),
        interrupted: false,
        comment: None,
    };
    let names = vec!["A".to_string(), "B".to_string()];
    let text = write_record(&job, &record, &info(&names, "quoridor 9x9 walls=10 players=2"));
    let tags: Vec<&str> = text.lines().take_while(|l| l.starts_with('[')).collect();
    assert_eq!(
        tags,
        [
            "[Event \"Cup \\\"A\\\"\"]",
            "[Site \"lab?1\"]",
            "[Date \"2026.11.26\"]",
            "[Round \"7\"]",
            "[White \"B\"]",
            "[Black \"A\"]",
            "[Result \"1-0\"]",
            "[Game \"7\"]",
            "[Variant \"quoridor 9x9 walls=10 players=2\"]",
            "[P1 \"B\"]",
            "[P2 \"A\"]",
            "[Termination \"P1 reaches the goal\"]",
            "[TimeControl \"10+0.1\"]",
            "[Plies \"6\"]",
            "[PlyCount \"6\"]",
        ]
    );
    let body = &text[text.find("\n\n").expect("a blank line after the tags") + 2..];
    assert_eq!(
        body,
        "; opening plies 1; move times (ms): 310 1200 7 0 20\n\
         ; scores: cp35 mate5 - cp-100 mate-2\n\
         1. e2 e8 {+0.35/12 0.31s} 2. e3 {+M5/9 1.2s} 2... e7 3. e4 {-1.00 0s} 3... e6\n\
         {-M2/30 0.02s} 1-0\n\n"
    );
    assert!(body.lines().all(|l| l.len() <= write::LINE_CHARS));
}

/// A game from a position with the second seat to move opens with `1...`;
/// four players number rounds of four moves and have no White or Black.
#[test]
fn move_numbers_follow_the_turn() {
    let fen = "quoridor 5x5 pawns=c1,c5,a3,e3 hand=3,3,3,3 walls=- turn=2";
    let job = Job {
        number: 1,
        seats: vec![0, 1, 2, 3],
        opening: Opening { fen: Some(fen.into()), moves: vec!["c4".into()] },
        group: 0,
    };
    let record = GameRecord {
        winner: None,
        termination: "ply limit 4 reached".into(),
        moves: ["b3", "d3", "c2", "c3"]
            .iter()
            .enumerate()
            .map(|(i, m)| played((i + 2) % 4, m, 5, None, None))
            .collect(),
        faults: Vec::new(),
        interrupted: false,
        comment: None,
    };
    let names: Vec<String> = ["N", "E", "S", "W"].map(String::from).to_vec();
    let minimal = RecordInfo { minimal: true, ..info(&names, "quoridor 5x5 walls=3 players=4") };
    let text = write_record(&job, &record, &minimal);
    assert!(text.contains("[White \"?\"]\n[Black \"?\"]\n[Result \"1/2-1/2\"]\n"), "{text}");
    assert!(text.contains("[SetUp \"1\"]\n[FEN \"quoridor 5x5"), "{text}");
    assert!(text.ends_with("\n\n1... c4 b3 d3 2. c2 c3 1/2-1/2\n\n"), "{text}");
    let read = read_records(&text);
    let read = read[0].as_ref().expect("it reads back");
    assert_eq!(read.game.moves, ["c4", "b3", "d3", "c2", "c3"]);
}

/// A long game wraps at 79 characters and reads back whole: moves, tags,
/// result, the `;` lines and every move's comment in its place.
#[test]
fn a_record_round_trips() {
    let variant = crate::setup::GameVariant::default();
    let moves = crate::setup::random_opening(&variant, 14, 5).expect("14 legal moves").moves;
    let job = Job { number: 2, seats: vec![0, 1], opening: Opening { fen: None, moves: vec![] }, group: 0 };
    let record = GameRecord {
        winner: Some(1),
        termination: "P1 plays an illegal move (\"x\\y\")".into(),
        moves: moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                played(
                    i % 2,
                    m,
                    1000 + i as u64 * 37,
                    Some(&format!("cp {}", i as i64 * 13 - 50)),
                    Some(i as u32),
                )
            })
            .collect(),
        faults: Vec::new(),
        interrupted: false,
        comment: None,
    };
    let names = vec!["A".to_string(), "B".to_string()];
    let text = write_record(&job, &record, &info(&names, "quoridor 9x9 walls=10 players=2"));
    // The `;` lines are one line each, as before; the rest is wrapped.
    let movetext: Vec<&str> = text.lines().filter(|l| !l.starts_with(';')).collect();
    assert!(movetext.len() > 20 && movetext.iter().all(|l| l.len() <= write::LINE_CHARS), "{text}");
    let twice = format!("{text}{text}");
    let read = read_records(&twice);
    assert_eq!(read.len(), 2);
    let read = read[1].as_ref().expect("it reads back");
    assert_eq!(read.game.moves, moves);
    assert_eq!(
        (read.result.as_str(), read.tag("Termination")),
        ("0-1", Some("P1 plays an illegal move (\"x\\y\")"))
    );
    assert_eq!(read.tag("Event"), Some("Cup \"A\""));
    assert_eq!(read.comments.len(), 2);
    let expected: Vec<(usize, String)> =
        record.moves.iter().enumerate().map(|(i, m)| (i + 1, move_comment(m).unwrap_or_default())).collect();
    assert_eq!(read.move_comments, expected);
    assert_eq!(read.move_comments[1].1, "-0.37/1 1.037s");
    assert_eq!(read.tag("PlyCount"), Some("14"));
}

/// The reader takes move numbers written against the move, glyphs, and
/// comments anywhere, and refuses variations and open comments.
#[test]
fn movetext_in_other_hands() {
    let head = "[Variant \"quoridor 5x5 walls=3 players=2\"]\n\n";
    let read = read_records(&format!("{head}1.c2 $1 {{a\nlong comment}} c4 ; rest of line\n2. c3 1-0\n"));
    let read = read[0].as_ref().expect("it reads");
    assert_eq!(
        (read.game.moves.clone(), read.result.as_str()),
        (vec!["c2".into(), "c4".into(), "c3".into()], "1-0")
    );
    assert_eq!(read.move_comments, [(1, "a\nlong comment".to_string())]);
    assert_eq!(read.comments, ["rest of line"]);
    assert!(read_records(&format!("{head}1. c2 (1. b1) c4 *\n"))[0]
        .as_ref()
        .is_err_and(|e| e.contains("variations")));
    assert!(read_records(&format!("{head}1. c2 {{open\n"))[0].as_ref().is_err_and(|e| e.contains("'}'")));
}
