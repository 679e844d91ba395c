//! `tabula solve` and `go solve` through the binary: the pinned last line
//! for scripts, the protocol's result and answer, `isready` and `stop`
//! while solving, and the end of input.

use crate::common::engine_process::EngineProcess;
use std::process::Command;
use std::time::Duration;

const LONG: Duration = Duration::from_secs(30);

fn solve(args: &[&str]) -> (bool, String, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_tabula")).arg("solve").args(args).output().expect("run tabula");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_last_line_says_who_wins() {
    let (ok, stdout, _) = solve(&["width=3", "height=3", "walls=0"]);
    assert!(ok, "{stdout}");
    let last = stdout.lines().last().unwrap_or("");
    assert!(last.starts_with("result: second plies=4"), "{stdout}");
    let (ok, stdout, _) = solve(&["game=quarto", "board=3x3", "moves", "0", "a11"]);
    assert!(ok && stdout.lines().last().unwrap_or("").starts_with("result: first plies=5"), "{stdout}");
}

/// `tabula solve ... | head -1`, and `tabula --help | head -1`: when no one
/// reads the output any more the run ends quietly (141, as SIGPIPE ends
/// a C program), never with a panic.
#[test]
fn a_closed_output_ends_the_run_quietly() {
    use std::process::Stdio;
    for args in [&["solve", "game=quarto", "level=2", "placed=5", "seed=4"][..], &["--help"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run tabula");
        // Closed before the run writes its result.
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("wait");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(matches!(out.status.code(), Some(141 | 0)), "{args:?}: {:?} {stderr}", out.status);
    }
}

#[test]
fn bad_arguments_are_refused() {
    let (ok, _, stderr) = solve(&["width=16"]);
    assert!(!ok && stderr.contains("width"), "{stderr}");
    let (ok, _, stderr) = solve(&["width=4", "height=4", "players=4"]);
    assert!(!ok && stderr.contains("odd sides"), "{stderr}");
    // Nothing given is silently dropped: a key twice, the other game's keys.
    let (ok, stdout, stderr) = solve(&["width=3", "height=3", "width=5"]);
    assert!(!ok && stdout.is_empty() && stderr.contains("width= is given twice"), "{stderr}");
    let (ok, _, stderr) = solve(&["game=quarto", "board=3x3", "walls=3"]);
    assert!(!ok && stderr.contains("walls= is a key of Quoridor"), "{stderr}");
    let (ok, stdout, _) = solve(&["--help"]);
    assert!(ok && stdout.contains("tabula solve [game=quoridor|quarto]"), "{stdout}");
}

#[test]
fn a_position_text_poses_the_same_start_as_the_keys_and_any_other() {
    let last_line = |args: &[&str]| {
        let (ok, stdout, stderr) = solve(args);
        assert!(ok, "{args:?}: {stderr}");
        let last = stdout.lines().last().unwrap_or("").to_string();
        last.split(" positions=").next().unwrap_or("").to_string()
    };
    // 4x3 with 3 walls: the pawns start on b, just left of the centre.
    let by_keys = last_line(&["width=4", "height=3", "walls=3"]);
    assert_eq!(by_keys, "result: first plies=13");
    assert_eq!(last_line(&["position=quoridor 4x3 pawns=b1,b3 hand=3,3 walls=- turn=1"]), by_keys);
    // The mirror image starts on c: the same value.
    assert_eq!(last_line(&["position=quoridor 4x3 pawns=c1,c3 hand=3,3 walls=- turn=1"]), by_keys);
    // Any position, with moves after it.
    let (ok, stdout, _) =
        solve(&["position=quoridor 2x5 pawns=a2,a4 hand=1,0 walls=- turn=1", "moves", "b2"]);
    assert!(ok && stdout.starts_with("solving quoridor 2x5 pawns=b2,a4 hand=1,0 walls=- turn=2"), "{stdout}");
    let (ok, _, stderr) = solve(&["position=quoridor 4x3 pawns=b1,b3 hand=3,3 walls=- turn=1", "walls=2"]);
    assert!(!ok && stderr.contains("position= and walls= both say where to start"), "{stderr}");
}

#[test]
fn go_solve_reports_the_value_and_answers_with_the_first_move_of_the_line() {
    let mut engine = EngineProcess::start();
    for line in [
        "setoption name BoardWidth value 3",
        "setoption name BoardHeight value 3",
        "setoption name Walls value 1",
        "position startpos",
        "go solve",
    ] {
        engine.send(line);
    }
    let lines = engine.read_until("bestmove", LONG);
    let result = lines.iter().find(|l| l.starts_with("info string solve result: ")).expect("a result line");
    assert!(result.starts_with("info string solve result: second plies=8 positions="), "{lines:?}");
    let pv: Vec<&str> = result.split(" pv ").nth(1).unwrap_or("").split_whitespace().collect();
    let bestmove = lines.last().map(String::as_str).unwrap_or("");
    assert_eq!(bestmove, format!("bestmove {} ponder {}", pv[0], pv[1]));
}

#[test]
fn go_solve_takes_even_boards_and_position_texts() {
    let mut engine = EngineProcess::start();
    for line in [
        "setoption name BoardWidth value 4",
        "setoption name BoardHeight value 3",
        "setoption name Walls value 3",
        "position startpos",
        "go solve",
    ] {
        engine.send(line);
    }
    let lines = engine.read_until("bestmove", LONG);
    assert!(lines.iter().any(|l| l.starts_with("info string solve result: first plies=13 ")), "{lines:?}");
    engine.send("position fen quoridor 4x3 pawns=c1,c3 hand=3,3 walls=- turn=1");
    engine.send("go solve");
    let lines = engine.read_until("bestmove", LONG);
    assert!(lines.iter().any(|l| l.starts_with("info string solve result: first plies=13 ")), "{lines:?}");
    // Once proved, the winner is in every progress line of the search for
    // how fast it wins, after the fewest plies its win can take: the last
    // says 13.
    let fast: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string solve phase 4 ")).collect();
    assert!(!fast.is_empty() && fast.iter().all(|l| l.ends_with(" winner first")), "{lines:?}");
    assert!(fast.iter().all(|l| l.contains(" plies at least ")), "{lines:?}");
    assert!(fast.last().is_some_and(|l| l.ends_with(" plies at least 13 winner first")), "{lines:?}");
}

#[test]
fn go_solve_takes_its_method_from_an_option() {
    let mut engine = EngineProcess::start();
    for line in [
        "setoption name BoardWidth value 8",
        "setoption name BoardHeight value 3",
        "setoption name Walls value 3",
        "setoption name SolveMethod value proof",
        "position startpos",
        "go solve",
    ] {
        engine.send(line);
    }
    // The published draw, in well under a second by the proof search.
    let lines = engine.read_until("bestmove", LONG);
    assert!(lines.iter().any(|l| l.starts_with("info string solve phase 3 ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info string solve result: draw positions=")), "{lines:?}");
    engine.send("setoption name SolveMethod value alphabeta");
    engine.send("go solve");
    let lines = engine.read_until("bestmove", LONG);
    assert!(lines.iter().any(|l| l.contains("method alphabeta does not apply")), "{lines:?}");
}

#[test]
fn a_long_solve_answers_isready_and_stops_with_one_bestmove() {
    let mut engine = EngineProcess::start();
    for line in [
        // The empty 4x4 board: far more than a test's time.
        "setoption name Game value quarto",
        "position startpos",
        "go solve",
        "isready",
    ] {
        engine.send(line);
    }
    engine.read_until("readyok", Duration::from_secs(5));
    engine.send("stop");
    let lines = engine.read_until("bestmove", Duration::from_secs(10));
    assert!(lines.iter().any(|l| l.contains("solve: stopped")), "{lines:?}");
    assert!(engine.collect_for(Duration::from_millis(300)).iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn the_end_of_input_lets_a_solve_finish() {
    let mut engine = EngineProcess::start();
    for line in [
        "setoption name Game value quarto",
        "setoption name QuartoBoard value 3x3",
        "position startpos moves 0 a11",
        "go solve",
    ] {
        engine.send(line);
    }
    engine.close_stdin();
    let lines = engine.read_until("bestmove", LONG);
    assert!(lines.iter().any(|l| l.starts_with("info string solve result: first plies=5")), "{lines:?}");
    assert!(engine.wait_exit(Duration::from_secs(5)).is_some(), "exits after answering");
}

#[test]
fn ctrl_c_stops_a_solve_with_a_report() {
    // The empty 4x4 Quarto board does not end within a test.
    let child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["solve", "game=quarto"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run tabula");
    std::thread::sleep(Duration::from_millis(1500));
    let signalled = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill");
    assert!(signalled.success());
    let out = child.wait_with_output().expect("it ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("stopped before the end"), "{stderr}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("result:"));
}

#[test]
fn methods_and_threads_give_the_same_value() {
    let mut results = Vec::new();
    for extra in ["method=graph", "method=layers threads=1", "method=layers threads=2", "method=proof"] {
        let mut args = vec!["width=3", "height=5", "walls=2"];
        args.extend(extra.split(' '));
        let (ok, stdout, _) = solve(&args);
        assert!(ok, "{stdout}");
        let last = stdout.lines().last().unwrap_or("").to_string();
        results.push(last.split(" positions=").next().unwrap_or("").to_string());
    }
    assert!(results.iter().all(|r| r == "result: second plies=18"), "{results:?}");
    let (ok, _, stderr) = solve(&["game=quarto", "method=layers"]);
    assert!(!ok && stderr.contains("does not apply"), "{stderr}");
    let (ok, _, stderr) = solve(&["game=quarto", "method=proof"]);
    assert!(!ok && stderr.contains("method proof does not apply"), "{stderr}");
}

#[test]
fn go_solve_in_a_position_drawn_by_repetition_says_the_game_is_over() {
    let mut engine = EngineProcess::start();
    for line in [
        "setoption name BoardWidth value 3",
        "setoption name BoardHeight value 3",
        "setoption name Walls value 0",
        // Both pawns step aside and back twice: the start stands a third time.
        "position startpos moves a1 c3 b1 b3 a1 c3 b1 b3",
        "go depth 3",
    ] {
        engine.send(line);
    }
    assert_eq!(engine.read_until("bestmove", LONG).last().map(String::as_str), Some("bestmove (none)"));
    engine.send("go solve");
    let lines = engine.read_until("bestmove", LONG);
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"), "{lines:?}");
    assert!(lines.contains(&"info string the game is over (threefold repetition)".to_string()), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("solve result")), "{lines:?}");
    // The same position without the history is solved as usual.
    engine.send("position startpos");
    engine.send("go solve");
    let lines = engine.read_until("bestmove", LONG);
    assert!(lines.iter().any(|l| l.starts_with("info string solve result: second plies=4")), "{lines:?}");
}

#[test]
fn a_memory_limit_too_large_to_count_in_bytes_is_refused() {
    // 2^44 MiB is 2^64 bytes: it once wrapped to a limit of 0 MiB.
    for memory in ["memory=17592186044416", "memory=18446744073709551615"] {
        let out = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(["solve", "width=3", "height=3", "walls=0", memory])
            .output()
            .expect("run tabula");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{memory}: {stderr}");
        assert!(stderr.contains("memory: ") && stderr.contains("MiB"), "{memory}: {stderr}");
    }
    // The largest that fits is taken (and this small board needs little).
    let (ok, stdout, stderr) = solve(&["width=3", "height=3", "walls=0", "memory=17592186044415"]);
    assert!(ok && stdout.contains("result: second plies=4"), "{stdout}{stderr}");
}
