//! `go` limits that cannot be used as given, through the binary: clocks
//! for the other players only, `mate` counts beyond what the search
//! reaches, and what `go perft` takes from memory. Each one used to hang, wrap or kill the search thread; every
//! `go` must still get exactly one answer, and later ones too.

use crate::common::engine_process::{EngineProcess, QUICK};
use std::time::Duration;

const LONG: Duration = Duration::from_secs(60);

/// Sends the lines, then reads up to `bestmove`; panics (with the
/// transcript) when no answer comes in time.
fn answer(engine: &mut EngineProcess, lines: &[&str], timeout: Duration) -> Vec<String> {
    for line in lines {
        engine.send(line);
    }
    engine.read_until("bestmove", timeout)
}

fn warns_of_the_missing_clock(lines: &[String], player: usize) -> bool {
    lines.iter().any(|l| {
        l.starts_with("info string warning: go: no clock for player") && l.contains(&player.to_string())
    })
}

#[test]
fn a_clock_for_the_other_side_only_is_answered_at_once() {
    let mut engine = EngineProcess::start();
    // Player 2 to move, only player 1's clock given.
    let lines = answer(&mut engine, &["position startpos moves e2", "go wtime 5000"], QUICK);
    assert!(warns_of_the_missing_clock(&lines, 2), "{lines:?}");
    assert_ne!(lines.last().map(String::as_str), Some("bestmove (none)"));
    // Player 1 to move, only player 2's clock (and increment) given.
    let lines = answer(&mut engine, &["position startpos", "go btime 5000 binc 100"], QUICK);
    assert!(warns_of_the_missing_clock(&lines, 1), "{lines:?}");
    // The mover's own clock is used as before, without a warning.
    let lines = answer(&mut engine, &["go wtime 300"], QUICK);
    assert!(!lines.iter().any(|l| l.contains("warning")), "{lines:?}");
}

#[test]
fn four_player_clocks_without_the_movers_are_answered_at_once() {
    let mut engine = EngineProcess::start();
    engine.send("setoption name Players value 4");
    engine.send("setoption name Walls value 5");
    // Player 4 to move; the clocks of seats 1-3 only.
    let lines = answer(
        &mut engine,
        &["position startpos moves e2 b5 e8", "go p1time 5000 p2time 5000 p3time 5000 p1inc 10"],
        QUICK,
    );
    assert!(warns_of_the_missing_clock(&lines, 4), "{lines:?}");
}

#[test]
fn the_end_of_input_ends_a_go_with_only_the_other_clock() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos moves e2");
    engine.send("go wtime 5000");
    engine.close_stdin();
    engine.read_until("bestmove", QUICK);
    assert!(engine.wait_exit(QUICK).is_some(), "exits after answering\n{}", engine.dump());
}

/// The score of the last `info depth` line.
fn last_score(lines: &[String]) -> Option<String> {
    let info = lines.iter().rev().find(|l| l.starts_with("info depth"))?;
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "score")?;
    Some(format!("{} {}", words.get(at + 1)?, words.get(at + 2)?))
}

#[test]
fn a_mate_count_beyond_the_search_searches_as_deep_as_it_goes() {
    let mut engine = EngineProcess::start();
    // 3x3 with a wall each: the second player wins in 8 plies from the
    // start, so after the first move the mover has a forced win in 4 of
    // its own moves, which a one-ply search cannot see.
    for line in [
        "setoption name BoardWidth value 3",
        "setoption name BoardHeight value 3",
        "setoption name Walls value 1",
    ] {
        engine.send(line);
    }
    for mate in ["2147483649", "4294967295"] {
        let lines = answer(&mut engine, &["position startpos moves a1", &format!("go mate {mate}")], LONG);
        let score = last_score(&lines).unwrap_or_default();
        assert!(score.starts_with("mate ") && !score.starts_with("mate -"), "go mate {mate}: {lines:?}");
        assert_ne!(lines.last().map(String::as_str), Some("bestmove (none)"));
    }
    // The engine still answers what comes after.
    answer(&mut engine, &["go depth 1"], QUICK);
}

/// The lines of `go perft N`, up to `Nodes searched:`; returns the total.
fn perft(engine: &mut EngineProcess, depth: u32, timeout: Duration) -> u64 {
    engine.send(&format!("go perft {depth}"));
    let lines = engine.read_until("Nodes searched:", timeout);
    let last = lines.last().map(String::as_str).unwrap_or_default();
    last.trim_start_matches("Nodes searched: ").parse().unwrap_or_else(|_| panic!("{lines:?}"))
}

#[test]
fn perft_takes_no_second_table_the_size_of_hash() {
    if !std::path::Path::new("/proc/self/status").exists() {
        return; // no /proc: nothing to measure
    }
    let mut engine = EngineProcess::start();
    engine.send("setoption name Hash value 512");
    engine.sync();
    let with_table = engine.status_kib("VmHWM").unwrap_or_default();
    assert_eq!(perft(&mut engine, 1, QUICK), 131);
    assert_eq!(perft(&mut engine, 3, LONG), 2_062_264);
    engine.send("position startpos moves e2 e8 f2h");
    assert_eq!(perft(&mut engine, 3, LONG), perft_reference(&["e2", "e8", "f2h"], 3));
    let peak = engine.status_kib("VmHWM").unwrap_or_default();
    // The search's table is 512 MiB; perft may add what its counts need,
    // far less than another 512 MiB at these depths.
    assert!(peak < with_table + 128 * 1024, "VmHWM {peak} KiB after perft, {with_table} KiB before");
    // The table still serves searches afterwards.
    answer(&mut engine, &["position startpos", "go depth 3"], QUICK);
}

/// Perft by the library, without any table, after `moves` from the start.
fn perft_reference(moves: &[&str], depth: u32) -> u64 {
    use tabula::game::prelude::*;
    use tabula::games::quoridor::{Quoridor, Variant};
    let mut position = Quoridor::new(&Variant::default()).unwrap_or_else(|e| panic!("{e}"));
    for text in moves {
        let mv = position.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
        position.make_move(mv);
    }
    tabula::perft::perft(&position, depth)
}
