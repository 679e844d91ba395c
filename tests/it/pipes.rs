//! Scripts that pipe their commands in: the end of input, every `go`
//! answered exactly once, and the `go` values the engine cannot use.
//!
//! Each conversation is written whole and then the input is closed, as
//! `printf '...' | tabula` does. Time limits are ten times (or more) what
//! the engine needs on an idle machine.

use crate::common::engine_process::EngineProcess;
use std::time::{Duration, Instant};
use tabula::game::prelude::*;
use tabula::games::quoridor::Quoridor;

const START_9X9: &str = "quoridor 9x9 pawns=e1,e9 hand=10,10 walls=- turn=1 jumps=single";

/// What a piped run printed, and how long it took to exit.
struct Run {
    lines: Vec<String>,
    took: Duration,
}

impl Run {
    fn bestmoves(&self) -> Vec<&String> {
        self.lines.iter().filter(|l| l.starts_with("bestmove")).collect()
    }

    fn count(&self, prefix: &str) -> usize {
        self.lines.iter().filter(|l| l.starts_with(prefix)).count()
    }

    /// The depth of the last `info depth` line.
    fn last_depth(&self) -> u32 {
        let line = self.lines.iter().rev().find(|l| l.starts_with("info depth ")).expect("an info line");
        line.split_whitespace().nth(2).and_then(|d| d.parse().ok()).expect("a depth")
    }
}

/// Writes `input` (lines), closes the input, and reads until the engine
/// exits, which must be within `limit` and successful.
fn piped(input: &[&str], limit: Duration) -> Run {
    let mut engine = EngineProcess::start();
    let started = Instant::now();
    for line in input {
        engine.send(line);
    }
    engine.close_stdin();
    let mut lines = Vec::new();
    while let Some(line) = engine.next_line(limit.saturating_sub(started.elapsed())) {
        lines.push(line);
    }
    let status = engine.wait_exit(limit.saturating_sub(started.elapsed()) + Duration::from_secs(1));
    assert!(status.is_some_and(|s| s.success()), "exit {status:?} for {input:?}\n{}", engine.dump());
    Run { lines, took: started.elapsed() }
}

fn check_legal(bestmove_line: &str, text: &str) {
    let position = Quoridor::from_text(text).expect("a position text");
    let best = bestmove_line.split_whitespace().nth(1).expect("a move");
    assert!(position.parse_move(best).is_ok(), "'{bestmove_line}' in {text}");
}

#[test]
fn a_piped_depth_search_runs_to_its_depth() {
    let run = piped(&["position startpos", "go depth 7"], Duration::from_secs(60));
    assert_eq!(run.bestmoves().len(), 1, "{:?}", run.lines);
    assert_eq!(run.last_depth(), 7, "{:?}", run.lines);
    check_legal(run.bestmoves()[0], START_9X9);
}

#[test]
fn a_piped_perft_counts_every_node() {
    let run = piped(&["position startpos", "go perft 3"], Duration::from_secs(60));
    assert!(run.lines.contains(&"Nodes searched: 2062264".to_string()), "{:?}", run.lines);
}

#[test]
fn a_piped_movetime_search_uses_its_time() {
    let run = piped(&["go movetime 700"], Duration::from_secs(10));
    assert_eq!(run.bestmoves().len(), 1, "{:?}", run.lines);
    assert!(run.took >= Duration::from_millis(600), "answered after {:?}", run.took);
    assert!(run.last_depth() > 1, "{:?}", run.lines);
}

#[test]
fn piped_node_clock_and_mate_searches_are_answered() {
    for go in [
        "go nodes 20000",
        "go wtime 3000 btime 3000 winc 10 binc 10",
        "go mate 1",
        "go depth 3 movetime 60000",
    ] {
        let run = piped(&["position startpos moves e2 e8", go], Duration::from_secs(60));
        assert_eq!(run.bestmoves().len(), 1, "{go}: {:?}", run.lines);
    }
    // Clocks: the search takes a share of the clock, not all of it.
    let run = piped(&["go wtime 3000 btime 3000"], Duration::from_secs(10));
    assert!(run.took < Duration::from_millis(2500), "{:?}", run.took);
}

#[test]
fn the_end_of_input_stops_searches_only_stop_would_end() {
    for go in ["go infinite", "go ponder", "go"] {
        let run = piped(&[go], Duration::from_secs(5));
        assert_eq!(run.bestmoves().len(), 1, "{go}: {:?}", run.lines);
    }
}

#[test]
fn a_queued_go_is_answered_after_the_end_of_input() {
    let run = piped(&["go infinite", "position startpos moves e2", "go depth 3"], Duration::from_secs(30));
    assert_eq!(run.bestmoves().len(), 2, "{:?}", run.lines);
    let run = piped(&["go depth 4", "go depth 3", "go perft 2", "go nodes 500"], Duration::from_secs(30));
    assert_eq!(run.bestmoves().len(), 3, "{:?}", run.lines);
    assert_eq!(run.count("Nodes searched: "), 1, "{:?}", run.lines);
}

#[test]
fn quit_still_answers_every_go_at_once() {
    let run = piped(&["go depth 40", "go depth 40", "go infinite", "quit"], Duration::from_secs(5));
    assert_eq!(run.bestmoves().len(), 3, "{:?}", run.lines);
    assert!(run.took < Duration::from_secs(3), "{:?}", run.took);
}

#[test]
fn every_go_gets_one_bestmove_whatever_its_values() {
    let gos = [
        "go depth 0",
        "go movetime -5",
        "go nodes -7",
        "go depth x",
        "go depth",
        "go mate 0",
        "go movestogo 0 wtime 100",
        "go sideways depth 2",
        "go depth 2 the rest is noise",
        "go searchmoves zz",
        "go\tdepth\t2",
    ];
    let mut input = vec!["position startpos"];
    input.extend(gos);
    let run = piped(&input, Duration::from_secs(30));
    assert_eq!(run.bestmoves().len(), gos.len(), "{:?}", run.lines);
    for line in run.bestmoves() {
        check_legal(line, START_9X9);
    }
    // An error for each value that cannot be used, naming it; a warning for
    // each unknown word (five in "the rest is noise" and "sideways").
    let errors: Vec<&String> = run.lines.iter().filter(|l| l.starts_with("info string error: ")).collect();
    assert_eq!(errors.len(), 8, "{errors:?}");
    for value in ["depth 0", "movetime -5", "nodes -7", "depth x", "mate 0", "movestogo 0"] {
        assert!(errors.iter().any(|l| l.contains(&format!("'{value}'"))), "{value}: {errors:?}");
    }
    assert_eq!(run.count("info string warning: "), 5, "{:?}", run.lines);
    // A value that cannot be used gives the shortest search.
    let run = piped(&["go depth 0"], Duration::from_secs(10));
    assert_eq!(run.last_depth(), 1, "{:?}", run.lines);
}

#[test]
fn a_bad_perft_depth_counts_one_ply() {
    let run = piped(&["go perft -1"], Duration::from_secs(10));
    assert!(
        run.lines.contains(&"Nodes searched: 131".to_string())
            || run.lines.contains(&"Nodes searched: 132".to_string()),
        "{:?}",
        run.lines
    );
    assert_eq!(run.count("info string error: "), 1, "{:?}", run.lines);
}

#[test]
fn a_finished_game_answers_none() {
    let won = "quoridor 9x9 pawns=e9,e5 hand=10,10 walls=- turn=2";
    let run =
        piped(&[&format!("position fen {won}"), "go depth 3", "go movetime 50"], Duration::from_secs(10));
    assert_eq!(run.bestmoves(), ["bestmove (none)", "bestmove (none)"], "{:?}", run.lines);
}

#[test]
fn debug_and_register_are_accepted_silently() {
    let run = piped(
        &["debug on", "debug off", "debug", "register later", "register name x code y", "isready"],
        Duration::from_secs(5),
    );
    assert_eq!(run.lines, ["readyok"]);
}
