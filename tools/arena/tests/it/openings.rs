//! `-openings file=... format=pgn plies=N` and `format=epd` through the real
//! binary: a match's records become the next match's openings (their first
//! N plies), and position texts (bare or as `position fen ...` commands)
//! start games; a bad file is refused before any game.

use crate::common::*;
use std::time::Duration;

fn tabulas() -> Vec<String> {
    let mut args = Vec::new();
    for name in ["A", "B"] {
        args.extend(["-engine".to_string(), format!("cmd={}", tabula_str()), format!("name={name}")]);
    }
    args
}

fn play(rest: &str, dir: &TempDir) -> Run {
    let mut args = tabulas();
    args.extend(rest.split_whitespace().map(String::from));
    ArenaRun::new(&args).limit(Duration::from_secs(90)).watch(dir).run()
}

#[test]
fn records_of_one_match_open_the_next() {
    let dir = TempDir::new("openings-pgn");
    let (first, second) = (dir.file("first.pgn"), dir.file("second.pgn"));
    let each = "-each depth=2 timemargin=2000 -variant width=5 height=5 walls=2";
    play(&format!("{each} -games 4 -openings random plies=3 -seed 9 -pgnout {first}"), &dir).expect_exit(0);
    let run =
        play(&format!("{each} -games 4 -openings file={first} format=pgn plies=2 -pgnout {second}"), &dir);
    run.expect_exit(0);
    let prefixes: Vec<Vec<String>> = read_records(&first).iter().map(|r| r.moves[..2].to_vec()).collect();
    let played = read_records(&second);
    run.check(played.len() == 4, "four games");
    for (i, record) in played.iter().enumerate() {
        assert_eq!(record.opening_plies(), 2, "{record:?}");
        // Openings in file order, each distinct one once.
        let mut distinct: Vec<&Vec<String>> = Vec::new();
        for p in &prefixes {
            if !distinct.contains(&p) {
                distinct.push(p);
            }
        }
        assert_eq!(&record.moves[..2], &distinct[i % distinct.len()][..], "{record:?}");
        check_record(record, quoridor_start(5, 5, 2, 2), 100);
    }
}

/// An opening longer than its game takes the whole game, but for the move
/// that ended it (the hostile test's `plies=999` stopped the whole run).
#[test]
fn an_opening_longer_than_its_game_takes_the_whole_game() {
    let dir = TempDir::new("openings-long");
    let (first, second) = (dir.file("first.pgn"), dir.file("second.pgn"));
    let each = "-each depth=2 timemargin=2000 -variant width=5 height=5 walls=2";
    play(&format!("{each} -games 2 -openings random plies=2 -seed 4 -pgnout {first}"), &dir).expect_exit(0);
    let run =
        play(&format!("{each} -games 2 -openings file={first} format=pgn plies=999 -pgnout {second}"), &dir);
    run.expect_exit(0);
    let (games, replayed) = (read_records(&first), read_records(&second));
    run.check(replayed.len() == 2, "both games played");
    for record in &replayed {
        let source = games.iter().find(|g| record.moves.starts_with(&g.moves[..g.moves.len() - 1]));
        let source = source.unwrap_or_else(|| panic!("no game opens {record:?}"));
        assert_eq!(record.opening_plies(), source.moves.len() - 1, "all but the winning move");
        check_record(record, quoridor_start(5, 5, 2, 2), 200);
    }
}

#[test]
fn position_lines_open_games() {
    let dir = TempDir::new("openings-epd");
    let (positions, pgn) = (dir.file("positions.epd"), dir.file("games.pgn"));
    let fen = "quoridor 5x5 pawns=c2,c4 hand=2,2 walls=- turn=1";
    let lines = format!("# two openings\n{fen}\n\nposition fen {fen} moves c3 b4\n");
    std::fs::write(&positions, lines).expect("write the positions");
    let run = play(
        &format!(
            "-each depth=2 timemargin=2000 -variant width=5 height=5 walls=2 -games 2 \
             -openings file={positions} format=epd -pgnout {pgn}"
        ),
        &dir,
    );
    run.expect_exit(0);
    let records = read_records(&pgn);
    run.check(records.len() == 2, "two games");
    for (record, opening) in records.iter().zip([0, 2]) {
        assert_eq!(record.tag("FEN"), fen, "{record:?}");
        assert_eq!(record.opening_plies(), opening, "{record:?}");
    }
    assert_eq!(&records[1].moves[..2], ["c3", "b4"]);
}

#[test]
fn bad_openings_files_are_refused() {
    let dir = TempDir::new("openings-bad");
    let positions = dir.file("moves.txt");
    std::fs::write(&positions, "e2 e8\n").expect("write the file");
    let run = play(&format!("-each depth=1 -openings file={positions} format=epd"), &dir);
    run.expect_exit(2);
    run.check(run.stderr.contains("openings line 1: 'e2 e8' is not a position text"), "says why");
    let records = dir.file("other.pgn");
    std::fs::write(&records, "[Variant \"quoridor 7x7 walls=6 players=2\"]\n\n1. d2 d6 *\n\n")
        .expect("write");
    let run = play(&format!("-each depth=1 -openings file={records} format=pgn plies=2"), &dir);
    run.expect_exit(2);
    run.check(run.stderr.contains("openings record 1: a game of quoridor 7x7"), "names the record");
    // Without plies= each game is taken whole (as cutechess-cli and fastchess do): the
    // variant is what is refused.
    let run = play(&format!("-each depth=1 -openings file={records} format=pgn"), &dir);
    run.expect_exit(2);
    run.check(run.stderr.contains("openings record 1: a game of quoridor 7x7"), "plies are not needed");
}
