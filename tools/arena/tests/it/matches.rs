//! Whole matches between real `tabula` engines: two- and four-player
//! Quoridor, Quarto, and an SPRT that decides. Every game record is replayed
//! through the library.

use crate::common::*;
use std::collections::HashMap;
use std::time::Duration;

/// Engine groups for `tabula` under these names, with a generous time margin
/// so that a loaded machine does not turn slow moves into time losses.
fn tabulas(names: &[&str]) -> Vec<String> {
    let mut args = Vec::new();
    for name in names {
        args.extend([
            "-engine".into(),
            format!("cmd={}", tabula_str()),
            format!("name={name}"),
            "timemargin=2000".into(),
        ]);
    }
    args
}

fn args(engines: Vec<String>, rest: &str) -> Vec<String> {
    engines.into_iter().chain(rest.split_whitespace().map(String::from)).collect()
}

/// The checks every finished match passes: one `Started` and one `Finished`
/// line per game, numbered 1..=n.
fn check_games(run: &Run, games: usize) -> Vec<FinishedGame> {
    let finished = finished_games(&run.stdout);
    let mut numbers: Vec<usize> = finished.iter().map(|f| f.number).collect();
    numbers.sort();
    run.check(
        numbers == (1..=games).collect::<Vec<_>>(),
        &format!("games 1..={games} should each finish once"),
    );
    let mut started = started_games(&run.stdout);
    started.sort();
    run.check(started == numbers, "every started game should finish");
    finished
}

/// The records match the `Finished` lines one for one.
fn check_records_match(run: &Run, records: &[Record], finished: &[FinishedGame]) {
    run.check(records.len() == finished.len(), "one record per finished game");
    for f in finished {
        let record = records.iter().find(|r| r.tag("Game") == f.number.to_string());
        let record = record.unwrap_or_else(|| panic!("no record of game {}\n{run}", f.number));
        for (seat, name) in f.seats.iter().enumerate() {
            assert_eq!(record.tag(&format!("P{}", seat + 1)), name, "{record:?}");
        }
        assert_eq!(record.result, f.result, "{record:?}");
        assert_eq!(record.tag("Termination"), f.termination, "{record:?}");
    }
}

#[test]
fn two_player_quoridor_match_reports_and_records_every_game() {
    let dir = TempDir::new("quoridor2");
    let pgn = dir.file("games.pgn");
    let run = ArenaRun::new(&args(
        tabulas(&["Alpha", "Beta"]),
        &format!(
            "-each st=0.05 -variant game=quoridor width=5 height=5 walls=4 -games 4 -repeat -concurrency 2 \
             -sprt elo0=0 elo1=100 -openings random plies=2 -pgnout {pgn}"
        ),
    ))
    .run();
    run.expect_exit(0);
    let finished = check_games(&run, 4);
    for f in &finished {
        run.check(f.result == "1-0" || f.result == "0-1" || f.result == "1/2-1/2", "a two-player result");
        run.check(f.seats.len() == 2 && f.seats.contains(&"Alpha".into()), "Alpha vs Beta");
    }

    // The score agrees with the games.
    let scores = score_lines(&run.stdout);
    let score = scores.last().unwrap_or_else(|| panic!("no score line\n{run}"));
    run.check(score.first == "Alpha" && score.second == "Beta", "score of Alpha vs Beta");
    run.check(score.wins + score.losses + score.draws == 4 && score.games == 4, "W + L + D = games = 4");
    let alpha_wins = finished.iter().filter(|f| f.winner_name() == Some("Alpha")).count() as u64;
    let draws = finished.iter().filter(|f| f.winner().is_none()).count() as u64;
    run.check((score.wins, score.draws) == (alpha_wins, draws), "the score counts the finished games");
    let expected_ratio = (score.wins as f64 + 0.5 * score.draws as f64) / 4.0;
    run.check((score.ratio - expected_ratio).abs() < 0.001, "score ratio");

    // The result block, fastchess style.
    let line = |prefix: &str| {
        let found = run.stdout.lines().rev().find(|l| l.starts_with(prefix));
        found.unwrap_or_else(|| panic!("no line starting with '{prefix}'\n{run}")).to_string()
    };
    let elo = line("Elo difference: ");
    run.check(
        elo.contains(" +/- ")
            && elo.contains(", LOS: ")
            && elo.contains(" %, DrawRatio: ")
            && elo.ends_with(" %"),
        "Elo difference: X +/- Y, LOS: Z %, DrawRatio: D %",
    );
    let ptnml = line("Ptnml(0-2): [");
    let pairs: Vec<u64> = ptnml["Ptnml(0-2): [".len()..]
        .trim_end_matches(']')
        .split(", ")
        .map(|n| n.parse().unwrap_or_else(|_| panic!("bad {ptnml}")))
        .collect();
    run.check(pairs.len() == 5 && pairs.iter().sum::<u64>() == 2, "Ptnml(0-2) of two pairs");
    let llr = line("LLR: ");
    run.check(llr.ends_with("[0.00, 100.00]") && llr.contains(" (-2.94, 2.94) "), "LLR line with bounds");
    for name in ["Alpha", "Beta"] {
        let row = engine_row(&run, name);
        run.check(row.time_losses + row.illegal_moves + row.crashes == 0, "no faults");
        run.check(row.max_ms > 0 && row.mean_ms > 0.0, "move times measured");
    }

    // Every record replays to the end it claims; pairs share their opening.
    let records = read_records(&pgn);
    check_records_match(&run, &records, &finished);
    let start = || quoridor_start(5, 5, 4, 2);
    let mut longest: Option<(&Record, Replay)> = None;
    for record in &records {
        assert_eq!(record.tag("Variant"), "quoridor 5x5 walls=4 players=2");
        assert_eq!(record.opening_plies(), 2, "{record:?}");
        let replayed = check_record(record, start(), 4 * 5 * 5);
        if longest.as_ref().is_none_or(|(r, _)| r.moves.len() < record.moves.len()) {
            longest = Some((record, replayed));
        }
    }
    let opening = |game: &str| &records.iter().find(|r| r.tag("Game") == game).unwrap().moves[..2];
    assert_eq!(opening("1"), opening("2"), "games 1 and 2 share an opening");
    assert_eq!(opening("3"), opening("4"), "games 3 and 4 share an opening");

    // The real engine accepts the longest game and ends where the library does.
    let (record, replayed) = longest.unwrap();
    let options = [("BoardWidth", "5"), ("BoardHeight", "5"), ("Walls", "4")];
    check_with_tabula(&options, &record.moves, &replayed);
}

/// Runs `first` against `second` (`(name, depth)`) with `concurrency` games
/// at once until the SPRT decides, and checks that it stopped early: once the
/// decision is printed (after every game, `-ratinginterval 1`), only the games
/// the other workers had already taken may start or finish.
fn sprt_decides(first: (&str, u32), second: (&str, u32), concurrency: usize, decision: &str) {
    let scheduled = 200;
    let mut engines = Vec::new();
    for (name, depth) in [first, second] {
        engines.extend([
            "-engine".into(),
            format!("cmd={}", tabula_str()),
            format!("name={name}"),
            format!("depth={depth}"),
        ]);
    }
    let run = ArenaRun::new(&args(
        engines,
        &format!(
            "-variant width=5 height=5 walls=10 -games {scheduled} -repeat -concurrency {concurrency} \
             -sprt elo0=0 elo1=200 -openings random plies=2 -ratinginterval 1"
        ),
    ))
    .run();
    run.expect_exit(0);
    let lines: Vec<&str> = run.stdout.lines().collect();
    let decided = lines.iter().position(|l| *l == decision);
    let decided = decided.unwrap_or_else(|| panic!("no '{decision}'\n{run}"));
    let finished = finished_games(&run.stdout);
    run.check(finished.len() < scheduled, "the SPRT should stop the match early");
    let score = score_lines(&run.stdout).pop().unwrap();
    run.check(score.games as usize == finished.len(), "the score counts every finished game");
    let after = |prefix: &str| lines[decided..].iter().filter(|l| l.starts_with(prefix)).count();
    run.check(after("Started game") < concurrency, "no game may be taken once the SPRT has decided");
    run.check(
        after("Finished game") < concurrency,
        "only games taken before the decision may finish after it",
    );
    run.check(lines.iter().rev().take(8).any(|l| *l == decision), "the final results repeat the decision");
}

/// Deterministic: fixed depths, seeded openings. On 5x5 with 10 walls a
/// depth-1 search loses nearly every game to a depth-4 one (1 - 39 in 40
/// games when this was written), so a 200 Elo SPRT settles within a few pairs.
/// One game at a time: nothing at all may start after the decision.
#[test]
fn sprt_accepts_h1_and_stops_early() {
    sprt_decides(("Deep", 4), ("Shallow", 1), 1, "H1 accepted");
}

#[test]
fn sprt_accepts_h0_and_stops_early() {
    sprt_decides(("Shallow", 1), ("Deep", 4), 2, "H0 accepted");
}

#[test]
fn four_player_quoridor_prints_standings() {
    let dir = TempDir::new("quoridor4");
    let pgn = dir.file("games.pgn");
    let names = ["North", "East", "South", "West"];
    let run = ArenaRun::new(&args(
        tabulas(&names),
        &format!("-each st=0.05 -variant width=5 height=5 players=4 walls=3 -games 4 -repeat -concurrency 2 -pgnout {pgn}"),
    ))
    .run();
    run.expect_exit(0);
    let finished = check_games(&run, 4);
    let rows = standings_table(&run.stdout);
    run.check(rows.len() == 4, "four rows of standings");
    for (row, name) in rows.iter().zip(names) {
        run.check(row.name == name && row.games == 4, "each engine played the four games");
        run.check(
            row.by_seat.iter().all(|&(_, games)| games == 1),
            "-repeat rotates every engine through every seat",
        );
        let wins = finished.iter().filter(|f| f.winner_name() == Some(name)).count() as u64;
        run.check(row.wins == wins, "wins agree with the finished games");
    }
    for f in &finished {
        run.check(f.seats.len() == 4, "four players per game");
        run.check(f.result == "1/2-1/2" || f.result.starts_with('P'), "a four-player result token");
    }
    run.check(engine_table(&run.stdout).len() == 4, "per-engine table for four engines");
    let records = read_records(&pgn);
    check_records_match(&run, &records, &finished);
    for record in &records {
        check_record(record, quoridor_start(5, 5, 3, 4), 4 * 5 * 5);
    }
}

fn quarto_match(board: &str, side: usize) {
    let dir = TempDir::new("quarto");
    let pgn = dir.file("games.pgn");
    let run = ArenaRun::new(&args(
        tabulas(&["Red", "Blue"]),
        &format!(
            "-each st=0.05 -variant game=quarto board={board} -games 2 -repeat -concurrency 2 -pgnout {pgn}"
        ),
    ))
    .run();
    run.expect_exit(0);
    let finished = check_games(&run, 2);
    let score = score_lines(&run.stdout).pop().unwrap_or_else(|| panic!("no score line\n{run}"));
    run.check(score.games == 2 && score.wins + score.losses + score.draws == 2, "W + L + D = 2");
    run.check(run.stdout.contains("Ptnml(0-2): ["), "pentanomial line");
    let records = read_records(&pgn);
    check_records_match(&run, &records, &finished);
    let mut options = vec![("Game", "quarto")];
    if side == 3 {
        options.push(("QuartoBoard", "3x3"));
    }
    for record in &records {
        assert_eq!(record.tag("Variant"), format!("quarto {board} level=1"));
        let replayed = check_record(record, quarto_start(side), side * side + 1);
        check_with_tabula(&options, &record.moves, &replayed);
    }
}

#[test]
fn quarto_4x4_match() {
    quarto_match("4x4", 4);
}

/// The 3x3 game is a forced win for the player who places first (player 2),
/// and the engine finds it at once.
#[test]
fn quarto_3x3_match() {
    quarto_match("3x3", 3);
}

/// Three engines in a round robin: one score line per pairing.
#[test]
fn round_robin_of_three() {
    let run = ArenaRun::new(&args(
        tabulas(&["A", "B", "C"]),
        "-each depth=2 -variant width=5 height=5 walls=2 -games 2",
    ))
    .limit(Duration::from_secs(60))
    .run();
    run.expect_exit(0);
    check_games(&run, 6);
    let pairings: HashMap<(String, String), u64> =
        score_lines(&run.stdout).into_iter().map(|s| ((s.first, s.second), s.games)).collect();
    let expected: HashMap<(String, String), u64> = [("A", "B"), ("A", "C"), ("B", "C")]
        .iter()
        .map(|(a, b)| ((a.to_string(), b.to_string()), 2))
        .collect();
    run.check(pairings == expected, "a score line of two games per pairing");
}

/// `-maxmoves N` draws a game once every player has made N moves: N x
/// players plies after the opening (no pawn reaches its goal on 7x7 in the
/// few moves asked, jumps included). `-maxplies` still counts plies, and the lower cap wins.
#[test]
fn maxmoves_counts_a_move_of_every_player() {
    let dir = TempDir::new("maxmoves");
    for (names, players, extra, plies, termination) in [
        (&["A", "B"][..], 2, "-maxmoves 3", 6, "move limit 3 reached"),
        (&["A", "B"][..], 2, "-maxmoves 3 -maxplies 5", 5, "ply limit 5 reached"),
        (&["N", "E", "S", "W"][..], 4, "-maxmoves 2 -openings random plies=1", 9, "move limit 2 reached"),
    ] {
        let pgn = dir.file(&format!("{players}-{plies}.pgn"));
        let run = ArenaRun::new(&args(
            tabulas(names),
            &format!(
                "-each depth=1 -variant width=7 height=7 walls=2 players={players} -games 2 -repeat {extra} \
                 -pgnout {pgn}"
            ),
        ))
        .run();
        run.expect_exit(0);
        let finished = check_games(&run, 2);
        for f in &finished {
            run.check(f.result == "1/2-1/2" && f.termination == termination, termination);
        }
        for record in read_records(&pgn) {
            assert_eq!(record.moves.len(), plies, "{record:?}");
            assert_eq!(record.tag("Termination"), termination);
        }
    }
}

/// The `go` lines arena sent to engine `name`, from a `-log` file.
fn go_lines(log: &str, name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(log).unwrap_or_else(|e| panic!("cannot read {log}: {e}"));
    let marker = format!(" {name} << go");
    text.lines().filter_map(|l| l.split_once(&marker).map(|(_, rest)| format!("go{rest}"))).collect()
}

/// The number after `key` in a `go` line.
fn go_value(line: &str, key: &str) -> u64 {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == key).unwrap_or_else(|| panic!("no {key} in '{line}'"));
    words[at + 1].parse().unwrap_or_else(|_| panic!("{key} in '{line}'"))
}

/// `tc=MOVES/TIME+INC`: the engine hears `movestogo`, counting down to the
/// end of each period, and its clock gets TIME again when a period ends.
#[test]
fn a_clock_of_moves_per_period_sends_movestogo_and_refills() {
    let dir = TempDir::new("movestogo");
    let (log, pgn) = (dir.file("arena.log"), dir.file("games.pgn"));
    let run = ArenaRun::new(&args(
        tabulas(&["A", "B"]),
        &format!("-each tc=2/0.3+0.01 -variant width=5 height=5 walls=2 -games 1 -log {log} -pgnout {pgn}"),
    ))
    .run();
    run.expect_exit(0);
    let records = read_records(&pgn);
    run.check(records[0].tag("TimeControl") == "2/0.3+0.01", "the TimeControl tag");
    let lines = go_lines(&log, "A");
    run.check(lines.len() >= 3, "A moves three times or more");
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(go_value(line, "movestogo"), 2 - i as u64 % 2, "{line}");
        assert_eq!((go_value(line, "winc"), go_value(line, "binc")), (10, 10), "{line}");
    }
    assert_eq!(go_value(&lines[0], "wtime"), 300, "{}", lines[0]);
    assert!(go_value(&lines[1], "wtime") <= 310, "{}", lines[1]);
    assert!(go_value(&lines[2], "wtime") >= 300, "a new period: {}", lines[2]);
}

/// `tc=inf` with a node limit: no clock, `go nodes N`, and the TimeControl
/// tag says so.
#[test]
fn tc_inf_searches_by_nodes_without_a_clock() {
    let dir = TempDir::new("tc-inf");
    let (log, pgn) = (dir.file("arena.log"), dir.file("games.pgn"));
    let run = ArenaRun::new(&args(
        tabulas(&["A", "B"]),
        &format!(
            "-each tc=inf nodes=300 option.Threads=1 -variant width=5 height=5 walls=2 -games 2 -log {log} \
             -pgnout {pgn}"
        ),
    ))
    .run();
    run.expect_exit(0);
    check_games(&run, 2);
    for name in ["A", "B"] {
        let lines = go_lines(&log, name);
        run.check(!lines.is_empty() && lines.iter().all(|l| l == "go nodes 300"), "go nodes 300 only");
    }
    for record in read_records(&pgn) {
        assert_eq!(record.tag("TimeControl"), "inf nodes=300");
    }
}
