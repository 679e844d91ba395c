//! The grammar on well-formed and malformed lines.

use super::*;

#[test]
fn simple_commands() {
    assert_eq!(parse_line("uci"), Ok(Some(Command::Uci)));
    assert_eq!(parse_line("  isready  "), Ok(Some(Command::IsReady)));
    assert_eq!(parse_line(""), Ok(None));
    assert!(matches!(parse_line("uci now"), Err(ParseError::Malformed { .. })));
    assert!(matches!(parse_line("hello"), Err(ParseError::UnknownCommand(_))));
}

#[test]
fn setoption_names_may_hold_spaces() {
    assert_eq!(
        parse_line("setoption name Move Overhead value 30"),
        Ok(Some(Command::SetOption { name: "Move Overhead".into(), value: Some("30".into()) }))
    );
    assert!(parse_line("setoption value 3").is_err());
    assert!(parse_line("setoption name Hash value").is_err());
}

#[test]
fn position_forms() {
    assert_eq!(
        parse_line("position startpos moves e2 e8"),
        Ok(Some(Command::Position { base: PositionBase::StartPos, moves: vec!["e2".into(), "e8".into()] }))
    );
    let fen = "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1";
    assert_eq!(
        parse_line(&format!("position fen {fen} moves e2")),
        Ok(Some(Command::Position { base: PositionBase::Fen(fen.into()), moves: vec!["e2".into()] }))
    );
    assert!(parse_line("position").is_err());
    assert!(parse_line("position fen").is_err());
    assert!(parse_line("position somewhere").is_err());
}

#[test]
fn go_parameters() {
    let Ok(Some(Command::Go(p))) = parse_line("go wtime 1000 btime -5 winc 10 p3time 7 movestogo 5 ponder")
    else {
        panic!("go did not parse");
    };
    assert_eq!(p.limits.clocks.time[0], Some(Duration::from_millis(1000)));
    assert_eq!(p.limits.clocks.time[1], Some(Duration::ZERO));
    assert_eq!(p.limits.clocks.time[2], Some(Duration::from_millis(7)));
    assert_eq!(p.limits.clocks.increment[0], Some(Duration::from_millis(10)));
    assert_eq!(p.limits.clocks.moves_to_go, Some(5));
    assert!(p.ponder && !p.limits.infinite);
    assert!(p.problems.is_empty());
    assert_eq!(parse_line("go"), Ok(Some(Command::Go(Box::default()))));
}

fn go(line: &str) -> GoParams {
    match parse_line(line) {
        Ok(Some(Command::Go(params))) => *params,
        other => panic!("'{line}' gave {other:?}"),
    }
}

#[test]
fn go_never_fails_and_names_what_it_could_not_use() {
    assert_eq!(go("go depth").problems, [GoProblem::MissingValue("depth")]);
    assert_eq!(go("go depth infinite").problems, [GoProblem::MissingValue("depth")]);
    let solve = go("go solve searchmoves e2 solve");
    assert!(solve.task == GoTask::Solve && !solve.is_unbounded() && solve.problems.is_empty());
    assert_eq!(solve.search_moves, ["e2"], "solve ends a searchmoves list");
    assert!(go("go depth infinite").limits.infinite);
    assert_eq!(go("go perft 2 solve").task, GoTask::Perft(2));
    assert_eq!(go("go solve perft 3").task, GoTask::Perft(3));
    for bad in [
        "go depth x",
        "go depth 0",
        "go movetime -5",
        "go nodes -3",
        "go mate 0",
        "go perft -1",
        "go depth 1e3",
    ] {
        let params = go(bad);
        assert!(params.has_errors(), "{bad}");
        assert!(!params.is_unbounded(), "{bad}");
    }
    // Numbers too large to hold are as large as they get: as deep as the
    // search goes, as many nodes as a count holds.
    let huge =
        go("go depth 4294967296 nodes 99999999999999999999 mate 99999999999999999999999999999999999999999");
    assert!(huge.problems.is_empty(), "{:?}", huge.problems);
    assert_eq!(
        (huge.limits.depth, huge.limits.nodes, huge.limits.mate),
        (Some(u32::MAX), Some(u64::MAX), Some(u32::MAX))
    );
    assert_eq!(go("go perft 0").task, GoTask::Perft(0));
    assert_eq!(go("go perft 999").task, GoTask::Perft(64));
    assert_eq!(
        go("go wtime 99999999999999999999999").limits.clocks.time[0],
        Some(Duration::from_millis(u64::MAX))
    );
    let params = go("go sideways depth 3");
    assert_eq!(params.problems, [GoProblem::Unknown("sideways".into())]);
    assert!(!params.has_errors());
    assert_eq!(params.limits.depth, Some(3));
    assert!(go("go").is_unbounded() && go("go ponder wtime 5").is_unbounded());
    assert!(!go("go wtime 5").is_unbounded());
}

#[test]
fn searchmoves_takes_the_words_up_to_the_next_parameter() {
    let params = go("go\tsearchmoves e2  d1h\tmate 3");
    assert_eq!(params.search_moves, ["e2", "d1h"]);
    assert_eq!(params.limits.mate, Some(3));
    assert!(params.problems.is_empty());
}

#[test]
fn any_blank_separates_words_and_quotes_are_cut() {
    assert_eq!(
        parse_line("position\tstartpos\tmoves\te2 \t e8"),
        Ok(Some(Command::Position { base: PositionBase::StartPos, moves: vec!["e2".into(), "e8".into()] }))
    );
    assert_eq!(parse_line("debug on"), Ok(Some(Command::Ignored)));
    assert_eq!(parse_line("register later"), Ok(Some(Command::Ignored)));
    let long = "x".repeat(10_000);
    let message = parse_line(&long).unwrap_err().to_string();
    assert!(message.len() < QUOTED_CHARS + 40, "{message}");
}

#[test]
fn errors_name_the_word_found_and_where_it_is() {
    let message = |line: &str| parse_line(line).unwrap_err().to_string();
    assert_eq!(
        message("position  startpos junk moves e2"),
        "malformed 'position': expected 'startpos' or 'fen <text>', then 'moves ...', found 'junk' \
         (word 3, column 20)"
    );
    assert_eq!(message("uci\tnow"), "malformed 'uci': expected nothing more, found 'now' (word 2, column 5)");
    assert_eq!(
        message("setoption name Hash value  "),
        "malformed 'setoption': expected the value after 'value', found the end of the line (column 28)"
    );
    assert!(message("setoption value 3").contains("found 'value' (word 2, column 11)"));
    assert!(message("debug maybe").contains("found 'maybe' (word 2, column 7)"));
    // Columns count characters, not bytes.
    assert!(message("position é x").contains("found 'é' (word 2, column 10)"), "{}", message("position é x"));
    // A long offending word is cut.
    let long = format!("position {}", "y".repeat(500));
    assert!(message(&long).len() < QUOTED_CHARS + 120, "{}", message(&long));
}
