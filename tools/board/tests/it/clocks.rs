//! Clocks and scores through the real `tabula-board`: an engine seat hears
//! the clocks (`go wtime ... winc ...`), a clock that runs out loses on
//! time, and an engine's score reaches the view from P1's point of view.

use crate::common::*;
use std::time::Duration;

#[test]
fn an_engine_seat_hears_the_clocks() {
    let dir = TempDir::new("clocks");
    let log = dir.file("engine.log");
    let engine = write_engine(&dir, &log, "echo 'bestmove c2'");
    let board = Board::start(&["--engine", &engine]);
    assert_eq!(board.post("/new", &format!("{FIVE}&tc=5%2B1&seat1=engine&level1=1")).status, 200);
    let state =
        board.wait_for("the engine's move", Duration::from_secs(20), |s| s.contains(r#""moves":["c2"]"#));
    assert!(state.contains(r#""control":"5+1""#) && state.contains(r#""running":1"#), "{state}");
    let go = logged(&log).into_iter().find(|l| l.starts_with("go")).expect("a go");
    let words: Vec<&str> = go.split_whitespace().collect();
    let names: Vec<&str> = words.iter().skip(1).step_by(2).copied().collect();
    assert_eq!(names, ["wtime", "winc", "btime", "binc"], "{go}");
    assert_eq!((words[4], words[6], words[8]), ("1000", "5000", "1000"), "{go}");
    let wtime: u64 = words[2].parse().expect("ms");
    assert!((4000..=5000).contains(&wtime), "{go}");
    // The record names the time control.
    assert!(board.get("/record").body.contains("[TimeControl \"5+1\"]"));
}

#[test]
fn a_clock_that_runs_out_loses_on_time() {
    let board = Board::start(&[]);
    assert_eq!(board.post("/new", &format!("{FIVE}&tc=0.5")).status, 200);
    assert_eq!(board.post("/move", "move=c2").status, 200, "P1 moves in time");
    let state = board.wait_for("P2's flag", Duration::from_secs(10), |s| s.contains("loses on time"));
    assert!(state.contains(r#""result":{"winner":0,"why":"P2 loses on time"}"#), "{state}");
    assert!(state.contains(r#""running":null"#), "the clocks stop: {state}");
    let refused = board.post("/move", "move=c4");
    assert_eq!(refused.status, 422);
    assert!(refused.body.contains("the game is over (P2 loses on time)"), "{}", refused.body);
    // Taking back the loss gives P2 the time it had at the start of its turn; it falls again.
    assert_eq!(board.post("/undo", "").status, 200);
    let again = board.state();
    assert!(again.contains(r#""result":null"#), "{again}");
    board.wait_for("P2's flag again", Duration::from_secs(10), |s| s.contains("P2 loses on time"));
    assert!(board.post("/new", "tc=1e30").body.contains("tc: '1e30' is not inf"));
    // A clock that cannot be played is refused (1e-9+0 lost on time at once).
    let text = |state: String| state.split("\"text\":").nth(1).unwrap_or_default().to_string();
    let before = text(board.state());
    let unplayable = board.post("/new", "tc=1e-9%2B0");
    assert_eq!(unplayable.status, 422, "{unplayable:?}");
    assert!(
        unplayable.body.contains("a base under a tenth of a second cannot be played"),
        "{}",
        unplayable.body
    );
    assert_eq!(text(board.state()), before, "the game is unchanged");
}

#[test]
fn the_engines_score_is_seen_from_p1() {
    let dir = TempDir::new("eval");
    let log = dir.file("engine.log");
    let engine =
        write_engine(&dir, &log, "echo 'info depth 3 score cp 50 nodes 9 pv c4 c3'; echo 'bestmove c4'");
    let board = Board::start(&["--engine", &engine]);
    assert_eq!(board.post("/new", &format!("{FIVE}&seat2=engine&level2=1&movetime2=50")).status, 200);
    assert_eq!(board.post("/move", "move=c2").status, 200);
    let state =
        board.wait_for("P2's move", Duration::from_secs(20), |s| s.contains(r#""moves":["c2","c4"]"#));
    assert!(state.contains(r#""eval":{"kind":"cp","value":-50}"#), "P2 is ahead: {state}");
    assert!(state.contains(r#""last":{"move":"c4","squares":["c5","c4"],"wall":null}"#), "{state}");
    let earlier = board.get("/position?ply=1");
    assert!(earlier.body.contains(r#""pawns":["c2","c5"]"#), "{}", earlier.body);
    assert_eq!(board.get("/position?ply=3").status, 422);
    assert_eq!(board.get("/position?ply=x").status, 400);
    // A take-back forgets the score.
    assert_eq!(board.post("/undo", "").status, 200);
    assert!(board.state().contains(r#""eval":null"#));
}
