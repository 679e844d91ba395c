//! Conversations with the real `tabula` binary over stdin/stdout, checking
//! the behaviour that protocol.md documents.
//!
//! Timing assertions are kept at ten times (or more) what the engine needs on
//! an idle machine, because CI runs these tests in parallel on two loaded cores.

use crate::common::engine_process::{EngineProcess, QUICK};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use tabula::game::prelude::*;
use tabula::games::quarto::{Quarto, QuartoMove};
use tabula::games::quoridor::{Quoridor, Variant};

const START_9X9: &str = "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1 jumps=single";

fn ms(duration: Duration) -> u128 {
    duration.as_millis()
}

fn position(text: &str) -> Quoridor {
    Quoridor::from_text(text).unwrap_or_else(|e| panic!("bad position text '{text}': {e}"))
}

/// Splits `bestmove X [ponder Y]`.
fn parse_bestmove(line: &str) -> (String, Option<String>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["bestmove", best] => (best.to_string(), None),
        ["bestmove", best, "ponder", ponder] => (best.to_string(), Some(ponder.to_string())),
        _ => panic!("malformed bestmove line '{line}'"),
    }
}

/// Checks that a `bestmove` line names a legal move of `pos` (and a legal
/// reply as its ponder move) and returns the move.
fn check_bestmove(line: &str, pos: &Quoridor) -> String {
    let (best, ponder) = parse_bestmove(line);
    let mv = pos.parse_move(&best).unwrap_or_else(|e| panic!("'{line}': {e} in {}", pos.to_text()));
    if let Some(ponder) = ponder {
        let mut after = pos.clone();
        after.make_move(mv);
        if let Err(e) = after.parse_move(&ponder) {
            panic!("'{line}': ponder move: {e} in {}", after.to_text());
        }
    }
    best
}

/// Checks an `info depth ...` line: every field of protocol.md, in order,
/// with a pv that is a legal line from `pos`. Returns (depth, nodes).
fn check_info(line: &str, pos: &Quoridor) -> (u64, u64) {
    // A bound follows the score's value; the rest is in fixed places.
    let words: Vec<&str> =
        line.split_whitespace().filter(|w| !matches!(*w, "lowerbound" | "upperbound")).collect();
    let number = |at: usize, key: &str| -> i64 {
        assert_eq!(words.get(at), Some(&key), "field {key} in '{line}'");
        words.get(at + 1).and_then(|w| w.parse().ok()).unwrap_or_else(|| panic!("value of {key} in '{line}'"))
    };
    assert_eq!(words[0], "info", "{line}");
    let depth = number(1, "depth");
    let seldepth = number(3, "seldepth");
    assert_eq!(number(5, "multipv"), 1, "{line}");
    assert_eq!(words.get(7), Some(&"score"), "{line}");
    assert!(matches!(words.get(8), Some(&"cp") | Some(&"mate")), "score kind in '{line}'");
    assert!(words.get(9).and_then(|w| w.parse::<i64>().ok()).is_some());
    let nodes = number(10, "nodes");
    let nps = number(12, "nps");
    let time = number(14, "time");
    let hashfull = number(16, "hashfull");
    assert_eq!(words.get(18), Some(&"pv"), "pv in '{line}'");
    assert!(words.len() > 19, "empty pv in '{line}'");
    assert!(depth >= 1 && seldepth >= depth, "{line}");
    assert!(nodes >= 0 && nps >= 0 && time >= 0, "{line}");
    assert!((0..=1000).contains(&hashfull), "hashfull per mille in '{line}'");
    let mut line_pos = pos.clone();
    for text in &words[19..] {
        match line_pos.parse_move(text) {
            Ok(mv) => line_pos.make_move(mv),
            Err(e) => panic!("pv of '{line}': {e}"),
        }
    }
    (depth as u64, nodes as u64)
}

fn bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove")).count()
}

fn errors(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("info string error: ")).count()
}

// 1 ------------------------------------------------------------------------

#[test]
fn handshake_lists_every_option() {
    let mut engine = EngineProcess::start();
    engine.send("uci");
    let lines = engine.read_until("uciok", QUICK);
    assert!(lines[0].starts_with("id name Tabula "), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    // name, type, default, and the range of spins (protocol.md, Options).
    let expected = [
        ("Game", "combo", "quoridor", None),
        ("BoardWidth", "spin", "9", Some((2, 15))),
        ("BoardHeight", "spin", "9", Some((3, 15))),
        ("Walls", "spin", "10", Some((0, 30))),
        ("Players", "combo", "2", None),
        ("MultiJump", "check", "false", None),
        ("Level", "spin", "10", Some((1, 10))),
        ("Threads", "spin", "1", Some((1, 256))),
        ("FourPlayerSearch", "combo", "brs", None),
        ("Hash", "spin", "16", Some((1, 16384))),
        ("MoveOverhead", "spin", "10", Some((0, 5000))),
        ("Seed", "spin", "0", Some((0, 2147483647))),
        ("Ponder", "check", "false", None),
        ("QuartoLevel", "spin", "1", Some((1, 4))),
        ("QuartoBoard", "combo", "4x4", None),
        ("MultiPV", "spin", "1", Some((1, 500))),
        ("SolveMethod", "combo", "auto", None),
        ("UCI_LimitStrength", "check", "false", None),
        ("UCI_Elo", "spin", "1500", Some((0, 3192))),
    ];
    for (name, kind, default, range) in expected {
        let prefix = format!("option name {name} type ");
        let found: Vec<&String> = lines.iter().filter(|l| l.starts_with(&prefix)).collect();
        assert_eq!(found.len(), 1, "option {name} in {lines:?}");
        let words: Vec<&str> = found[0].split_whitespace().collect();
        let after = |key: &str| words.iter().position(|&w| w == key).and_then(|i| words.get(i + 1).copied());
        assert_eq!(after("type"), Some(kind), "{}", found[0]);
        assert_eq!(after("default"), Some(default), "{}", found[0]);
        if let Some((min, max)) = range {
            assert_eq!(after("min"), Some(min.to_string().as_str()), "{}", found[0]);
            assert_eq!(after("max"), Some(max.to_string().as_str()), "{}", found[0]);
        }
    }
    assert!(lines.contains(&"option name Clear Hash type button".to_string()), "{lines:?}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("option ")).count(), 20, "{lines:?}");
    assert!(
        lines.contains(&"option name Game type combo default quoridor var quoridor var quarto".to_string())
    );
    assert!(lines
        .contains(&"option name FourPlayerSearch type combo default brs var brs var paranoid".to_string()));
    assert_eq!(lines.last().map(String::as_str), Some("uciok"));
    engine.send("isready");
    assert_eq!(engine.read_until("readyok", QUICK), ["readyok"]);
    // Blanks around a command are ignored, and a blank line is ignored.
    engine.send("");
    engine.send("   \t ");
    engine.send("  isready  ");
    assert_eq!(engine.read_until("readyok", QUICK), ["readyok"]);
}

// 2 ------------------------------------------------------------------------

#[test]
fn go_movetime_from_the_start() {
    let mut engine = EngineProcess::start();
    let start = position(START_9X9);
    let sent = Instant::now();
    engine.send("go movetime 1000");
    let lines = engine.read_until("bestmove", Duration::from_secs(10));
    let took = engine.last_arrival() - sent;
    // Idle machine: ~1010 ms. Allow 2 s of slack for a loaded CI machine.
    assert!(ms(took) < 3000, "go movetime 1000 took {took:?}");
    assert!(ms(took) >= 500, "go movetime 1000 answered after {took:?}");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info")).collect();
    assert!(!infos.is_empty(), "no info lines: {lines:?}");
    let mut last_depth = 0;
    for info in infos.iter().filter(|l| !l.contains(" currmove ")) {
        let (depth, _) = check_info(info, &start);
        assert!(depth >= last_depth, "depth went down: {infos:?}");
        last_depth = depth;
    }
    assert_eq!(lines.len(), infos.len() + 1, "{lines:?}");
    check_bestmove(lines.last().unwrap(), &start);
    let after = engine.collect_for(Duration::from_millis(300));
    assert_eq!(bestmoves(&after), 0, "a second bestmove: {after:?}");
}

// 3 ------------------------------------------------------------------------

#[test]
fn isready_and_stop_during_go_infinite() {
    let mut engine = EngineProcess::start();
    let start = position(START_9X9);
    engine.send("position startpos");
    engine.send("go infinite");
    let before = engine.collect_for(Duration::from_millis(200));
    assert_eq!(bestmoves(&before), 0, "{before:?}");

    let sent = Instant::now();
    engine.send("isready");
    let lines = engine.read_until("readyok", QUICK);
    let readyok = engine.last_arrival() - sent;
    // Measured on an idle 2-core machine: well under 1 ms.
    assert!(ms(readyok) < 200, "readyok took {readyok:?}");
    assert_eq!(bestmoves(&lines), 0, "{lines:?}");

    let waiting = engine.collect_for(Duration::from_millis(600));
    assert_eq!(bestmoves(&waiting), 0, "bestmove during go infinite");

    let sent = Instant::now();
    engine.send("stop");
    let lines = engine.read_until("bestmove", QUICK);
    let stopped = engine.last_arrival() - sent;
    // Measured on an idle 2-core machine: about 1 ms.
    assert!(ms(stopped) < 200, "bestmove {stopped:?} after stop");
    check_bestmove(lines.last().unwrap(), &start);
    let after = engine.collect_for(Duration::from_millis(300));
    assert!(after.is_empty(), "output after bestmove: {after:?}");
    assert_eq!(engine.sync(), Vec::<String>::new());
}

// 4 ------------------------------------------------------------------------

#[test]
fn go_ponder_waits_for_ponderhit_then_keeps_the_clock() {
    let mut engine = EngineProcess::start();
    let pos = position("quoridor 9x9 pawns=e2,e8 hand=10,10 walls=- turn=1 jumps=single");
    engine.send("position startpos moves e2 e8");
    // A generous clock: about 333 ms for the move, never more than 2 s.
    engine.send("go ponder wtime 10000 btime 10000");
    let waiting = engine.collect_for(Duration::from_millis(1000));
    assert_eq!(bestmoves(&waiting), 0, "bestmove while pondering: {waiting:?}");
    let sent = Instant::now();
    engine.send("ponderhit");
    let lines = engine.read_until("bestmove", Duration::from_secs(10));
    let took = engine.last_arrival() - sent;
    assert!(ms(took) < 3000, "bestmove {took:?} after ponderhit");
    check_bestmove(lines.last().unwrap(), &pos);
    let after = engine.collect_for(Duration::from_millis(200));
    assert_eq!(bestmoves(&after), 0, "{after:?}");
}

#[test]
fn go_ponder_with_a_short_clock_counts_it_from_ponderhit() {
    let mut engine = EngineProcess::start();
    let pos = position("quoridor 9x9 pawns=e2,e8 hand=10,10 walls=- turn=1 jumps=single");
    engine.send("position startpos moves e2 e8");
    // The clock would have run out long before ponderhit: still no bestmove.
    engine.send("go ponder wtime 300 btime 300");
    let waiting = engine.collect_for(Duration::from_millis(800));
    assert_eq!(bestmoves(&waiting), 0, "bestmove while pondering: {waiting:?}");
    let sent = Instant::now();
    engine.send("ponderhit");
    let lines = engine.read_until("bestmove", Duration::from_secs(10));
    let took = engine.last_arrival() - sent;
    // At most a fifth of 300 ms is to be spent.
    assert!(ms(took) < 1000, "bestmove {took:?} after ponderhit");
    check_bestmove(lines.last().unwrap(), &pos);
}

#[test]
fn go_ponder_then_stop() {
    let mut engine = EngineProcess::start();
    let pos = position("quoridor 9x9 pawns=e2,e8 hand=10,10 walls=- turn=1 jumps=single");
    engine.send("position startpos moves e2 e8");
    engine.send("go ponder wtime 5000 btime 5000 winc 100 binc 100");
    let waiting = engine.collect_for(Duration::from_millis(500));
    assert_eq!(bestmoves(&waiting), 0, "{waiting:?}");
    let sent = Instant::now();
    engine.send("stop");
    let lines = engine.read_until("bestmove", QUICK);
    let took = engine.last_arrival() - sent;
    assert!(ms(took) < 500, "bestmove {took:?} after stop");
    check_bestmove(lines.last().unwrap(), &pos);
    let after = engine.collect_for(Duration::from_millis(200));
    assert_eq!(bestmoves(&after), 0, "{after:?}");
}

#[test]
fn clocks_move_on_time_and_negative_clocks_count_as_zero() {
    let mut engine = EngineProcess::start();
    let start = position(START_9X9);
    // 1/30 of 3 s plus most of the increment: about 150 ms.
    let sent = Instant::now();
    engine.send("go wtime 3000 btime 3000 winc 50 binc 50");
    let lines = engine.read_until("bestmove", QUICK);
    let took = engine.last_arrival() - sent;
    assert!(ms(took) < 600, "move took {took:?} of a 3 s clock");
    check_bestmove(lines.last().unwrap(), &start);
    // A fallen flag: answer at once, and no error.
    let sent = Instant::now();
    engine.send("go wtime -100 btime 1000");
    let lines = engine.read_until("bestmove", QUICK);
    let took = engine.last_arrival() - sent;
    assert!(ms(took) < 1000, "move took {took:?} with a negative clock");
    assert_eq!(errors(&lines), 0, "{lines:?}");
    check_bestmove(lines.last().unwrap(), &start);
}

// 5 ------------------------------------------------------------------------

#[test]
fn bad_input_is_answered_with_one_error_and_changes_nothing() {
    let mut engine = EngineProcess::start();
    engine.send("setoption name Walls value 8");
    engine.send("position startpos moves e2 e8 e3h");
    let state = "quoridor 9x9 pawns=e2,e8 hand=7,8 walls=e3h turn=2 jumps=single";
    assert_eq!(engine.position_text(), state);

    let mut inputs: Vec<Vec<u8>> = [
        "frobnicate",
        "debug sideways",
        "setoption name Clear Hash value 1",
        "setoption name Hash value 0",
        "setoption name Hash value 16385",
        "setoption name Nope value 1",
        "setoption name BoardWidth value 16",
        "setoption name MultiJump value maybe",
        "setoption name Walls value 31",
        "setoption name Players value 3",
        "position fen garbage",
        "position fen quoridor 9x9 pawns=e1,e1 hand=10,10 walls=- turn=1",
        "position fen quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1 turn=2",
        "position fen quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1 colour=red",
        "position fen quoridor 9x9 pawns=e1,e9 hand=10,10 turn=1",
        "position fen quoridor 9x9 pawns=e1,j9 hand=10,10 walls=- turn=1",
        "position fen quoridor 9x9 pawns=e1,e9 hand=8,10 walls=e3h,f3h turn=1",
        "position fen quoridor 9x9 pawns=e1,e9 hand=8,10 walls=e3h,e3v turn=1",
        "position fen quoridor 9x9 pawns=e9,e1 hand=10,10 walls=- turn=1",
        "position startpos moves e2 e8 e4",
        "position startpos moves e2 e10",
        "position startpos moves e3h f3h",
        "position startpos moves e3h e3v",
        // Player 1 walks to e9 (move 15 wins); move 16 comes after the end.
        "position startpos moves e2 d9 e3 c9 e4 b9 e5 a9 e6 a8 e7 a7 e8 a6 e9 a5",
    ]
    .iter()
    .map(|line| format!("{line}\n").into_bytes())
    .collect();
    inputs.push(vec![0xff, 0xfe, b'\n']);
    inputs.push(b"isready\xff\n".to_vec());
    let mut long = vec![b'a'; 100_000];
    long.push(b'\n');
    inputs.push(long);
    let mut long_moves = b"position startpos moves".to_vec();
    while long_moves.len() < 100_000 {
        long_moves.extend_from_slice(b" e2 e8 e1 e9");
    }
    long_moves.extend_from_slice(b" zz\n");
    inputs.push(long_moves);

    for input in &inputs {
        let shown = String::from_utf8_lossy(&input[..input.len().min(80)]).to_string();
        engine.send_bytes(input);
        let lines = engine.sync();
        assert!(
            lines.len() == 1 && lines[0].starts_with("info string error: "),
            "input '{shown}': expected one error line, got {lines:?}"
        );
        // Input is quoted back at most 80 characters at a time.
        assert!(lines[0].chars().count() < 300, "input '{shown}': {} characters", lines[0].len());
        assert!(engine.is_alive(), "engine died on '{shown}'");
        assert_eq!(engine.position_text(), state, "after '{shown}'");
    }
    // The options kept their values: the start position is still 9x9 with 8
    // walls and single jumps.
    engine.send("position startpos");
    assert_eq!(engine.position_text(), "quoridor 9x9 pawns=e1,e9 hand=8,8 walls=- turn=1 jumps=single");
    // `stop` and `ponderhit` with nothing running are harmless and silent.
    engine.send("stop");
    engine.send("ponderhit");
    assert_eq!(engine.sync(), Vec::<String>::new());
    // None of the bad `go` lines started a search.
    let after = engine.collect_for(Duration::from_millis(300));
    assert!(after.is_empty(), "{after:?}");
    assert_eq!(bestmoves(&after), 0);
}

#[test]
fn position_error_names_the_move() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos moves e2 e10");
    let lines = engine.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("info string error: position: move 2 (e10): "), "{lines:?}");
    engine.send("position startpos moves e2 e8 e4");
    let lines = engine.sync();
    assert!(lines[0].starts_with("info string error: position: move 3 (e4): "), "{lines:?}");
}

// 6, 7 -----------------------------------------------------------------------

#[test]
fn end_of_input_exits() {
    let mut engine = EngineProcess::start();
    engine.send("isready");
    engine.read_until("readyok", QUICK);
    engine.close_stdin();
    let status = engine.wait_exit(Duration::from_secs(2));
    assert!(status.is_some_and(|s| s.success()), "status {status:?} after end of input");
}

#[test]
fn isready_just_before_end_of_input_is_still_answered() {
    // With no search running `readyok` waits for the worker (here a new
    // table and its clearing); the end of input must not swallow it.
    let mut engine = EngineProcess::start();
    engine.send("setoption name Hash value 64");
    engine.send("ucinewgame");
    engine.send("isready");
    engine.close_stdin();
    engine.read_until("readyok", Duration::from_secs(5));
    let status = engine.wait_exit(Duration::from_secs(5));
    assert!(status.is_some_and(|s| s.success()), "status {status:?} after end of input");
}

#[test]
fn end_of_input_during_go_infinite_prints_bestmove_and_exits() {
    let mut engine = EngineProcess::start();
    let start = position(START_9X9);
    engine.send("go infinite");
    engine.collect_for(Duration::from_millis(300));
    engine.close_stdin();
    let lines = engine.read_until("bestmove", Duration::from_secs(2));
    check_bestmove(lines.last().unwrap(), &start);
    let status = engine.wait_exit(Duration::from_secs(2));
    assert!(status.is_some_and(|s| s.success()), "status {status:?}");
}

#[test]
fn quit_exits_promptly() {
    let mut engine = EngineProcess::start();
    engine.send("isready");
    engine.read_until("readyok", QUICK);
    let sent = Instant::now();
    engine.send("quit");
    let status = engine.wait_exit(Duration::from_secs(2));
    assert!(status.is_some_and(|s| s.success()), "status {status:?}");
    // Idle machine: a few ms.
    assert!(ms(sent.elapsed()) < 1000, "quit took {:?}", sent.elapsed());
}

#[test]
fn quit_during_a_search_prints_its_bestmove() {
    let mut engine = EngineProcess::start();
    let start = position(START_9X9);
    engine.send("go infinite");
    engine.collect_for(Duration::from_millis(300));
    let sent = Instant::now();
    engine.send("quit");
    let lines = engine.read_until("bestmove", Duration::from_secs(2));
    check_bestmove(lines.last().unwrap(), &start);
    let status = engine.wait_exit(Duration::from_secs(2));
    assert!(status.is_some_and(|s| s.success()), "status {status:?}");
    assert!(ms(sent.elapsed()) < 1000, "quit took {:?}", sent.elapsed());
}

// 8 ------------------------------------------------------------------------

#[test]
fn perft_2_from_the_start() {
    let mut engine = EngineProcess::start();
    let start = position(START_9X9);
    engine.send("go perft 2");
    let lines = engine.read_until("Nodes searched:", Duration::from_secs(20));
    assert_eq!(lines.len(), 131 + 3, "{lines:?}");
    let mut sum = 0u64;
    let mut moves = std::collections::HashSet::new();
    for line in &lines[..131] {
        let (mv, count) = line.split_once(": ").unwrap_or_else(|| panic!("perft line '{line}'"));
        start.parse_move(mv).unwrap_or_else(|e| panic!("perft line '{line}': {e}"));
        assert!(moves.insert(mv.to_string()), "{mv} twice");
        sum += count.parse::<u64>().expect("a count");
    }
    assert_eq!(lines[131], "");
    assert!(lines[132].starts_with("info string perft time "), "{lines:?}");
    assert_eq!(lines[133], "Nodes searched: 16677");
    assert_eq!(sum, 16677);
    let after = engine.collect_for(Duration::from_millis(200));
    assert!(after.is_empty(), "output after perft: {after:?}");
}

// 9 ------------------------------------------------------------------------

#[test]
fn bestmove_none_when_the_game_is_over() {
    let mut engine = EngineProcess::start();
    engine.send("position fen quoridor 5x5 pawns=c5,a5 hand=0,0 walls=- turn=2");
    assert_eq!(engine.sync(), Vec::<String>::new());
    engine.send("go depth 3");
    let lines = engine.read_until("bestmove", QUICK);
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    let sent = Instant::now();
    engine.send("go movetime 5000");
    let lines = engine.read_until("bestmove", QUICK);
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    assert!(ms(sent.elapsed()) < 1000, "took {:?}", sent.elapsed());

    engine.send("go infinite");
    let waiting = engine.collect_for(Duration::from_millis(300));
    assert_eq!(bestmoves(&waiting), 0, "go infinite answered before stop");
    engine.send("stop");
    let lines = engine.read_until("bestmove", QUICK);
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    assert!(engine.collect_for(Duration::from_millis(200)).is_empty());

    // Threefold repetition in the move history is over too.
    engine.send("position startpos moves e2 e8 e1 e9 e2 e8 e1 e9");
    engine.send("go depth 2");
    let lines = engine.read_until("bestmove", QUICK);
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    // Twice is not yet a draw.
    engine.send("position startpos moves e2 e8 e1 e9");
    engine.send("go depth 2");
    let lines = engine.read_until("bestmove", QUICK);
    check_bestmove(lines.last().unwrap(), &position(START_9X9));
}

// 10 -----------------------------------------------------------------------

#[test]
fn go_nodes_is_reproducible() {
    let mut engine = EngineProcess::start();
    let start = position(START_9X9);
    let mut results = Vec::new();
    for _ in 0..2 {
        engine.send("ucinewgame");
        engine.send("position startpos");
        engine.send("go nodes 20000");
        let lines = engine.read_until("bestmove", Duration::from_secs(20));
        let best = lines.last().unwrap().clone();
        check_bestmove(&best, &start);
        let last_info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap_or_else(|| panic!("no info line: {lines:?}"));
        let (_, nodes) = check_info(last_info, &start);
        assert!(nodes <= 20000, "{last_info}");
        results.push((best, nodes));
    }
    assert_eq!(results[0], results[1]);
}

// 11 -----------------------------------------------------------------------

#[test]
fn variants_through_options() {
    let mut engine = EngineProcess::start();
    engine.send("setoption name BoardWidth value 5");
    engine.send("setoption name BoardHeight value 7");
    engine.send("setoption name Walls value 3");
    assert_eq!(engine.sync(), Vec::<String>::new());
    assert_eq!(engine.position_text(), "quoridor 5x7 pawns=c1,c7 hand=3,3 walls=- turn=1 jumps=single");
    // Four players on a 5x7 board: not playable; the position stays.
    engine.send("setoption name Players value 4");
    assert_eq!(engine.sync(), Vec::<String>::new());
    assert_eq!(engine.position_text(), "quoridor 5x7 pawns=c1,c7 hand=3,3 walls=- turn=1 jumps=single");
    engine.send("position startpos");
    let lines = engine.sync();
    assert_eq!(errors(&lines), 1, "{lines:?}");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(engine.position_text(), "quoridor 5x7 pawns=c1,c7 hand=3,3 walls=- turn=1 jumps=single");
    // Names are case-insensitive; a square board makes the game playable.
    engine.send("setoption name boardheight value 5");
    assert_eq!(engine.sync(), Vec::<String>::new());
    assert_eq!(
        engine.position_text(),
        "quoridor 5x5 pawns=c1,a3,c5,e3 hand=3,3,3,3 walls=- turn=1 jumps=single"
    );

    engine.send("setoption name BoardWidth value 9");
    engine.send("setoption name BoardHeight value 9");
    engine.send("setoption name Walls value 5");
    engine.send("position startpos");
    assert_eq!(engine.sync(), Vec::<String>::new());
    let text = engine.position_text();
    assert_eq!(text, "quoridor 9x9 pawns=e1,a5,e9,i5 hand=5,5,5,5 walls=- turn=1 jumps=single");
    engine.send("go depth 2");
    let lines = engine.read_until("bestmove", Duration::from_secs(20));
    check_bestmove(lines.last().unwrap(), &position(&text));

    engine.send("setoption name MultiJump value true");
    assert_eq!(engine.sync(), Vec::<String>::new());
    assert_eq!(
        engine.position_text(),
        "quoridor 9x9 pawns=e1,a5,e9,i5 hand=5,5,5,5 walls=- turn=1 jumps=multi"
    );
}

#[test]
fn even_widths_through_options() {
    let mut engine = EngineProcess::start();
    // Even widths: the pawns start on the column just left of the centre.
    engine.send("setoption name BoardWidth value 8");
    assert_eq!(engine.sync(), Vec::<String>::new());
    assert_eq!(engine.position_text(), "quoridor 8x9 pawns=d1,d9 hand=10,10 walls=- turn=1 jumps=single");
    engine.send("setoption name BoardWidth value 2");
    engine.send("setoption name BoardHeight value 5");
    engine.send("setoption name Walls value 2");
    assert_eq!(engine.sync(), Vec::<String>::new());
    assert_eq!(engine.position_text(), "quoridor 2x5 pawns=a1,a5 hand=2,2 walls=- turn=1 jumps=single");
    engine.send("position startpos moves a1v a4");
    assert_eq!(engine.position_text(), "quoridor 2x5 pawns=a1,a4 hand=1,2 walls=a1v turn=1 jumps=single");
    engine.send("go depth 3");
    let lines = engine.read_until("bestmove", Duration::from_secs(20));
    check_bestmove(lines.last().unwrap(), &position(&engine.position_text()));
    // Four players need an odd square board: 4x4 is refused with the reason.
    engine.send("setoption name BoardWidth value 4");
    engine.send("setoption name BoardHeight value 4");
    engine.send("setoption name Players value 4");
    assert_eq!(engine.sync(), Vec::<String>::new());
    engine.send("position startpos");
    let lines = engine.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("four players need a square board with odd sides, not 4x4"), "{lines:?}");
    engine.send("setoption name Players value 2");
    assert_eq!(engine.sync(), Vec::<String>::new());
    assert_eq!(engine.position_text(), "quoridor 4x4 pawns=b1,b4 hand=2,2 walls=- turn=1 jumps=single");
}

#[test]
fn position_text_round_trip() {
    let mut engine = EngineProcess::start();
    let texts = [
        START_9X9,
        "quoridor 9x9 pawns=f4,c6 hand=4,5 walls=b2h,g3v,b4v,c4h,e4h,b5h,d5h,f5h,g5v,h6h,e7h turn=1 jumps=single",
        "quoridor 9x9 pawns=e1,a5,e9,i5 hand=5,5,5,5 walls=- turn=1 jumps=multi",
        "quoridor 9x9 pawns=e2,b5,e8,h5 hand=4,3,5,5 walls=c3h,e6v turn=3 jumps=multi",
        "quoridor 5x7 pawns=c2,c6 hand=2,3 walls=a2h,c4v turn=2 jumps=single",
        "quoridor 3x15 pawns=b1,b15 hand=0,1 walls=a7h turn=1 jumps=single",
        "quoridor 8x8 pawns=e3,d6 hand=7,6 walls=a1h,d4v,g7h turn=1 jumps=single",
        "quoridor 2x9 pawns=b4,a4 hand=2,3 walls=a2v,a6v turn=2 jumps=multi",
    ];
    for text in texts {
        assert_eq!(position(text).to_text(), text, "library round trip");
        engine.send(&format!("position fen {text}"));
        assert_eq!(engine.position_text(), text);
    }
    // Fields in any order, jumps left out: printed in order, walls sorted.
    engine.send("position fen quoridor 9x9 turn=2 walls=e7h,b2h hand=9,9 pawns=e2,e9");
    assert_eq!(engine.position_text(), "quoridor 9x9 pawns=e2,e9 hand=9,9 walls=b2h,e7h turn=2 jumps=single");
    // The text, not the MultiJump option, decides the jump rule.
    engine.send("setoption name MultiJump value true");
    engine.send(&format!("position fen {START_9X9}"));
    assert_eq!(engine.position_text(), START_9X9);
    engine.send("position fen quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1");
    assert_eq!(engine.position_text(), START_9X9);
}

// 12 -----------------------------------------------------------------------

/// Tracks repetitions the way protocol.md counts them.
struct Referee {
    pos: Quoridor,
    moves: Vec<String>,
    since_irreversible: Vec<u64>,
}

impl Referee {
    fn new(pos: Quoridor) -> Referee {
        let hash = pos.hash();
        Referee { pos, moves: Vec::new(), since_irreversible: vec![hash] }
    }

    fn play(&mut self, text: &str) {
        let mv =
            self.pos.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e} in {}", self.pos.to_text()));
        if self.pos.is_irreversible(mv) {
            self.since_irreversible.clear();
        }
        self.pos.make_move(mv);
        self.since_irreversible.push(self.pos.hash());
        self.moves.push(text.to_string());
    }

    fn repeated_three_times(&self) -> bool {
        let hash = self.pos.hash();
        self.since_irreversible.iter().filter(|&&h| h == hash).count() >= 3
    }

    fn over(&self) -> bool {
        self.pos.outcome().is_some() || self.repeated_three_times()
    }

    fn position_command(&self) -> String {
        if self.moves.is_empty() {
            "position startpos".into()
        } else {
            format!("position startpos moves {}", self.moves.join(" "))
        }
    }
}

#[test]
fn engine_plays_itself_on_the_clock() {
    const PLY_CAP: usize = 300;
    const INCREMENT: i64 = 20;
    let mut engine = EngineProcess::start();
    engine.send("ucinewgame");
    let mut referee = Referee::new(position(START_9X9));
    let mut clocks: [i64; 2] = [2000, 2000];
    let mut longest = Duration::ZERO;
    while !referee.over() && referee.moves.len() < PLY_CAP {
        let side = referee.pos.side_to_move();
        engine.send(&referee.position_command());
        let sent = Instant::now();
        engine.send(&format!("go wtime {} btime {} winc {INCREMENT} binc {INCREMENT}", clocks[0], clocks[1]));
        let lines = engine.read_until("bestmove", Duration::from_secs(10));
        let used = engine.last_arrival() - sent;
        longest = longest.max(used);
        clocks[side] -= used.as_millis() as i64;
        assert!(
            clocks[side] > 0,
            "player {} lost on time at ply {} (clocks {clocks:?})",
            side + 1,
            referee.moves.len()
        );
        clocks[side] += INCREMENT;
        assert_eq!(errors(&lines), 0, "{lines:?}");
        let best = check_bestmove(lines.last().unwrap(), &referee.pos);
        referee.play(&best);
    }
    // A win, or a draw by threefold repetition (about one self-play game in
    // a hundred: each side may find waiting better than walking into the
    // other's walls); only the ply cap would mean the game went nowhere.
    assert!(
        referee.pos.outcome().is_some() || referee.repeated_three_times(),
        "no result in {PLY_CAP} plies: {}",
        referee.moves.join(" ")
    );
    eprintln!(
        "self-play: {} plies, outcome {:?}, repetition {}, clocks {clocks:?}, longest move {longest:?}: {}",
        referee.moves.len(),
        referee.pos.outcome(),
        referee.repeated_three_times(),
        referee.moves.join(" ")
    );
    // The engine agrees about the final position and that it is over.
    engine.send(&referee.position_command());
    assert_eq!(engine.position_text(), referee.pos.to_text());
    if referee.over() {
        engine.send("go movetime 100");
        let lines = engine.read_until("bestmove", QUICK);
        assert_eq!(lines.last().unwrap(), "bestmove (none)");
    }
    assert!(ms(longest) < 1000, "longest move {longest:?}, clocks {clocks:?}");
}

#[test]
fn four_players_play_a_short_game() {
    for search in ["brs", "paranoid"] {
        four_player_game(search);
    }
}

fn four_player_game(search: &str) {
    const PLY_CAP: usize = 200;
    let mut engine = EngineProcess::start();
    let settings = [
        ("Players", "4"),
        ("BoardWidth", "5"),
        ("BoardHeight", "5"),
        ("Walls", "2"),
        ("FourPlayerSearch", search),
    ];
    for (name, value) in settings {
        engine.send(&format!("setoption name {name} value {value}"));
    }
    engine.send("ucinewgame");
    let start = Quoridor::new(&Variant { width: 5, height: 5, players: 4, walls: 2, multi_jump: false })
        .expect("a playable variant");
    assert_eq!(engine.position_text(), start.to_text());
    let mut referee = Referee::new(start);
    let mut movers = HashMap::new();
    while !referee.over() && referee.moves.len() < PLY_CAP {
        *movers.entry(referee.pos.side_to_move()).or_insert(0) += 1;
        engine.send(&referee.position_command());
        engine.send("go depth 2");
        let lines = engine.read_until("bestmove", Duration::from_secs(20));
        assert_eq!(errors(&lines), 0, "{lines:?}");
        let best = check_bestmove(lines.last().unwrap(), &referee.pos);
        referee.play(&best);
    }
    eprintln!(
        "four players, {search}: {} plies, outcome {:?}, repetition {}",
        referee.moves.len(),
        referee.pos.outcome(),
        referee.repeated_three_times()
    );
    assert_eq!(movers.len(), 4, "every seat moved: {movers:?}");
    engine.send(&referee.position_command());
    assert_eq!(engine.position_text(), referee.pos.to_text());
    if referee.over() {
        engine.send("go depth 2");
        let lines = engine.read_until("bestmove", QUICK);
        assert_eq!(lines.last().unwrap(), "bestmove (none)");
    }
}

// 13, 14 ---------------------------------------------------------------------

#[test]
fn exactly_one_bestmove_per_go() {
    let mut engine = EngineProcess::start();
    let start = position(START_9X9);
    let mut all = Vec::new();
    for _ in 0..6 {
        engine.send("position startpos");
        engine.send("go depth 2");
        let lines = engine.read_until("bestmove", QUICK);
        check_bestmove(lines.last().unwrap(), &start);
        all.extend(lines);
    }
    all.extend(engine.sync());
    all.extend(engine.collect_for(Duration::from_millis(300)));
    assert_eq!(bestmoves(&all), 6, "{all:?}");
}

#[test]
fn a_second_go_during_go_infinite_waits_for_stop() {
    let mut engine = EngineProcess::start();
    let start = position(START_9X9);
    engine.send("go infinite");
    engine.collect_for(Duration::from_millis(200));
    engine.send("go depth 1");
    let lines = engine.sync();
    assert_eq!(errors(&lines), 0, "{lines:?}");
    assert_eq!(bestmoves(&lines), 0, "{lines:?}");
    let waiting = engine.collect_for(Duration::from_millis(300));
    assert_eq!(bestmoves(&waiting), 0, "{waiting:?}");
    // `stop` ends the running search and the one waiting behind it.
    engine.send("stop");
    let lines = engine.read_until("bestmove", QUICK);
    check_bestmove(lines.last().unwrap(), &start);
    let lines = engine.read_until("bestmove", QUICK);
    check_bestmove(lines.last().unwrap(), &start);
    let after = engine.collect_for(Duration::from_millis(300));
    assert_eq!(bestmoves(&after), 0, "{after:?}");
    // The engine takes a new go afterwards.
    engine.send("go depth 1");
    let lines = engine.read_until("bestmove", QUICK);
    check_bestmove(lines.last().unwrap(), &start);
}

#[test]
fn stop_position_go_in_one_burst_answers_each_go_on_its_own_position() {
    let mut engine = EngineProcess::start();
    engine.send("go infinite");
    engine.collect_for(Duration::from_millis(100));
    engine.send("stop");
    engine.send("position startpos moves e2");
    engine.send("go depth 2");
    let first = engine.read_until("bestmove", QUICK);
    check_bestmove(first.last().unwrap(), &position(START_9X9));
    let second = engine.read_until("bestmove", QUICK);
    let mut after_e2 = position(START_9X9);
    let mv = after_e2.parse_move("e2").unwrap();
    after_e2.make_move(mv);
    check_bestmove(second.last().unwrap(), &after_e2);
    let rest = engine.collect_for(Duration::from_millis(300));
    assert_eq!(bestmoves(&rest), 0, "{rest:?}");
}

#[test]
fn a_go_behind_a_finite_search_waits_its_turn() {
    let mut engine = EngineProcess::start();
    engine.send("go depth 3");
    engine.send("go depth 2");
    let mut lines = engine.read_until("bestmove", QUICK);
    lines.extend(engine.read_until("bestmove", QUICK));
    lines.extend(engine.collect_for(Duration::from_millis(300)));
    assert_eq!(bestmoves(&lines), 2, "{lines:?}");
    assert_eq!(errors(&lines), 0, "{lines:?}");
}

/// `readyok` answers `isready` before anything sent after it is answered.
#[test]
fn readyok_comes_before_the_answers_to_later_lines() {
    let mut engine = EngineProcess::start();
    for _ in 0..20 {
        engine.send("isready");
        engine.send("frobnicate");
        let lines = engine.read_until("info string error", QUICK);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(lines[0], "readyok", "{lines:?}");
    }
    engine.send("setoption name Hash value 32");
    engine.send("isready");
    engine.send("d");
    let lines = engine.read_until("Key:", QUICK);
    assert_eq!(lines.first().map(String::as_str), Some("readyok"), "{lines:?}");
}

/// A `setoption` sent while a `go` waits its turn is for the `go`s sent
/// after it, not for the one already waiting.
#[test]
fn a_waiting_go_keeps_the_options_it_was_sent_with() {
    let mut engine = EngineProcess::start();
    engine.send("go depth 5");
    engine.send("go depth 2");
    engine.send("setoption name MultiPV value 3");
    engine.send("go depth 2");
    let widest = |lines: &[String]| {
        lines.iter().filter_map(|line| field_of(line, "multipv")?.parse::<u32>().ok()).max()
    };
    let first = engine.read_until("bestmove", QUICK);
    let second = engine.read_until("bestmove", QUICK);
    let third = engine.read_until("bestmove", QUICK);
    assert_eq!(widest(&first), Some(1), "{first:?}");
    assert_eq!(widest(&second), Some(1), "{second:?}");
    assert_eq!(widest(&third), Some(3), "{third:?}");
}

// Quarto --------------------------------------------------------------------

fn quarto(text: &str) -> Quarto {
    Quarto::from_text(text).unwrap_or_else(|e| panic!("bad quarto text '{text}': {e}"))
}

/// Checks an `info depth ...` line of a Quarto search: the fields of
/// protocol.md in order and a legal pv. Returns the score words.
fn check_quarto_info(line: &str, pos: &Quarto) -> (String, i64) {
    let words: Vec<&str> =
        line.split_whitespace().filter(|w| !matches!(*w, "lowerbound" | "upperbound")).collect();
    let keys = [
        (1, "depth"),
        (3, "seldepth"),
        (5, "multipv"),
        (10, "nodes"),
        (12, "nps"),
        (14, "time"),
        (16, "hashfull"),
    ];
    for (at, key) in keys {
        assert_eq!(words.get(at), Some(&key), "field {key} in '{line}'");
        assert!(
            words.get(at + 1).and_then(|w| w.parse::<u64>().ok()).is_some(),
            "value of {key} in '{line}'"
        );
    }
    let number = |at: usize| words.get(at + 1).and_then(|w| w.parse::<u64>().ok()).unwrap_or_default();
    assert!(number(3) >= number(1), "seldepth below depth in '{line}'");
    assert_eq!(words.get(7), Some(&"score"), "{line}");
    let kind = words.get(8).copied().unwrap_or_default().to_string();
    assert!(kind == "cp" || kind == "mate", "score kind in '{line}'");
    let value =
        words.get(9).and_then(|w| w.parse::<i64>().ok()).unwrap_or_else(|| panic!("score in '{line}'"));
    assert_eq!(words.get(18), Some(&"pv"), "pv in '{line}'");
    let mut line_pos = pos.clone();
    for text in &words[19..] {
        match line_pos.parse_move(text) {
            Ok(mv) => line_pos.make_move(mv),
            Err(e) => panic!("pv of '{line}': {e}"),
        }
    }
    (kind, value)
}

/// The move of a `bestmove` line, checked legal in `pos`.
fn check_quarto_bestmove(line: &str, pos: &Quarto) -> QuartoMove {
    let (best, _) = parse_bestmove(line);
    pos.parse_move(&best).unwrap_or_else(|e| panic!("'{line}': {e} in {}", pos.to_text()))
}

fn start_quarto() -> EngineProcess {
    let mut engine = EngineProcess::start();
    engine.send("setoption name Game value quarto");
    assert_eq!(engine.sync(), Vec::<String>::new());
    engine
}

#[test]
fn quarto_go_movetime_plays_a_full_turn() {
    let mut engine = start_quarto();
    engine.send("position startpos moves 7 b3a");
    let text = "quarto 4x4 level=1 board=..../.7../..../.... hand=a turn=1";
    engine.send("d");
    let shown = engine.read_until("Key:", QUICK);
    assert!(shown.contains(&format!("Position: {text}")), "{shown:?}");
    let pos = quarto(text);
    let sent = Instant::now();
    engine.send("go movetime 1000");
    let lines = engine.read_until("bestmove", Duration::from_secs(10));
    let took = engine.last_arrival() - sent;
    // Idle machine: about 1 s (or less if the search proves the result).
    assert!(ms(took) < 3000, "go movetime 1000 took {took:?}");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(!infos.is_empty(), "no info lines: {lines:?}");
    for info in infos.into_iter().filter(|l| !l.contains(" currmove ")) {
        check_quarto_info(info, &pos);
    }
    let best = check_quarto_bestmove(lines.last().unwrap(), &pos);
    assert!(best.square().is_some() && best.piece().is_some(), "not a full turn: {lines:?}");
    let (name, _) = parse_bestmove(lines.last().unwrap());
    assert_eq!(name.len(), 3, "square and piece: {name}");
    assert_eq!(bestmoves(&engine.collect_for(Duration::from_millis(300))), 0);
}

#[test]
fn quarto_position_fen_round_trip() {
    let mut engine = start_quarto();
    assert_eq!(engine.position_text(), "quarto 4x4 level=1 board=..../..../..../.... hand=- turn=1");
    let texts = [
        "quarto 4x4 level=1 board=..../..../..../.... hand=- turn=1",
        "quarto 4x4 level=1 board=..../..../..../.... hand=7 turn=2",
        "quarto 4x4 level=2 board=.8../..../b60./2... hand=e turn=1",
        "quarto 4x4 level=3 board=1a../7e../9.3./...8 hand=0 turn=1",
        "quarto 4x4 level=4 board=.3b./...2/ce0d/59.. hand=1 turn=1",
        "quarto 4x4 level=1 board=d723/e8f4/.51c/a06b hand=9 turn=1",
        "quarto 3x3 level=1 board=365/.1./... hand=0 turn=2",
        // Finished: player 1 completed the a1-d1 row of dark pieces.
        "quarto 4x4 level=1 board=..../..../..../1357 hand=- turn=2",
    ];
    for text in texts {
        assert_eq!(quarto(text).to_text(), text, "library round trip");
        engine.send(&format!("position fen {text}"));
        assert_eq!(engine.sync(), Vec::<String>::new(), "{text}");
        assert_eq!(engine.position_text(), text);
    }
    engine.send("d");
    let shown = engine.read_until("Key:", QUICK);
    assert!(shown.contains(&"Result: player 1 won".to_string()), "{shown:?}");
    engine.send("go depth 3");
    assert_eq!(engine.read_until("bestmove", QUICK).last().unwrap(), "bestmove (none)");
    // Refused texts leave the position as it was.
    let last = texts[texts.len() - 1];
    for bad in [
        "quarto 4x4 level=1 board=..../..../..../.... hand=- turn=2",
        "quarto 4x4 level=5 board=..../..../..../.... hand=- turn=1",
        "quarto 3x3 level=2 board=.../.../... hand=- turn=1",
        "quarto 4x4 level=1 board=..../..../..../...7 hand=7 turn=1",
        "quarto 4x4 level=1 board=..../..../..../...7 hand=- turn=1",
        "quarto 4x4 level=1 board=..../..../..../...g hand=1 turn=1",
        "quarto 4x4 level=1 board=..../..../..../1357 hand=2 turn=1",
    ] {
        engine.send(&format!("position fen {bad}"));
        let lines = engine.sync();
        assert_eq!(errors(&lines), 1, "{bad}: {lines:?}");
        assert_eq!(engine.position_text(), last, "{bad}");
    }
}

#[test]
fn quarto_3x3_go_infinite_finds_the_forced_result() {
    let mut engine = start_quarto();
    engine.send("setoption name QuartoBoard value 3x3");
    engine.send("position startpos");
    assert_eq!(engine.sync(), Vec::<String>::new());
    let start = quarto("quarto 3x3 level=1 board=.../.../... hand=- turn=1");
    assert_eq!(engine.position_text(), start.to_text());
    let sent = Instant::now();
    engine.send("go infinite");
    // Measured on an idle machine: about 1 ms.
    let mate = engine
        .expect_line(|l| l.starts_with("info depth") && l.contains(" score mate "), Duration::from_secs(2))
        .unwrap_or_else(|seen| panic!("no mate score within 2 s: {seen:?}\n{}", engine.dump()));
    println!("mate line after {:?}: {mate}", sent.elapsed());
    let (kind, value) = check_quarto_info(&mate, &start);
    assert_eq!(kind, "mate");
    assert!(value < 0, "player 1 gives first and loses: {mate}");
    let waiting = engine.collect_for(Duration::from_millis(300));
    assert_eq!(bestmoves(&waiting), 0, "bestmove before stop: {waiting:?}");
    engine.send("stop");
    let lines = engine.read_until("bestmove", QUICK);
    let best = check_quarto_bestmove(lines.last().unwrap(), &start);
    assert!(best.square().is_none() && best.piece().is_some(), "the first turn only gives: {lines:?}");
}

#[test]
fn quarto_proven_draw_is_reported() {
    let mut engine = start_quarto();
    // Four empty squares and no piece can complete a line anywhere.
    let text = "quarto 4x4 level=1 board=a973/..84/1d.e/f60. hand=b turn=2";
    engine.send(&format!("position fen {text}"));
    engine.send("go depth 10");
    let lines = engine.read_until("bestmove", QUICK);
    assert!(lines.contains(&"info string proven draw".to_string()), "{lines:?}");
    let at = lines.iter().position(|l| l == "info string proven draw").unwrap();
    assert!(at > 0 && lines[at - 1].contains(" score cp 0 "), "{lines:?}");
    check_quarto_bestmove(lines.last().unwrap(), &quarto(text));
}

#[test]
fn quarto_level_2_is_refused_on_the_3x3_board() {
    let mut engine = start_quarto();
    engine.send("setoption name QuartoBoard value 3x3");
    assert_eq!(engine.sync(), Vec::<String>::new());
    let text = "quarto 3x3 level=1 board=.../.../... hand=- turn=1";
    assert_eq!(engine.position_text(), text);
    engine.send("setoption name QuartoLevel value 2");
    let lines = engine.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("info string error:"), "{lines:?}");
    engine.send("position startpos");
    assert_eq!(engine.sync(), Vec::<String>::new());
    assert_eq!(engine.position_text(), text);
    // Back on 4x4 the level is accepted.
    engine.send("setoption name QuartoBoard value 4x4");
    engine.send("setoption name QuartoLevel value 3");
    assert_eq!(engine.sync(), Vec::<String>::new());
    assert_eq!(engine.position_text(), "quarto 4x4 level=3 board=..../..../..../.... hand=- turn=1");
}

#[test]
fn quarto_perft_from_the_start() {
    let mut engine = start_quarto();
    engine.send("position startpos");
    engine.send("go perft 3");
    let lines = engine.read_until("Nodes searched:", Duration::from_secs(20));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 806400", "{lines:?}");
    // One line per first give, each 15 squares * 15 gives * 14 squares * 14 gives.
    let divide: Vec<&String> = lines.iter().filter(|l| l.contains(": ") && !l.starts_with("info")).collect();
    let divide: Vec<&String> = divide.into_iter().filter(|l| !l.starts_with("Nodes")).collect();
    assert_eq!(divide.len(), 16, "{lines:?}");
    for line in divide {
        let (give, count) = line.split_once(": ").unwrap();
        assert!(give.len() == 1 && give.chars().all(|c| c.is_ascii_hexdigit()), "{line}");
        assert_eq!(count, "50400", "{line}");
    }
}

#[test]
fn quarto_illegal_moves_leave_the_position_unchanged() {
    let mut engine = start_quarto();
    engine.send("position startpos moves 7 b3a");
    assert_eq!(engine.sync(), Vec::<String>::new());
    let text = "quarto 4x4 level=1 board=..../.7../..../.... hand=a turn=1";
    assert_eq!(engine.position_text(), text);
    for bad in [
        "b37",       // the first turn only gives
        "7 b3",      // a placement that does not win must give a piece
        "7 b37",     // piece 7 is the one being placed
        "7 b3a 7",   // only the first turn gives without placing
        "7 b3a b3c", // b3 is taken
        "7 b3a c4a", // piece a is the one in hand
        "7 b3a c47", // piece 7 is on the board
        "7 z9a",     // no such square
        "7 b3g",     // no such piece
        "g",         // no such piece
        "7 7",       // a give where a placement is due
    ] {
        engine.send(&format!("position startpos moves {bad}"));
        let lines = engine.sync();
        assert_eq!(errors(&lines), 1, "{bad}: {lines:?}");
        assert!(lines[0].starts_with("info string error: position: move "), "{bad}: {lines:?}");
        assert_eq!(engine.position_text(), text, "{bad}");
    }
    // A move after a win is refused too; the winning placement may name a piece.
    engine.send("position fen quarto 4x4 level=1 board=..../..../..../135. hand=7 turn=1 moves d12");
    assert_eq!(engine.sync(), Vec::<String>::new());
    let won = "quarto 4x4 level=1 board=..../..../..../1357 hand=- turn=2";
    assert_eq!(engine.position_text(), won);
    engine.send("position fen quarto 4x4 level=1 board=..../..../..../135. hand=7 turn=1 moves d1 2");
    let lines = engine.sync();
    assert_eq!(errors(&lines), 1, "{lines:?}");
    assert_eq!(engine.position_text(), won);
}

/// The transposition table survives a change of rule level; the values it
/// holds for one level must not leak into the other (same board, same keys).
#[test]
fn quarto_values_do_not_leak_between_levels() {
    let mut engine = start_quarto();
    let board = "board=3c8b/..60/75../a2.. hand=9 turn=2";
    engine.send(&format!("position fen quarto 4x4 level=1 {board}"));
    engine.send("go depth 7");
    engine.read_until("bestmove", QUICK);
    let level2 = format!("quarto 4x4 level=2 {board}");
    engine.send(&format!("position fen {level2}"));
    engine.send("go depth 7");
    let lines = engine.read_until("bestmove", QUICK);
    let last = lines.iter().rev().find(|l| l.starts_with("info depth")).expect("an info line");
    // tests/quarto.rs: the reference minimax says the side to move wins with
    // its second move; a fresh engine says so too.
    let (kind, value) = check_quarto_info(last, &quarto(&level2));
    assert_eq!((kind.as_str(), value), ("mate", 2), "{lines:?}");
}

#[test]
fn uci_elo_picks_the_level_only_while_strength_is_limited() {
    let start = position(START_9X9);
    let mut engine = EngineProcess::start();
    engine.send("uci");
    let lines = engine.read_until("uciok", QUICK);
    assert!(lines.iter().any(|l| l == "option name UCI_LimitStrength type check default false"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("option name UCI_Elo type spin default 1500 min 0 max ")));
    // UCI_Elo alone changes nothing: full strength searches.
    engine.send("setoption name UCI_Elo value 0");
    engine.send("go depth 2");
    let lines = engine.read_until("bestmove", QUICK);
    assert!(lines.iter().any(|l| l.starts_with("info depth")), "{lines:?}");
    check_bestmove(lines.last().expect("bestmove"), &start);
    // Limited to Elo 0: level 1, the random mover.
    engine.send("setoption name UCI_LimitStrength value true");
    engine.send("go depth 2");
    let lines = engine.read_until("bestmove", QUICK);
    assert!(lines.iter().any(|l| l.contains("level 1 plays by script")), "{lines:?}");
    // Elo 2100 is nearest to level 3's 2081: scripted too.
    engine.send("setoption name UCI_Elo value 2100");
    engine.send("go depth 2");
    let lines = engine.read_until("bestmove", QUICK);
    assert!(lines.iter().any(|l| l.contains("level 3 plays by script")), "{lines:?}");
    // Out of range: refused, the last value kept.
    engine.send("setoption name UCI_Elo value 4000");
    let lines = engine.read_until("info string error", QUICK);
    assert!(lines.last().is_some_and(|l| l.contains("UCI_Elo")), "{lines:?}");
    engine.send("go depth 2");
    let lines = engine.read_until("bestmove", QUICK);
    assert!(lines.iter().any(|l| l.contains("level 3 plays by script")), "{lines:?}");
    // Unlimited again: Level (10) plays.
    engine.send("setoption name UCI_LimitStrength value false");
    engine.send("go depth 2");
    let lines = engine.read_until("bestmove", QUICK);
    assert!(!lines.iter().any(|l| l.contains("plays by script")), "{lines:?}");
}

#[test]
fn scripted_levels_answer_at_once_and_repeat_for_a_seed() {
    let start = position(START_9X9);
    let mut first_moves = Vec::new();
    for seed in [1, 1, 2, 3, 4, 5] {
        let mut engine = EngineProcess::start();
        engine.send("setoption name Level value 1");
        engine.send(&format!("setoption name Seed value {seed}"));
        engine.send("go infinite");
        let lines = engine.read_until("info string", QUICK);
        assert!(lines.last().is_some_and(|l| l.contains("level 1 plays by script")), "{lines:?}");
        engine.send("stop");
        let lines = engine.read_until("bestmove", QUICK);
        first_moves.push(check_bestmove(lines.last().unwrap(), &start));
    }
    assert_eq!(first_moves[0], first_moves[1], "same seed, same move");
    assert!(first_moves[1..].windows(2).any(|w| w[0] != w[1]), "seeds change the move: {first_moves:?}");
    let mut engine = EngineProcess::start();
    for level in [2, 3] {
        engine.send(&format!("setoption name Level value {level}"));
        engine.send("go depth 5");
        let lines = engine.read_until("bestmove", QUICK);
        check_bestmove(lines.last().unwrap(), &start);
    }
}

#[test]
fn a_ponderhit_for_a_queued_ponder_search_is_kept() {
    let mut engine = EngineProcess::start();
    engine.send("go depth 30");
    engine.collect_for(Duration::from_millis(200));
    engine.send("stop");
    engine.send("go ponder wtime 1000 btime 1000");
    engine.send("ponderhit");
    let first = engine.read_until("bestmove", QUICK);
    check_bestmove(first.last().unwrap(), &position(START_9X9));
    // The second answers on its clock, without a stop.
    let second = engine.read_until("bestmove", Duration::from_secs(5));
    check_bestmove(second.last().unwrap(), &position(START_9X9));
}

/// A perft that `stop` or `quit` ends early gives no total (a false one,
/// `Nodes searched: 0`, was printed before); the root moves it printed are
/// counted whole.
#[test]
fn stop_ends_a_long_perft_without_a_total() {
    let mut engine = EngineProcess::start();
    engine.send("go perft 6");
    engine.collect_for(Duration::from_millis(300));
    engine.send("stop");
    engine.read_until("info string perft stopped: no total", Duration::from_secs(5));
    engine.send("isready");
    let after = engine.read_until("readyok", QUICK);
    assert!(!after.iter().any(|l| l.starts_with("Nodes searched")), "{after:?}");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().expect("stdin").write_all(b"position startpos\ngo perft 3\nquit\n")?;
            child.wait_with_output()
        })
        .expect("run tabula");
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(!out.contains("Nodes searched"), "quit before the end: no total\n{out}");
}

/// `go perft 0` counts the position itself, with no error; a depth too
/// large to hold is as deep as the search goes.
#[test]
fn perft_zero_counts_one_and_a_huge_depth_is_no_error() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos");
    engine.send("go perft 0");
    let lines = engine.read_until("Nodes searched:", QUICK);
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 1"), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("error") || l.contains(':') && l.len() < 6), "{lines:?}");
    for depth in ["4294967296", "99999999999999999999999999"] {
        engine.send(&format!("go depth {depth} nodes 30000"));
        let lines = engine.read_until("bestmove", Duration::from_secs(10));
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
        assert!(lines.iter().any(|l| l.starts_with("info depth 3 ")), "deeper than one ply: {lines:?}");
    }
}

#[test]
fn two_threads_answer_isready_and_stop_and_play_legal_moves() {
    let mut engine = EngineProcess::start();
    let start = position(START_9X9);
    engine.send("setoption name Threads value 2");
    engine.send("go infinite");
    let before = engine.collect_for(Duration::from_millis(300));
    assert_eq!(bestmoves(&before), 0, "{before:?}");
    engine.send("isready");
    let lines = engine.read_until("readyok", QUICK);
    assert_eq!(bestmoves(&lines), 0, "{lines:?}");
    engine.send("stop");
    let lines = engine.read_until("bestmove", QUICK);
    check_bestmove(lines.last().unwrap(), &start);
    // Both threads' nodes are counted: the last info reports them.
    engine.send("go movetime 300");
    let lines = engine.read_until("bestmove", Duration::from_secs(5));
    check_bestmove(lines.last().unwrap(), &start);
    assert!(lines.iter().any(|l| l.starts_with("info depth")), "{lines:?}");
    // Whichever thread got further gives the answer, and the last line
    // reported is its line: the answer, then the expected reply.
    engine.send("position fen quoridor 9x9 pawns=e5,e6 hand=4,5 walls=c4h,e4h,d6v,f6h turn=2");
    for nodes in (3_000..40_000).step_by(4_111) {
        engine.send(&format!("go nodes {nodes}"));
        let lines = engine.read_until("bestmove", Duration::from_secs(5));
        let (best, ponder) = parse_bestmove(lines.last().unwrap());
        let last = lines.iter().rev().find(|l| l.starts_with("info depth")).expect("a line reported");
        let pv: Vec<&str> = last.split(" pv ").nth(1).unwrap_or("").split_whitespace().collect();
        assert_eq!(pv.first().copied(), Some(best.as_str()), "{nodes} nodes: {lines:?}");
        assert_eq!(ponder.as_deref(), pv.get(1).copied(), "{nodes} nodes: {lines:?}");
    }
    assert_eq!(engine.sync(), Vec::<String>::new());
}

#[test]
fn graded_levels_search_and_repeat_for_a_seed() {
    let start = position(START_9X9);
    let mut answers = Vec::new();
    for (level, seed) in [(4, 1), (4, 1), (6, 9), (6, 9), (9, 3)] {
        let mut engine = EngineProcess::start();
        engine.send(&format!("setoption name Level value {level}"));
        engine.send(&format!("setoption name Seed value {seed}"));
        engine.send("position startpos moves e2 e8 e3");
        engine.send("go movetime 60000");
        let lines = engine.read_until("bestmove", Duration::from_secs(30));
        assert!(lines.iter().any(|l| l.starts_with("info depth")), "level {level} searches: {lines:?}");
        let mut pos = start.clone();
        for m in ["e2", "e8", "e3"] {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        // The search itself, without its timing.
        let last: Vec<&str> =
            lines.iter().rev().find(|l| l.starts_with("info depth")).unwrap().split(' ').collect();
        let last: String = last
            .iter()
            .enumerate()
            .filter(|&(i, _)| {
                i == 0 || !matches!(last[i - 1], "nps" | "time") && !matches!(last[i], "nps" | "time")
            })
            .map(|(_, w)| *w)
            .collect::<Vec<_>>()
            .join(" ");
        answers.push((check_bestmove(lines.last().unwrap(), &pos), last));
    }
    // A graded level ends its search on its own, long before the clock says,
    // and plays the same search again for the same seed.
    assert_eq!(answers[0], answers[1]);
    assert_eq!(answers[2], answers[3]);
}

// GUI conventions ------------------------------------------------------------

/// The `info` line just before `bestmove`, and `bestmove`'s move.
fn last_info_and_move(lines: &[String]) -> (&String, &str) {
    let n = lines.len();
    assert!(n >= 2 && lines[n - 1].starts_with("bestmove"), "{lines:?}");
    let best = lines[n - 1].split_whitespace().nth(1).unwrap_or_default();
    (&lines[n - 2], best)
}

fn field_of<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.iter().position(|&w| w == key).and_then(|i| words.get(i + 1).copied())
}

#[test]
fn a_final_info_line_comes_before_every_bestmove() {
    let mut engine = EngineProcess::start();
    // Stopped by the clock inside an iteration: the last line still tells
    // the move played, with the nodes of the whole search.
    engine.send("position startpos moves e2 e8 e3 e7 e4 e6 d3h");
    engine.send("go movetime 1500");
    let lines = engine.read_until("bestmove", Duration::from_secs(10));
    let (last, best) = last_info_and_move(&lines);
    assert!(last.starts_with("info depth "), "{lines:?}");
    assert_eq!(field_of(last, "multipv"), Some("1"), "{last}");
    assert_eq!(field_of(last, "pv"), Some(best), "{last}");
    let nodes = |l: &str| field_of(l, "nodes").and_then(|n| n.parse::<u64>().ok());
    let most = lines.iter().filter_map(|l| nodes(l)).max();
    assert_eq!(nodes(last), most, "{lines:?}");
    // Stopped by `stop` during an infinite search.
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("stop");
    let lines = engine.read_until("bestmove", Duration::from_secs(10));
    let (last, best) = last_info_and_move(&lines);
    assert!(last.starts_with("info depth "), "{lines:?}");
    assert_eq!(field_of(last, "pv"), Some(best), "{last}");
    // A level that plays by script says so and shows its move.
    engine.send("setoption name Level value 1");
    engine.send("go movetime 100");
    let lines = engine.read_until("bestmove", Duration::from_secs(10));
    let (last, best) = last_info_and_move(&lines);
    assert!(last.starts_with("info depth 0 "), "{lines:?}");
    assert_eq!(field_of(last, "pv"), Some(best), "{last}");
    engine.send("quit");
}

#[test]
fn long_searches_name_the_root_move_in_hand() {
    let mut engine = EngineProcess::start();
    let moves = ["e2", "e8", "e3", "e7", "d3h"];
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    engine.send("go movetime 2500");
    let lines = engine.read_until("bestmove", Duration::from_secs(15));
    let current: Vec<&String> = lines.iter().filter(|l| l.contains(" currmove ")).collect();
    assert!(!current.is_empty(), "no currmove in a 2.5 s search: {lines:?}");
    let mut pos = position(START_9X9);
    for text in moves {
        let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.make_move(mv);
    }
    for line in current {
        let number: u32 = field_of(line, "currmovenumber").and_then(|n| n.parse().ok()).unwrap_or(0);
        assert!(number >= 1, "{line}");
        let mv = field_of(line, "currmove").unwrap_or_default();
        assert!(pos.parse_move(mv).is_ok(), "not a legal move: {line}");
        assert!(field_of(line, "depth").is_some(), "{line}");
    }
    // Bounds, when a window fails, follow the score's value.
    for line in lines.iter().filter(|l| l.contains("bound")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| w.ends_with("bound")).unwrap_or(0);
        assert_eq!(words.get(at.saturating_sub(3)), Some(&"score"), "{line}");
    }
    engine.send("quit");
}
