//! The engine processes of the real `tabula-board`: each new game is
//! announced with `ucinewgame`, and an engine no seat uses is quit.

use crate::common::*;
use std::time::{Duration, Instant};

#[test]
fn each_game_is_announced_and_an_unused_engine_is_quit() {
    let dir = TempDir::new("newgame");
    let log = dir.file("engine.log");
    let engine = write_engine(&dir, &log, "echo 'bestmove c2'");
    let board = Board::start(&["--engine", &engine]);
    let game = format!("{FIVE}&seat1=engine&level1=1&movetime1=50");
    for round in 1..=2 {
        let before = board.state();
        assert_eq!(board.post("/new", &game).status, 200);
        board.wait_for(&format!("the engine's move in game {round}"), Duration::from_secs(20), |s| {
            s != before && s.contains(r#""moves":["c2"]"#)
        });
    }
    let lines = logged(&log);
    let heard: Vec<&str> =
        lines.iter().map(String::as_str).filter(|l| *l == "ucinewgame" || l.starts_with("go")).collect();
    assert_eq!(heard, ["ucinewgame", "go movetime 50", "ucinewgame", "go movetime 50"], "{lines:?}");
    let engines = descendants(board.pid());
    assert!(!engines.is_empty(), "the engine runs while its seat is an engine's");
    // Nobody uses the engine any more: it is told to quit, and goes.
    assert_eq!(board.post("/seat", "index=1&seat1=human").status, 200);
    wait_until("the idle engine to quit", Duration::from_secs(10), || {
        logged(&log).last().map(String::as_str) == Some("quit") && descendants(board.pid()).is_empty()
    });
}

/// An engine that floods its output while thinking is reported like one
/// that crashes, well before its time is up, and the board stays small.
#[test]
fn an_engine_that_floods_its_output_is_reported() {
    let dir = TempDir::new("flood");
    let log = dir.file("engine.log");
    let engine = write_engine(&dir, &log, "yes 'info depth 1 score cp 0 nodes 1 pv c2'");
    let board = Board::start(&["--engine", &engine]);
    let started = Instant::now();
    assert_eq!(board.post("/new", &format!("{FIVE}&seat1=engine&movetime1=60000")).status, 200);
    let mut peak = 0;
    let state = board.wait_for("the flood to be reported", Duration::from_secs(40), |s| {
        peak = peak.max(resident_kib(board.pid()));
        s.contains("floods its output")
    });
    assert!(state.contains("the seat is now human"), "{state}");
    assert!(started.elapsed() < Duration::from_secs(30), "reported in {:?}", started.elapsed());
    assert!(peak < 150 << 10, "the board grew to {peak} KiB");
}

/// Lines of thought come faster than the page is updated; the latest one
/// is shown once its time comes, not dropped for arriving too soon.
#[test]
fn the_latest_line_of_thought_is_shown_even_when_it_came_too_soon() {
    let dir = TempDir::new("thinking");
    let log = dir.file("engine.log");
    let engine = write_engine(
        &dir,
        &log,
        "echo 'info depth 1 score cp 5 nodes 10 pv c2'; echo 'info depth 2 score cp 7 nodes 90 pv c2 c4'; \
         sleep 2; echo 'bestmove c2'",
    );
    let board = Board::start(&["--engine", &engine]);
    assert_eq!(board.post("/new", &format!("{FIVE}&seat1=engine&movetime1=5000")).status, 200);
    let state = board.wait_for("the engine's second line", Duration::from_secs(20), |s| {
        s.contains(r#""depth":2"#) || s.contains(r#""moves":["c2"]"#)
    });
    assert!(state.contains(r#""pv":["c2","c4"]"#), "{state}");
}
