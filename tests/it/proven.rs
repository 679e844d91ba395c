//! Quarto at full strength keeps what a proof knows, through the binary:
//! with a move time, the engine's move keeps the position's exact value as
//! `go solve` finds it before and after the move, a proven move says so
//! (`score mate N`, or `info string proven by solve: ...` for a draw), and
//! the solver stays out of searches bounded otherwise (`go depth`, lower
//! `Level`s), and out of the way of `stop`.

use crate::common::engine_process::EngineProcess;
use std::time::{Duration, Instant};

const LONG: Duration = Duration::from_secs(120);

/// `go solve`'s result words for the position set up last: `first plies=N`
/// (the player to move wins), `second plies=N` or `draw`.
fn solved(engine: &mut EngineProcess, position: &str) -> String {
    engine.send(position);
    engine.send("go solve");
    let lines = engine.read_until("bestmove", LONG);
    lines
        .iter()
        .find_map(|l| l.strip_prefix("info string solve result: "))
        .map(|r| r.split(" positions=").next().unwrap_or(r).to_string())
        .unwrap_or_else(|| panic!("no solve result for {position}\n{}", engine.dump()))
}

/// The engine's move and every line before it.
fn play(engine: &mut EngineProcess, position: &str, go: &str) -> (String, Vec<String>) {
    engine.send(position);
    engine.send(go);
    let lines = engine.read_until("bestmove", LONG);
    let best = lines
        .last()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or_else(|| panic!("no bestmove for {position}\n{}", engine.dump()))
        .to_string();
    (best, lines)
}

fn quarto() -> EngineProcess {
    let mut engine = EngineProcess::start();
    engine.send("setoption name Game value quarto");
    engine
}

/// The value after a move, seen from the player who made it.
fn value_after(after: &str) -> String {
    match after.split_whitespace().next() {
        Some("first") => after.replacen("first", "lost", 1),
        Some("second") => after.replacen("second", "won", 1),
        _ => after.to_string(),
    }
}

#[test]
fn a_proven_win_is_played_as_the_quickest_win_and_a_draw_is_kept() {
    let mut engine = quarto();
    for (text, before) in [
        // Issue 51: at 1 s the search alone played a1c (cp 30), after
        // which the opponent wins in 11 plies.
        ("quarto 4x4 level=2 board=4.../...5/3.../...e hand=6 turn=2", "first plies=11"),
        ("quarto 4x4 level=1 board=..3./.5../.ca./0..f hand=7 turn=2", "draw"),
        ("quarto 4x4 level=3 board=.1../5..a/4.../.... hand=d turn=2", "first plies=11"),
    ] {
        let position = format!("position fen {text}");
        assert_eq!(solved(&mut engine, &position), before, "{text}");
        let (best, lines) = play(&mut engine, &position, "go movetime 4000");
        let after = value_after(&solved(&mut engine, &format!("{position} moves {best}")));
        let proven = lines.iter().any(|l| l.starts_with("info string proven"));
        assert!(proven, "{text}: no proof said\n{}", lines.join("\n"));
        if let Some(plies) = before.strip_prefix("first plies=") {
            let plies: u32 = plies.parse().expect("plies");
            assert_eq!(after, format!("won plies={}", plies - 1), "{text}: {best}");
            let mate = format!("score mate {}", plies.div_ceil(2));
            assert!(lines.iter().any(|l| l.contains(&mate)), "{text}: no '{mate}'\n{}", lines.join("\n"));
        } else {
            assert_eq!(after, "draw", "{text}: {best}");
        }
    }
}

#[test]
fn the_solver_stays_out_of_depth_limited_and_weaker_searches() {
    let mut engine = quarto();
    let position = "position fen quarto 4x4 level=2 board=4.../...5/3.../...e hand=6 turn=2";
    for (setup, go) in
        [("setoption name Level value 10", "go depth 3"), ("setoption name Level value 6", "go movetime 500")]
    {
        engine.send(setup);
        let (_, lines) = play(&mut engine, position, go);
        assert!(
            !lines.iter().any(|l| l.contains("proven by solve")),
            "{setup} / {go}:\n{}",
            lines.join("\n")
        );
    }
}

#[test]
fn stop_ends_a_proof_at_once_with_one_legal_move() {
    let mut engine = quarto();
    // Three pieces placed: a proof that takes seconds.
    engine.send("position fen quarto 4x4 level=1 board=.1../5..a/..../.... hand=4 turn=1");
    engine.send("go movetime 600000");
    std::thread::sleep(Duration::from_millis(300));
    let stopped = Instant::now();
    engine.send("stop");
    let lines = engine.read_until("bestmove", LONG);
    assert!(stopped.elapsed() < Duration::from_secs(10), "stop took {:?}", stopped.elapsed());
    let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).expect("a bestmove").to_string();
    assert_ne!(best, "(none)");
    engine.send(&format!(
        "position fen quarto 4x4 level=1 board=.1../5..a/..../.... hand=4 turn=1 moves {best}"
    ));
    engine.send("isready");
    let after = engine.read_until("readyok", LONG);
    assert!(!after.iter().any(|l| l.contains("error")), "{best} refused:\n{}", after.join("\n"));
    assert!(engine.collect_for(Duration::from_millis(300)).iter().all(|l| !l.starts_with("bestmove")));
}
